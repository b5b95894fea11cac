package evalcase

import (
	"path/filepath"

	"github.com/evalgate/evalgate/internal/repofs"
)

// CountCases counts the cases of the fixture rel (repository-relative) under
// root: its non-blank lines, valid or not, one case each (a line too large
// to read counts too). It reads line by line, holding at most one line, and
// refuses a file outside the repository or inside .git as Check does.
func CountCases(root, rel string) (int, error) {
	full, err := repofs.Within(root, root, filepath.FromSlash(rel))
	if err != nil {
		return 0, err
	}
	f, _, err := repofs.Open(full)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	lr := newLineReader(f, MaxLine)
	n := 0
	for {
		ln, ok := lr.next()
		if !ok {
			break
		}
		if ln.TooLarge || !blank(ln.Text) {
			n++
		}
	}
	return n, lr.Err()
}
