package baseline

import (
	"iter"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

// fp names a result by its file and key, as a test's stand-in for the SARIF
// fingerprint.
func fp(r *diag.Result) string { return r.File + "|" + r.Key }

// rule is a test's stand-in for the SARIF rule: an ai eval's results (key "ai") share eval/ai, a tool's
// are tool:x/CODE.
func rule(r *diag.Result) string {
	switch {
	case r.Check == diag.CheckDefinition:
		return "definition/" + r.Code
	case r.Key == "ai":
		return "eval/ai"
	}
	return "tool:x/" + r.Code
}

// each yields the results in rs, in order.
func each(rs []diag.Result) iter.Seq[*diag.Result] {
	return func(yield func(*diag.Result) bool) {
		for i := range rs {
			if !yield(&rs[i]) {
				return
			}
		}
	}
}

func fail(file, key string) diag.Result {
	return diag.Result{File: file, Key: key, Code: "c", Outcome: diag.Fail, Message: "m " + key}
}

// TestBuildAndMark: fails are counted as a multiset and sorted by file,
// rule and fingerprint; errors and passes never enter; marking marks as
// many fails as the count allows, and an entry no longer occurs when none of
// its fails does and its file reached a verdict throughout.
func TestBuildAndMark(t *testing.T) {
	results := []diag.Result{
		fail("b.md", "k"), fail("a.md", "k"), fail("b.md", "k"), fail("d.md", "k"), fail("e.md", "k"), fail("f.md", "k"), fail("g.md", "k"), fail("h.md", "k"),
		{File: "a.md", Key: "e", Outcome: diag.Error, Code: "command_timeout"},
		{File: "a.md", Key: "p", Outcome: diag.Pass, Code: "ok"},
	}
	f := Build(each(results), fp, rule)
	var got []string
	for _, e := range f.Entries {
		got = append(got, e.File+" "+e.Fingerprint+" "+string(rune('0'+e.Count)))
	}
	if want := "a.md a.md|k 1,b.md b.md|k 2,d.md d.md|k 1,e.md e.md|k 1,f.md f.md|k 1,g.md g.md|k 1,h.md h.md|k 1"; strings.Join(got, ",") != want {
		t.Fatalf("entries %q, want %q", got, want)
	}

	// Later: one b.md occurrence fixed (the entry still occurs), a new fail in c.md, d.md's fixed, e.md's
	// tool not run (an error), f.md's fixed while an ai eval of the page waits for its judge: the entries
	// of d.md and f.md no longer occur; e.md's tool cannot tell.
	later := []diag.Result{fail("a.md", "k"), fail("b.md", "k"), fail("c.md", "k"),
		{File: "b.md", Key: "k", Outcome: diag.Error}, {File: "d.md", Key: "p", Outcome: diag.Pass},
		{File: "e.md", Key: "k", Outcome: diag.Error, Code: "too_large"},
		{File: "f.md", Key: "ai", Outcome: diag.Pending, Code: "judge_unavailable"},
		// g.md's eval entry became faulty and left no result: the whole file cannot tell, but for an eval
		// that did leave one (h.md's passed beside a fault of the page's own keys).
		{File: "g.md", Check: diag.CheckDefinition, Outcome: diag.Fail, Code: "unknown_key"},
		{File: "h.md", Check: diag.CheckDefinition, Outcome: diag.Fail, Code: "reserved_prefix"},
		{File: "h.md", Key: "p", Outcome: diag.Pass, Code: "c"}}
	m := f.Marker(fp, rule)
	for res := range each(later) {
		m.Mark(res)
	}
	if fixed := m.Fixed(); fixed != 3 {
		t.Errorf("fixed = %d, want 3 (d.md's, f.md's and h.md's entries)", fixed)
	}
	for i, want := range []bool{true, true, false, false, false, false, false, false, false, false} {
		if later[i].Baselined != want {
			t.Errorf("result %d (%s, %s) baselined = %v, want %v", i, later[i].File, later[i].Outcome, later[i].Baselined, want)
		}
	}
	if diag.Blocks(&later[0], diag.SeverityInfo) {
		t.Error("a baselined fail blocks")
	}

	// Re-baselined from the later run: e.md's entry is kept, as its tool did not run; d.md's and f.md's
	// are dropped; of b.md, undecided, the larger count stays.
	again := Build(each(later), fp, rule)
	again.Keep(f)
	got = got[:0]
	for _, e := range again.Entries {
		got = append(got, e.File+" "+e.Fingerprint+" "+string(rune('0'+e.Count)))
	}
	if want := "a.md a.md|k 1,b.md b.md|k 2,c.md c.md|k 1,e.md e.md|k 1,g.md g.md| 1,g.md g.md|k 1,h.md h.md| 1"; strings.Join(got, ",") != want {
		t.Errorf("re-baselined entries %q, want %q", got, want)
	}
}

// TestCompanions: a page's result that reached no verdict speaks for the companions its evidence names,
// where its eval's fails stand: of its own eval (an error), or of every eval (the page's eval-skip).
func TestCompanions(t *testing.T) {
	known := Build(each([]diag.Result{fail("data.yaml", "k"), fail("other.yaml", "k")}), fp, rule)
	names := func(files ...any) map[string]any { return map[string]any{diag.EvidenceCompanions: files} }
	tests := []struct {
		name  string
		later diag.Result
		fixed int
	}{
		{"no evidence: both gone", diag.Result{File: "p.md", Outcome: diag.Error, Code: "c"}, 2},
		{"its tool erred", diag.Result{File: "p.md", Outcome: diag.Error, Code: "c", Evidence: names("data.yaml")}, 1},
		{"another eval waits", diag.Result{File: "p.md", Key: "ai", Outcome: diag.Pending, Code: "c", Evidence: names("data.yaml")}, 2},
		{"the page's eval-skip", diag.Result{File: "p.md", Outcome: diag.Skip, Code: "page_skipped", Evidence: names("data.yaml", "other.yaml")}, 0},
		{"a name that is no string", diag.Result{File: "p.md", Outcome: diag.Error, Code: "c", Evidence: names(7)}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := known.Marker(fp, rule)
			m.Mark(&tt.later)
			if got := m.Fixed(); got != tt.fixed {
				t.Errorf("fixed = %d, want %d", got, tt.fixed)
			}
			again := Build(each([]diag.Result{tt.later}), fp, rule)
			again.Keep(known)
			if got := len(again.Entries); got != 2-tt.fixed {
				t.Errorf("re-baselined: %d entries, want %d", got, 2-tt.fixed)
			}
		})
	}
}

