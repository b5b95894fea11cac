package changes

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// ChangedLines reports the lines of file (repository-relative, '/') that the
// change touches: 1-based line numbers of the working-tree version, sorted,
// unique, from `git diff -U0 baseSHA -- file`. A pure deletion touches the
// line before it (line 1 at the start of the file). An untracked file is
// touched everywhere; a deleted or unchanged file has no lines. baseSHA is
// Changes.BaseSHA. In a pull request run the working tree is HEAD.
func ChangedLines(ctx context.Context, root, baseSHA, file string) ([]int, error) {
	if baseSHA == "" || strings.HasPrefix(baseSHA, "-") {
		return nil, errors.New("changes: ChangedLines needs a resolved base commit")
	}
	g, err := newGit(root, "git is needed to read the change but is not installed")
	if err != nil {
		return nil, err
	}
	// --literal-pathspecs: a file named "docs/[a].md" is that file, not a
	// glob. -U0 leaves only changed lines in the hunks; no textconv, no
	// external diff: the lines are the file's own. --text: a pull request's
	// .gitattributes can mark the file -diff ("Binary files differ", no
	// hunks) to hide what it changed.
	out, err := g.run(ctx, "--literal-pathspecs", "diff", "--text", "-z", "-U0", "--no-color",
		"--no-ext-diff", "--no-textconv", "--no-renames", baseSHA, "--", file)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		// git diff does not show untracked files.
		listed, err := g.run(ctx, "--literal-pathspecs", "ls-files", "-z", "--others",
			"--exclude-standard", "--", file)
		if err != nil {
			return nil, err
		}
		if len(listed) == 0 {
			return nil, nil
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
		if err != nil {
			return nil, err
		}
		return allLines(data), nil
	}
	return hunkLines(out), nil
}

// hunkLines reads the new-side ranges of the hunk headers of a unified diff
// with no context: "@@ -a,b +c,d @@", or "@@@ -a,b -c,d +e,f @@@" for the
// combined diff of an unmerged file. Content lines start with ' ', '+', '-'
// or '\', never '@', so every line starting with '@' is a header.
func hunkLines(patch []byte) []int {
	var lines []int
	inHeader := true
	for raw := range bytes.SplitSeq(patch, []byte{'\n'}) {
		line := string(raw)
		if inHeader && line == "+++ /dev/null" {
			return nil // the file is deleted: it has no lines
		}
		if !strings.HasPrefix(line, "@@") {
			continue
		}
		inHeader = false
		for _, f := range strings.Fields(line)[1:] {
			if strings.Trim(f, "@") == "" {
				break // the header's closing "@@"
			}
			rng, ok := strings.CutPrefix(f, "+")
			if !ok {
				continue
			}
			startText, countText, hasCount := strings.Cut(rng, ",")
			start, err1 := strconv.Atoi(startText)
			count := 1
			var err2 error
			if hasCount {
				count, err2 = strconv.Atoi(countText)
			}
			if err1 != nil || err2 != nil || start < 0 || count < 0 {
				break
			}
			if count == 0 {
				// A pure deletion after line start.
				lines = append(lines, max(start, 1))
			}
			for n := start; n < start+count; n++ {
				lines = append(lines, n)
			}
			break
		}
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// allLines numbers every line of data: 1..n, where a last line without a
// newline counts.
func allLines(data []byte) []int {
	n := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	lines := make([]int, n)
	for i := range lines {
		lines[i] = i + 1
	}
	return lines
}
