package review

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

var hash = strings.Repeat("ab", 32)

// TestParse: valid records are read with their lines; a line with a fault
// is left out with positioned faults; blank lines are skipped.
func TestParse(t *testing.T) {
	text := `{"file": "docs/a.md", "eval": "tone", "verdict": "pass", "by": "Ann", "at": "2026-12-01T10:00:00Z", "note": "ok", "sha256": "` + hash + `"}

{"file": "docs/a.md", "eval": "x", "verdict": "maybe", "sha256": "` + hash + `"}
{"file": "docs/b.md", "eval": "y", "verdict": "fail", "sha256": "short"}
{"file": "docs/b.md"
{"file": "docs/c.md", "eval": "z", "verdict": "fail", "sha256": "` + hash + `", "extra": 1}
{"file": "docs/c.md", "eval": "z", "verdict": "fail", "sha256": "` + hash + `"}
`
	recs, problems := Parse([]byte(text))
	if len(recs) != 2 || recs[0].By != "Ann" || recs[0].Line != 1 || recs[1].File != "docs/c.md" || recs[1].Line != 7 {
		t.Errorf("records %+v", recs)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.Pos.String()+" "+p.Code)
	}
	want := []string{"3:47 invalid_value", "4:65 invalid_value", "5:21 syntax_error", "6:133 unknown_key"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("faults %q, want %q", got, want)
	}
}

// TestParseFaultsBounded: a file of thousands of bad lines reports diag.MaxFileFaults faults, then one
// that counts the rest; its good records still count.
func TestParseFaultsBounded(t *testing.T) {
	good := `{"file": "docs/a.md", "eval": "tone", "verdict": "pass", "sha256": "` + hash + `"}` + "\n"
	recs, problems := Parse([]byte(strings.Repeat("x\n", 3000) + good))
	if len(recs) != 1 || len(problems) != diag.MaxFileFaults+1 {
		t.Fatalf("%d records and %d faults, want 1 and %d and the count of the rest", len(recs), len(problems), diag.MaxFileFaults)
	}
	if last := problems[len(problems)-1]; last.Pos.Line != diag.MaxFileFaults+1 || last.Message != diag.MoreFaults(3000-diag.MaxFileFaults) {
		t.Errorf("the last fault is %+v", last)
	}
}

// TestAddIndexMarshal: a review replaces the pair's earlier one, the file
// stays sorted by file and eval, and what Marshal writes Parse reads back.
func TestAddIndexMarshal(t *testing.T) {
	var recs []Record
	for _, r := range []Record{
		{File: "docs/b.md", Eval: "y", Verdict: "fail", SHA256: hash},
		{File: "docs/a.md", Eval: "z", Verdict: "pass", SHA256: hash},
		{File: "docs/a.md", Eval: "m", Verdict: "pass", SHA256: hash},
		{File: "docs/b.md", Eval: "y", Verdict: "pass", SHA256: hash, Note: "fixed <now>"},
	} {
		recs = Add(recs, r)
	}
	var order []string
	for _, r := range recs {
		order = append(order, r.File+"#"+r.Eval+"="+r.Verdict)
	}
	if strings.Join(order, " ") != "docs/a.md#m=pass docs/a.md#z=pass docs/b.md#y=pass" {
		t.Errorf("order %q", order)
	}
	text, err := Marshal(recs)
	if err != nil || !strings.Contains(string(text), `"note":"fixed <now>"`) {
		t.Fatalf("Marshal: %s, %v", text, err)
	}
	back, problems := Parse(text)
	if len(problems) > 0 || len(back) != 3 {
		t.Fatalf("Parse(Marshal) = %+v, %v", back, problems)
	}
	if r := Index(back)[[2]string{"docs/b.md", "y"}]; r.Verdict != "pass" {
		t.Errorf("Index: %+v", r)
	}
}

// FuzzParse: any file gives records and positioned faults, never a panic.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"file": "a", "eval": "b", "verdict": "pass", "sha256": "` + hash + `"}` + "\n{\n"))
	f.Add([]byte("\xff\n[]\n{\"file\": 1}\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		recs, problems := Parse(text)
		for _, p := range problems {
			if !p.Pos.Known() {
				t.Fatalf("fault without a position: %+v", p)
			}
		}
		for _, r := range recs {
			if r.File == "" || r.Eval == "" || (r.Verdict != "pass" && r.Verdict != "fail") || len(r.SHA256) != 64 {
				t.Fatalf("record %+v", r)
			}
		}
	})
}
