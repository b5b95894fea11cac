package diag

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"testing"
)

func TestCodesRegistry(t *testing.T) {
	valid := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	seen := map[string]bool{}
	for _, c := range Codes {
		if !valid.MatchString(c.Code) {
			t.Errorf("code %q is not snake_case", c.Code)
		}
		if seen[c.Code] {
			t.Errorf("code %q registered twice", c.Code)
		}
		seen[c.Code] = true
		if c.Title == "" || c.Title[len(c.Title)-1] == '.' {
			t.Errorf("code %q: title %q must be non-empty without a trailing period", c.Code, c.Title)
		}
		if _, ok := LookupCode(c.Code); !ok {
			t.Errorf("LookupCode(%q) fails", c.Code)
		}
	}
}

func TestLineIndex(t *testing.T) {
	text := []byte("ab\r\nçé x\n\nlast")
	x := NewLineIndex(text)
	tests := []struct {
		off  int
		want Pos
	}{
		{0, Pos{1, 1}},
		{2, Pos{1, 3}},
		{4, Pos{2, 1}},
		{8, Pos{2, 3}}, // after two 2-byte letters: column counts code points
		{11, Pos{3, 1}},
		{12, Pos{4, 1}},
		{100, Pos{4, 5}},
	}
	for _, tt := range tests {
		if got := x.Pos(tt.off); got != tt.want {
			t.Errorf("Pos(%d) = %v, want %v", tt.off, got, tt.want)
		}
	}
	if x.Lines() != 4 {
		t.Errorf("Lines() = %d, want 4", x.Lines())
	}
}

