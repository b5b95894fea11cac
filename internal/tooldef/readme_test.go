package tooldef

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeListsEveryCode keeps README.md's code table and the registry in
// step: every registered code has a row with its kind, outcome, severity
// and title, and every row is registered.
func TestReadmeListsEveryCode(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// The table of README "Codes": | `code` | kind | outcome | severity | meaning |
	section := string(b)
	start := strings.Index(section, "\n## Codes\n")
	if start < 0 {
		t.Fatal(`README.md has no "## Codes" section`)
	}
	section = section[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	rows := regexp.MustCompile("(?m)^\\| `([a-z0-9_]+)` \\| ([^|]+) \\| ([^|]+) \\| ([^|]+) \\| ([^|]+) \\|$").FindAllStringSubmatch(section, -1)
	type row struct{ kind, outcome, severity, title string }
	inReadme := map[string]row{}
	for _, m := range rows {
		inReadme[m[1]] = row{m[2], m[3], m[4], m[5]}
	}
	for _, c := range Codes {
		got, ok := inReadme[c.Code]
		if !ok {
			t.Errorf("README.md has no row for code %s", c.Code)
			continue
		}
		if want := (row{c.Kind(), c.OutcomeText(), c.SeverityText(), c.Title}); got != want {
			t.Errorf("README.md describes %s as %+v, the registry as %+v", c.Code, got, want)
		}
		delete(inReadme, c.Code)
	}
	for code := range inReadme {
		t.Errorf("README.md lists %s, which is not a registered code", code)
	}
}
