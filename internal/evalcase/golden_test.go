package evalcase

import (
	"bytes"
	"context"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/testfs"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden checks each testdata/golden/NAME directory: its cases/*.jsonl
// are the fixtures, its candidates/*.jsonl the candidates files, and
// NAME.out the text report (README "Results, outcomes and blocking"), whose positions are the point.
func TestGolden(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join("testdata", "golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			root, err := filepath.Abs(filepath.Join("testdata", "golden", d.Name()))
			if err != nil {
				t.Fatal(err)
			}
			req := Request{Root: root, ReadCandidates: true}
			filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
				rel, _ := filepath.Rel(root, p)
				rel = filepath.ToSlash(rel)
				switch {
				case strings.HasPrefix(rel, "cases/") && strings.HasSuffix(rel, ".jsonl"):
					req.Fixtures = append(req.Fixtures, rel)
				case strings.HasPrefix(rel, "candidates/") && strings.HasSuffix(rel, ".jsonl"):
					req.Candidates = append(req.Candidates, rel)
					req.CandidatesConfigured = true
				}
				return nil
			})
			slices.Sort(req.Fixtures)
			slices.Sort(req.Candidates)
			rs, err := Check(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			diag.Sort(rs)
			rep := &report.Report{Results: report.ResultsOf(rs...)}
			rep.Results.Update(func(r *diag.Result) {
				r.Blocking = r.Outcome == diag.Error || (r.Outcome == diag.Fail && r.Severity == diag.SeverityError)
			})
			rep.Count()
			var buf bytes.Buffer
			if err := report.WriteText(&buf, rep); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "golden", d.Name()+".out")
			testfs.Golden(t, golden, buf.String(), *update)
		})
	}
}
