package diag

import (
	"os"
	"regexp"
	"testing"
)

// TestReadmeListsEveryCode keeps README.md's code table and the registry in
// step: every registered code has a row, and every row is registered.
func TestReadmeListsEveryCode(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile("(?m)^\\| `([a-z0-9_]+)` \\| [^|]+ \\| ([^|]+) \\|$").FindAllStringSubmatch(string(b), -1)
	inReadme := map[string]string{}
	for _, m := range rows {
		inReadme[m[1]] = m[2]
	}
	for _, c := range Codes {
		title, ok := inReadme[c.Code]
		if !ok {
			t.Errorf("README.md has no row for code %s", c.Code)
			continue
		}
		if title != c.Title {
			t.Errorf("README.md describes %s as %q, the registry as %q", c.Code, title, c.Title)
		}
		delete(inReadme, c.Code)
	}
	for code := range inReadme {
		t.Errorf("README.md lists %s, which is not a registered code", code)
	}
}
