package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

// TestReadJSONRoundTrip: a report read back from its JSON writes the same JSON, and the same
// SARIF and JUnit, so that a merge of shards loses nothing.
func TestReadJSONRoundTrip(t *testing.T) {
	for name, r := range map[string]*Report{"sample": sample(), "baselined": baselinedSample(), "judged": judgedReport(),
		"edge": sarifEdgeReport(), "hostile": sarifHostileReport()} {
		r.Scope.Shard, r.Scope.Config = &Shard{Index: 2, Count: 3}, &ConfigFile{File: ".evalgate.yaml", SHA256: "ab12"}
		r.validText() // as Finish leaves every report
		var first bytes.Buffer
		if err := WriteJSON(&first, r); err != nil {
			t.Fatal(err)
		}
		back, err := ReadJSON(bytes.NewReader(first.Bytes()))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var second bytes.Buffer
		if err := WriteJSON(&second, back); err != nil {
			t.Fatal(err)
		}
		if first.String() != second.String() {
			t.Errorf("%s: the JSON changed on the way back:\n%s\nthen\n%s", name, first.String(), second.String())
		}
		back.Duration, back.Category, back.Seen = r.Duration, r.Category, r.Seen
		if a, b := writeReport(t, WriteSARIF, r), writeReport(t, WriteSARIF, back); !bytes.Equal(a, b) {
			t.Errorf("%s: the SARIF changed on the way back", name)
		}
		if a, b := writeReport(t, WriteJUnit, r), writeReport(t, WriteJUnit, back); !bytes.Equal(a, b) {
			t.Errorf("%s: the JUnit changed on the way back", name)
		}
	}
}

// TestReadJSONFaults: what is no report of this version says why.
func TestReadJSONFaults(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"", "not an evalgate JSON report"},
		{`{"version": 2}`, "report version 2"},
		{`{"version": 1, "extra": 1}`, `unknown field "extra"`},
		{`{"version": 1, "scope": {"mode": "some"}}`, `scope.mode "some"`},
		{`{"version": 1, "scope": {"mode": "all", "shard": {"index": 4, "count": 3}}}`, "scope.shard 4/3"},
		{`{"version": 1, "scope": {"mode": "all"}, "results": [{"source": "page", "severity": "error", "outcome": "maybe"}]}`, `results[0]: outcome "maybe"`},
		{`{"version": 1, "scope": {"mode": "all"}, "results": [{"source": "web", "severity": "error", "outcome": "pass"}]}`, `results[0]: source "web"`},
		{`{"version": 1, "scope": {"mode": "all"}, "results": [{"source": "page", "severity": "fatal", "outcome": "pass"}]}`, `results[0]: severity "fatal"`},
		// Weights no run writes: two shards of 1e308 would add up to +Inf, the score to NaN.
		{`{"version": 1, "scope": {"mode": "all"}, "summary": {"weights": {"pass": 1e308, "total": 1e308}}}`, "summary.weights {pass: 1e+308"},
		{`{"version": 1, "scope": {"mode": "all"}, "summary": {"weights": {"pass": -1, "total": 2}}}`, "summary.weights {pass: -1"},
		{`{"version": 1, "scope": {"mode": "all"}, "summary": {"weights": {"pass": 3, "total": 2}}}`, "summary.weights {pass: 3"},
		{`{"version": 1, "scope": {"mode": "all"}, "suites": [{"name": "s", "weights": {"pass": 0, "total": -1}}]}`, "suites[0].weights"},
		// A key twice at any depth, which encoding/json would take last-wins.
		{`{"version": 1, "scope": {"mode": "all", "mode": "paths"}}`, `scope: duplicate key "mode"`},
		{`{"version": 1, "scope": {"mode": "all", "shard": {"index": 2, "index": 1, "count": 3}}}`, `duplicate key "index"`},
		{`{"version": 1, "scope": {"mode": "all"}, "results": [{"source": "page", "severity": "error", "outcome": "fail", "outcome": "pass"}]}`, `results[0]: duplicate key "outcome"`},
		// Paths no run names: outside the repository, or git's own.
		{`{"version": 1, "scope": {"mode": "all"}, "results": [{"source": "page", "file": "../../etc/passwd", "severity": "error", "outcome": "fail"}]}`, `results[0]: file "../../etc/passwd"`},
		{`{"version": 1, "scope": {"mode": "all"}, "results": [{"source": "page", "file": ".git/config", "severity": "error", "outcome": "fail"}]}`, `results[0]: file ".git/config"`},
		{`{"version": 1, "scope": {"mode": "all"}, "results": [{"source": "page", "file": "/etc/shadow", "severity": "error", "outcome": "fail"}]}`, `results[0]: file "/etc/shadow"`},
		{`{"version": 1, "scope": {"mode": "all"}, "results": [{"source": "page", "file": "docs/../x.md", "severity": "error", "outcome": "fail"}]}`, `results[0]: file "docs/../x.md"`},
		{`{"version": 1, "scope": {"mode": "all", "files": ["docs/a.md", "../b.md"]}}`, `scope.files[1] "../b.md"`},
		{`{"version": 1, "scope": {"mode": "all", "files": ["a", "a"]}}`, `scope.files[1] "a" does not come after "a"`},
		{`{"version": 1, "scope": {"mode": "all", "files": ["b", "a"]}}`, `scope.files[1] "a" does not come after "b"`},
		{`{"version": 1, "scope": {"mode": "all", "config": {"file": "../../../etc/passwd", "sha256": "x"}}}`, `scope.config.file "../../../etc/passwd"`},
		// A result larger than any run writes is refused before it is held.
		{`{"version": 1, "scope": {"mode": "all"}, "results": [{"source": "page", "severity": "error", "outcome": "fail", "message": "` +
			strings.Repeat("A", 20<<20) + `"}]}`, "results[0]: a value larger than any report evalgate writes holds"},
		// Evidence deeper than every JSON value evalgate reads.
		{`{"version": 1, "scope": {"mode": "all"}, "results": [{"source": "page", "severity": "error", "outcome": "fail", "evidence": {"a": ` +
			strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}]}`, "results[0]: evidence nests deeper than 1000 levels"},
	} {
		_, err := ReadJSON(strings.NewReader(tt.text))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.text, err, tt.want)
		}
	}
}

// FuzzReadJSON: whatever a shard's report file holds, ReadJSON returns a report or an error, never
// a panic; a report it accepts writes JSON it accepts again, unchanged the second time.
func FuzzReadJSON(f *testing.F) {
	for _, r := range []*Report{sample(), judgedReport(), {Scope: Scope{Mode: ScopeAll}}} {
		var b bytes.Buffer
		WriteJSON(&b, r)
		f.Add(b.Bytes())
	}
	f.Add([]byte(`{"version": 1, "scope": {"mode": "all", "shard": {"index": 1, "count": 2}}, "results": [{"source": "page", "severity": "info", "outcome": "skip", "line": -3}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ReadJSON(bytes.NewReader(data))
		if err != nil {
			return
		}
		r.validText()
		var once, twice bytes.Buffer
		if err := WriteJSON(&once, r); err != nil {
			t.Fatalf("a report read could not be written: %v", err)
		}
		back, err := ReadJSON(bytes.NewReader(once.Bytes()))
		if err != nil {
			t.Fatalf("evalgate's own JSON was refused: %v\n%s", err, once.Bytes())
		}
		WriteJSON(&twice, back)
		if once.String() != twice.String() {
			t.Fatalf("the JSON changed on a second round:\n%s\nthen\n%s", once.Bytes(), twice.Bytes())
		}
	})
}