func TestSortOrder(t *testing.T) {
	rs := []Result{
		{Source: SourceJev, File: "a"},
		{Source: SourcePage, File: "b.md", Pos: Pos{2, 1}},
		{Source: SourcePage, File: "b.md", Pos: Pos{1, 9}, Check: "z"},
		{Source: SourcePage, File: "B.md"},
		{Source: SourceConfig, File: ".evalgate.yaml"},
		{Source: SourcePage, File: "b.md", Pos: Pos{1, 9}, Check: "a", Code: "y"},
		{Source: SourcePage, File: "b.md", Pos: Pos{1, 9}, Check: "a", Code: "x"},
	}
	Sort(rs)
	var got []string
	for _, r := range rs {
		got = append(got, r.Source.String()+" "+r.Location()+" "+r.Check+" "+r.Code)
	}
	want := []string{
		"config .evalgate.yaml  ",
		"page B.md  ",
		"page b.md:1:9 a x",
		"page b.md:1:9 a y",
		"page b.md:1:9 z ",
		"page b.md:2:1  ",
		"jev a  ",
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("position %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

// TestCompareTotal: two results that differ in any field a report shows, but their evidence and
// duration, are never equal, and compare the other way round when swapped: a run and the merge of its shards, given in
// any order, list them alike (README "Results, outcomes and blocking").
func TestCompareTotal(t *testing.T) {
	base := Result{Source: SourcePage, File: "data.yaml", Pos: Pos{1, 1}, Check: "cs", Grader: "tool:x",
		Type: TypeRegression, Outcome: Fail, Code: "c", Message: "m", Weight: 1, Assertion: "A.", Key: "k",
		Evidence: map[string]any{"n": 1}}
	for name, change := range map[string]func(*Result){
		"outcome":     func(r *Result) { r.Outcome = Error },
		"severity":    func(r *Result) { r.Severity = SeverityWarning },
		"type":        func(r *Result) { r.Type = TypeCapability },
		"grader":      func(r *Result) { r.Grader = "tool:y" },
		"weight":      func(r *Result) { r.Weight = 2 },
		"assertion":   func(r *Result) { r.Assertion = "B." },
		"verdictless": func(r *Result) { r.Verdictless = true },
	} {
		other := base
		change(&other)
		if c, back := Compare(&base, &other), Compare(&other, &base); c == 0 || c != -back {
			t.Errorf("%s: Compare = %d, swapped %d; want opposite and not 0", name, c, back)
		}
	}
	// Of two fails alike but for what blocks, the one that would block comes first (a baseline accepts it).
	capability, warning := base, base
	capability.Type, warning.Severity = TypeCapability, SeverityWarning
	if Compare(&base, &capability) >= 0 || Compare(&base, &warning) >= 0 {
		t.Error("a regression error fail does not sort before a capability or warning one alike")
	}
	// A tool's findings at one place differ in their evidence: they keep their eval's order (Sort is stable).
	same := base
	same.DurationMS, same.Evidence = 7, map[string]any{"n": 2}
	if Compare(&base, &same) != 0 {
		t.Error("results that differ only in evidence and duration are not equal")
	}
}

// TestSortStable: results equal in every key Compare reads keep the order they came in, among others
// that move around them; in a few results (sorted without sort.Stable) as in many.
func TestSortStable(t *testing.T) {
	for _, n := range []int{2, 7, 12, 13, 100} {
		var rs []Result
		for i := range n {
			// Up to ten keys, told apart only by DurationMS, which Compare does not read.
			rs = append(rs, Result{File: string(rune('j' - i%min(n/2, 10))), DurationMS: int64(i)})
		}
		Sort(rs)
		for i := 1; i < len(rs); i++ {
			a, b := rs[i-1], rs[i]
			if a.File > b.File || a.File == b.File && a.DurationMS >= b.DurationMS {
				t.Fatalf("%d results, position %d: %s/%d after %s/%d", n, i, b.File, b.DurationMS, a.File, a.DurationMS)
			}
		}
	}
}

// BenchmarkSort sorts a spill batch of 4,096 results, shuffled and already in report order.
func BenchmarkSort(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, inOrder := range []bool{false, true} {
		b.Run(fmt.Sprintf("in-order=%v", inOrder), func(b *testing.B) {
			src := make([]Result, 4096)
			for i := range src {
				line := i
				if !inOrder {
					line = r.IntN(len(src))
				}
				src[i] = Result{Source: SourceEvalCase, File: "cases/bench.jsonl", Pos: Pos{Line: line, Col: 1},
					Check: []string{"max_chars", "number_fidelity", "placeholder_integrity"}[i%3], CaseID: fmt.Sprint(line), Code: "ok"}
			}
			if inOrder {
				Sort(src)
			}
			rs := make([]Result, len(src))
			for b.Loop() {
				copy(rs, src)
				Sort(rs)
			}
		})
	}
}

// TestBlocks is the gate of README "Results, outcomes and blocking".
func TestBlocks(t *testing.T) {
	tests := []struct {
		name   string
		res    Result
		failOn Severity
		want   bool
	}{
		{"error fail at error", Result{Outcome: Fail, Severity: SeverityError}, SeverityError, true},
		{"warning fail at error", Result{Outcome: Fail, Severity: SeverityWarning}, SeverityError, false},
		{"warning fail at warning", Result{Outcome: Fail, Severity: SeverityWarning}, SeverityWarning, true},
		{"info fail at warning", Result{Outcome: Fail, Severity: SeverityInfo}, SeverityWarning, false},
		{"info fail at info", Result{Outcome: Fail, Severity: SeverityInfo}, SeverityInfo, true},
		{"anything at none", Result{Outcome: Fail, Severity: SeverityError}, FailOnNone, false},
		{"error outcome of an info eval", Result{Outcome: Error, Severity: SeverityInfo}, SeverityError, true},
		{"error outcome at none", Result{Outcome: Error}, FailOnNone, false},
		{"capability fail", Result{Outcome: Fail, Type: TypeCapability}, SeverityInfo, false},
		{"capability error", Result{Outcome: Error, Type: TypeCapability}, SeverityError, true},
		{"evalcase report assertion", Result{Source: SourceEvalCase, Outcome: Fail, Severity: SeverityWarning, Check: "max_chars"}, SeverityInfo, false},
		{"pass", Result{Outcome: Pass}, SeverityInfo, false},
		{"skip", Result{Outcome: Skip}, SeverityInfo, false},
		{"pending", Result{Outcome: Pending}, SeverityInfo, false},
	}
	for _, tt := range tests {
		if got := Blocks(&tt.res, tt.failOn); got != tt.want {
			t.Errorf("%s: Blocks() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestEnumNames: severities and sources print their names, and a value
// outside an enumeration prints its number; ParseSeverity reads what String
// writes.
func TestEnumNames(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{SeverityError.String(), "error"},
		{SeverityWarning.String(), "warning"},
		{SeverityInfo.String(), "info"},
		{Severity(3).String(), "severity(3)"},
		{Severity(-1).String(), "severity(-1)"},
		{SourceConfig.String(), "config"},
		{SourcePage.String(), "page"},
		{SourceEvalCase.String(), "evalcase"},
		{SourceJev.String(), "jev"},
		{Source(4).String(), "source(4)"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	for _, s := range Severities {
		if got, ok := ParseSeverity(s.String()); !ok || got != s {
			t.Errorf("ParseSeverity(%q) = %v, %t", s.String(), got, ok)
		}
	}
	for _, s := range []string{"", "Error", "severity(3)", "none"} {
		if got, ok := ParseSeverity(s); ok || got != 0 {
			t.Errorf("ParseSeverity(%q) = %v, %t, want 0, false", s, got, ok)
		}
	}
}

// TestFileProblems: a file's problems past MaxFileFaults are counted, and the first of them closes the
// list saying how many; up to the bound the list is as added.
func TestFileProblems(t *testing.T) {
	for _, n := range []int{0, 1, MaxFileFaults, MaxFileFaults + 1, 3 * MaxFileFaults} {
		var f FileProblems
		for i := range n {
			f.Add(Problem{Pos: Pos{Line: i + 1, Col: 1}, Code: "x", Message: "m"})
		}
		got := f.List()
		if f.Len() != n {
			t.Errorf("%d added: Len %d", n, f.Len())
		}
		if n <= MaxFileFaults {
			if len(got) != n {
				t.Errorf("%d added: %d listed", n, len(got))
			}
			continue
		}
		last := got[len(got)-1]
		if len(got) != MaxFileFaults+1 || last.Pos.Line != MaxFileFaults+1 || last.Message != MoreFaults(n-MaxFileFaults) {
			t.Errorf("%d added: %d listed, the last %+v", n, len(got), last)
		}
	}
}
