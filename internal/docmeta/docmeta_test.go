package docmeta_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/testfs"
)

var update = flag.Bool("update", false, "rewrite testdata/*/*.out from the current output")

// parsePage splits a page and parses its frontmatter, as the engine does.
func parsePage(t testing.TB, text []byte) (*frontmatter.Node, []diag.Problem) {
	t.Helper()
	return frontmatter.Parse(frontmatter.Split(text))
}

// loadCatalog reads testdata/catalog.yaml: `evals` (named evals) and
// `suites` (name -> evals list), through docmeta's own config entry points.
func loadCatalog(t testing.TB) *docmeta.Catalog {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("testdata", "catalog.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	root, probs := frontmatter.ParseYAML(text, 1)
	if len(probs) > 0 {
		t.Fatalf("catalog.yaml: %v", probs)
	}
	cat := &docmeta.Catalog{Evals: map[string]*docmeta.Eval{}, Suites: map[string]*docmeta.Suite{}}
	var rs []diag.Result
	for _, kv := range root.Get("evals").Value.Entries {
		ev, r := docmeta.NamedEval(kv.Key, kv.KeyPos, kv.Value, "evals."+kv.Key)
		rs = append(rs, r...)
		cat.Evals[kv.Key] = ev
	}
	for _, kv := range root.Get("suites").Value.Entries {
		evals, r := docmeta.SuiteEvals(kv.Value.Get("evals").Value, "suites."+kv.Key+".evals", cat.Evals)
		rs = append(rs, r...)
		cat.Suites[kv.Key] = &docmeta.Suite{Name: kv.Key, Pos: kv.KeyPos, TargetPassRate: 1, Evals: evals}
	}
	if len(rs) > 0 {
		t.Fatalf("catalog.yaml has results: %s", render("catalog.yaml", rs))
	}
	return cat
}

// render writes results in the text report's format, one per line, sorted.
func render(file string, rs []diag.Result) string {
	rs = append([]diag.Result(nil), rs...)
	for i := range rs {
		rs[i].File = file
	}
	diag.Sort(rs)
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%s: %s: %s: %s [%s]\n", r.Location(), r.Severity, r.Check, r.Message, r.Code)
	}
	return b.String()
}

// renderPlan writes a page's resolved plan, one eval per line.
func renderPlan(p *docmeta.Page) string {
	var b strings.Builder
	if p.Suite != "" {
		fmt.Fprintf(&b, "suite %s at %v\n", p.Suite, p.SuitePos)
	}
	if p.Skip {
		fmt.Fprintf(&b, "skip at %v\n", p.SkipPos)
	}
	for _, ev := range p.Evals {
		fmt.Fprintf(&b, "eval %v %s grader=%s type=%s severity=%s weight=%g skip=%t origin=%s",
			ev.Pos, ev.ID, ev.Grader, ev.Type, ev.Severity, ev.Weight, ev.Skip, ev.Origin)
		if ev.Use != "" {
			fmt.Fprintf(&b, " use=%s", ev.Use)
		}
		if ev.Shorthand {
			b.WriteString(" shorthand")
		}
		if ev.Target.Kind != docmeta.TargetBody {
			fmt.Fprintf(&b, " target=%s:%s", ev.Target.Kind, ev.Target.Path)
		}
		if ev.Command != nil {
			fmt.Fprintf(&b, " command=%q in-page=%t exit=%v", ev.Command, ev.CommandInPage, ev.SuccessExitCodes)
		}
		if ev.TimeoutMS != 0 {
			fmt.Fprintf(&b, " timeout-ms=%d", ev.TimeoutMS)
		}
		if ev.Runs != 0 || ev.Provider != "" || ev.Model != "" {
			fmt.Fprintf(&b, " runs=%d provider=%q model=%q", ev.Runs, ev.Provider, ev.Model)
		}
		if len(ev.SeverityMap) > 0 {
			keys := make([]string, 0, len(ev.SeverityMap))
			for k := range ev.SeverityMap {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				fmt.Fprintf(&b, " map:%s=%s", k, ev.SeverityMap[k])
			}
		}
		if len(ev.Options.Entries) > 0 {
			opts, _ := json.Marshal(orderedOptions(ev.Options))
			fmt.Fprintf(&b, " options=%s", opts)
		}
		b.WriteString("\n")
	}
	for _, pv := range p.Provenance {
		fmt.Fprintf(&b, "provenance %v %s %v\n", pv.Pos, pv.GeneratedBy, pv.Evals)
	}
	return b.String()
}