// TestReadJSONStreams: a large report is read one result at a time into the spilled store, not
// decoded whole, and reads back every result; members twice or unknown are refused.
func TestReadJSONStreams(t *testing.T) {
	spillAll(t, 100, 1<<30)
	r := &Report{Tool: Tool{Name: "evalgate", Version: "1"}, Scope: Scope{Mode: ScopeAll}}
	for i := range 1000 {
		r.Results.Add(diag.Result{Source: diag.SourcePage, File: fmt.Sprintf("f%04d.md", i), Outcome: diag.Pass, Code: "ok"})
	}
	var js bytes.Buffer
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(bytes.NewReader(js.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer back.Results.Close()
	// In report order, the spilled batches make one run; at most one batch is in memory.
	if back.Results.Len() != 1000 || len(back.Results.runs) != 1 || len(back.Results.buf) >= 100 || back.Summary.Pass != 1000 {
		t.Fatalf("%d results in %d runs and %d in memory, summary %+v", back.Results.Len(), len(back.Results.runs), len(back.Results.buf), back.Summary)
	}
	for _, bad := range []string{`{"version": 1, "version": 1}`, `{"version": 1, "extra": 2}`, `[1]`, `{"results": {}}`} {
		if _, err := ReadJSON(strings.NewReader(bad)); err == nil {
			t.Errorf("%s is read", bad)
		}
	}
}

// validText makes every result's text and every notice valid UTF-8, as Add and Finish leave them,
// for test reports whose results were not added one by one.
func (r *Report) validText() {
	r.Results.Update(func(res *diag.Result) { validResult(res) })
	for i, n := range r.Notices {
		r.Notices[i] = validUTF8(n)
	}
}

// TestReadJSONOddNames: names that are not UTF-8, sorted as they are and written with U+FFFD, may read
// alike or out of order in a run's own report, which merge still reads.
func TestReadJSONOddNames(t *testing.T) {
	text := `{"version": 1, "scope": {"mode": "all", "files": ["docs/a\ufffd.md", "docs/a\ufffd.md", "docs/a\u00e9.md", "docs/a\ufffd.md"]}}`
	if _, err := ReadJSON(strings.NewReader(text)); err != nil {
		t.Errorf("a run's own list of odd names: %v", err)
	}
}
