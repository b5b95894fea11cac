package evalcase

import (
	"context"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/testfs"
)

// check runs Check over a tree: every *.jsonl under cases/ is a fixture,
// every one under candidates/ a candidates file.
func check(t testing.TB, files map[string]string) []diag.Result {
	t.Helper()
	root := testfs.Tree(t, files)
	req := Request{Root: root, ReadCandidates: true}
	for name := range files {
		switch {
		case strings.HasPrefix(name, "cases/"):
			req.Fixtures = append(req.Fixtures, name)
		case strings.HasPrefix(name, "candidates/"):
			req.Candidates = append(req.Candidates, name)
			req.CandidatesConfigured = true
		}
	}
	sortStrings(req.Fixtures)
	sortStrings(req.Candidates)
	rs, err := Check(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	diag.Sort(rs)
	return rs
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

// textLines renders results as the text report does, passes included as
// "pass" lines, without the summary.
func textLines(rs []diag.Result) string {
	var b strings.Builder
	for _, r := range rs {
		label := r.Severity.String()
		if r.Outcome != diag.Fail {
			label = string(r.Outcome)
		}
		b.WriteString(report.OneLine(r.Location()) + ": " + label + ": " + r.Check + ": " + report.OneLine(r.Message) + " [" + r.Code + "]\n")
	}
	return b.String()
}