// orderedOptions renders an options mapping as a JSON object in entry order.
func orderedOptions(n *frontmatter.Node) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range n.Entries {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv.Key)
		v, _ := json.Marshal(kv.Value.Value())
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// TestData runs the data-driven rule tests:
// testdata/ok/*.md produce no definition results; testdata/err/X.md and
// testdata/resolve/X.md produce exactly X.out (results, and for resolve/ the
// plan). go test -run TestData -update rewrites the .out files.
func TestData(t *testing.T) {
	cat := loadCatalog(t)
	for _, dir := range []string{"ok", "err", "resolve"} {
		for _, file := range testfs.Files(t, filepath.Join("testdata", dir, "*.md")) {
			name, text := dir+"/"+filepath.Base(file.Path), file.Text
			t.Run(name, func(t *testing.T) {
				root, probs := parsePage(t, text)
				if len(probs) > 0 {
					t.Fatalf("parse: %v", probs)
				}
				page := docmeta.ValidatePage(root, cat, nil)
				checkInvariants(t, page, text)
				got := render(name, page.Results)
				if dir == "resolve" {
					got += "--- plan\n" + renderPlan(page)
				}
				if dir == "ok" {
					for _, r := range page.Results {
						if !r.Verdictless {
							t.Errorf("unexpected result:\n%s", render(name, page.Results))
							break
						}
					}
					if !page.HasEvals {
						t.Errorf("HasEvals is false")
					}
					return
				}
				golden := strings.TrimSuffix(file.Path, ".md") + ".out"
				testfs.Golden(t, golden, got, *update)
			})
		}
	}
}

// checkInvariants checks what every ValidatePage result must hold: results
// are well-formed and positioned inside the text, and every eval is valid.
func checkInvariants(t testing.TB, p *docmeta.Page, text []byte) {
	t.Helper()
	lines := diag.NewLineIndex(text)
	for _, r := range p.Results {
		if r.Source != diag.SourcePage || r.Outcome != diag.Fail || r.Message == "" || strings.ContainsAny(r.Message, "\r\n") {
			t.Errorf("malformed result %+v", r)
		}
		if _, ok := diag.LookupCode(r.Code); !ok {
			t.Errorf("unregistered code %q", r.Code)
		}
		if r.Verdictless {
			if r.Check == diag.CheckDefinition {
				t.Errorf("note with check definition: %+v", r)
			}
		} else if r.Check != diag.CheckDefinition || r.Severity != diag.SeverityError {
			t.Errorf("fault not a definition error: %+v", r)
		}
		if r.Pos.Known() {
			if r.Pos.Line > lines.Lines() || r.Pos.Col < 1 {
				t.Errorf("position %v outside the text (%d lines): %+v", r.Pos, lines.Lines(), r)
			} else {
				start := lines.LineStart(r.Pos.Line)
				end := lines.LineStart(r.Pos.Line + 1)
				if r.Pos.Col-1 > len([]rune(string(text[start:end]))) {
					t.Errorf("column %v beyond its line: %+v", r.Pos, r)
				}
			}
		}
	}
	ids := map[string]bool{}
	for _, ev := range p.Evals {
		if ids[ev.ID] {
			t.Errorf("two evals with id %q", ev.ID)
		}
		ids[ev.ID] = true
		if !docmeta.ValidID(ev.ID) || !docmeta.ValidGrader(ev.Grader) {
			t.Errorf("invalid id or grader: %+v", ev)
		}
		if ev.Type != diag.TypeRegression && ev.Type != diag.TypeCapability {
			t.Errorf("invalid type: %+v", ev)
		}
		if !(ev.Weight > 0) || ev.Runs < 0 || ev.Runs > 50 || ev.TimeoutMS < 0 || len(ev.SuccessExitCodes) == 0 {
			t.Errorf("invalid number: %+v", ev)
		}
		if ev.Options == nil || ev.Options.Kind != frontmatter.Map {
			t.Errorf("options not a mapping: %+v", ev)
		}
		if ev.Command != nil && (ev.Grader != "command" || len(ev.Command) == 0) {
			t.Errorf("command without grader command: %+v", ev)
		}
		if ev.Grader == "ai" || ev.Grader == "human" {
			if ev.Assertion == "" {
				t.Errorf("%s eval without assertion: %+v", ev.Grader, ev)
			}
		}
		if ev.Grader == "command" && ev.Assertion == "" && ev.Command == nil {
			t.Errorf("command eval without assertion and command: %+v", ev)
		}
		if ev.HasHash && ev.Command == nil {
			t.Errorf("hash without command: %+v", ev)
		}
		switch ev.Target.Kind {
		case docmeta.TargetBody, docmeta.TargetRaw, docmeta.TargetFrontmatter:
		case docmeta.TargetFile:
			if ev.Target.Path == "" {
				t.Errorf("file target without path: %+v", ev)
			}
		default:
			t.Errorf("invalid target: %+v", ev)
		}
		if ev.Shorthand && !strings.HasPrefix(ev.ID, "auto-") {
			t.Errorf("shorthand id %q", ev.ID)
		}
	}
}