// TestRoundTrip: what Marshal writes, Parse reads back the same.
func TestRoundTrip(t *testing.T) {
	f := Build(each([]diag.Result{fail("a.md", "x\"<y>"), fail("a.md", "z")}), fp, rule)
	text, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), `"message": "m x\"<y>"`) || !strings.HasSuffix(string(text), "}\n") {
		t.Errorf("text:\n%s", text)
	}
	back, problems := Parse(text)
	if len(problems) > 0 || len(back.Entries) != 2 || back.Entries[0] != f.Entries[0] || back.Entries[1] != f.Entries[1] {
		t.Errorf("Parse = %+v, %v; want %+v", back, problems, f)
	}
}

// TestParseFaults: each fault is positioned, with the kit's words.
func TestParseFaults(t *testing.T) {
	tests := []struct{ text, want string }{
		{``, "1:1 syntax_error"},
		{`{"version": 1,`, "1:15 syntax_error"},
		{`[]`, "1:1 wrong_type"},
		{`{"entries": []}`, "1:1 missing_field"},
		{`{"version": 2, "entries": []}`, "1:13 invalid_value"},
		{`{"version": 1, "entries": [{"fingerprint": "f"}]}`, "1:28 missing_field"},
		{`{"version": 1, "entries": [{"fingerprint": "f", "count": 0}]}`, "1:58 invalid_value"},
		{`{"version": 1, "entries": [{"fingerprint": "", "count": 1}]}`, "1:44 invalid_value"},
		{`{"version": 1, "entries": [], "extra": 1}`, "1:31 unknown_key"},
		{`{"version": 1, "version": 1, "entries": []}`, "1:16 duplicate_key"},
		{"{\"version\": 1, \"entries\": [{\"fingerprint\": \"\xff\", \"count\": 1}]}", "1:45 invalid_utf8"},
	}
	for _, tt := range tests {
		f, problems := Parse([]byte(tt.text))
		if f != nil || len(problems) == 0 {
			t.Errorf("Parse(%q) = %+v, %v: want faults", tt.text, f, problems)
			continue
		}
		if got := problems[0].Pos.String() + " " + problems[0].Code; got != tt.want {
			t.Errorf("Parse(%q): first fault %s (%s), want %s", tt.text, got, problems[0].Message, tt.want)
		}
	}
}

// TestParseFaultsBounded: a file of thousands of bad entries reports diag.MaxFileFaults faults in file
// order, then one that counts the rest; the file's own keys are checked after its entries.
func TestParseFaultsBounded(t *testing.T) {
	text := `{"version": 2, "entries": [` + strings.TrimSuffix(strings.Repeat(`[], `, 3000), ", ") + "]}"
	f, problems := Parse([]byte(text))
	if f != nil || len(problems) != diag.MaxFileFaults+1 {
		t.Fatalf("%d faults, want %d and the count of the rest", len(problems), diag.MaxFileFaults)
	}
	for i := 1; i < len(problems); i++ {
		if problems[i].Pos.Col < problems[i-1].Pos.Col {
			t.Fatalf("fault %d at %v comes after one at %v", i, problems[i].Pos, problems[i-1].Pos)
		}
	}
	if last := problems[len(problems)-1]; last.Message != diag.MoreFaults(3001-diag.MaxFileFaults) {
		t.Errorf("the last fault says %q", last.Message)
	}
	// Below the bound, the file's own key is among them, first in file order.
	_, problems = Parse([]byte(`{"version": 2, "entries": [[], []]}`))
	if len(problems) != 3 || problems[0].Pos.Col != 13 || problems[0].Code != "invalid_value" {
		t.Errorf("faults %v, want the version first", problems)
	}
}

// FuzzParse: any text gives a file or positioned faults, never a panic; a
// file read back marshals to text that parses to the same file.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"version": 1, "entries": [{"fingerprint": "f", "count": 2, "rule": "r", "file": "a", "message": "m"}]}`,
		`{"version": 1, "entries": []}`, `{`, `[1]`, `{"version": 1e400}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		b, problems := Parse(text)
		if b == nil {
			for _, p := range problems {
				if !p.Pos.Known() {
					t.Fatalf("fault without a position: %+v", p)
				}
			}
			if len(problems) == 0 {
				t.Fatal("no file and no fault")
			}
			return
		}
		out, err := b.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		again, problems := Parse(out)
		if again == nil || len(again.Entries) != len(b.Entries) {
			t.Fatalf("re-parse of %q: %v", out, problems)
		}
	})
}
