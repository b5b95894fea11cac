package jev

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

func loadTestdata(t *testing.T, contract string, opts Options, replays ...string) (*Contract, []*Replay) {
	t.Helper()
	text, err := os.ReadFile("testdata/" + contract)
	if err != nil {
		t.Fatal(err)
	}
	c, faults := LoadContract(contract, text, opts)
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	var rs []*Replay
	for _, name := range replays {
		text, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		r, faults := LoadReplay(name, text)
		if len(faults) > 0 {
			t.Fatal(codes(faults))
		}
		rs = append(rs, r)
	}
	return c, rs
}

// summary lays out a report's values as the summary of `evalgate jev` does
// (internal/cli writes it, escaped): the tests read them at a glance.
func summary(t *testing.T, rep *Report) string {
	t.Helper()
	var sb strings.Builder
	fmt.Fprintf(&sb, "evalgate jev %s: %s\nbaseline: %s  candidate: %s\n", rep.Mode, rep.Title, rep.Baseline, rep.Candidate)
	fmt.Fprintf(&sb, "cases: %d  unchanged: %d  confidence regressions: %d  answer flips: %d\n", len(rep.Cases), rep.Unchanged, rep.Regressions, rep.Flips)
	for _, c := range rep.Cases {
		for _, f := range c.Fields {
			if f.Outcome != Unchanged {
				fmt.Fprintf(&sb, "%s %s: %s  [%s]\n", c.ID, f.Field, f.Detail, f.Outcome.Label())
			}
		}
	}
	if rep.Breaking() {
		sb.WriteString("breaking\n")
	} else {
		sb.WriteString("compatible\n")
	}
	return sb.String()
}

// TestCompareExample compares the example's baseline replay (jev-1.13) with
// the breaking one (jev-1.15): the expectations are the baseline's answers,
// with the contract's floors and tolerances.
func TestCompareExample(t *testing.T) {
	c, rs := loadTestdata(t, "contract.json", Options{CandidateModel: "jev-1.15"}, "baseline.json", "candidate.json")
	rep, faults := Compare(c, rs[0], rs[1])
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	want := `evalgate jev compare: support-triage
baseline: jev-1.13  candidate: jev-1.15
cases: 3  unchanged: 0  confidence regressions: 2  answer flips: 1
ticket-001 intent: billing→general  [flip]
ticket-001 billing: noul 0.96→0.82 (tolerance 0.10)  [regression]
ticket-002 intent: confidence 0.90→0.71 (tolerance 0.10)  [regression]
ticket-003 urgency: confidence 0.85→0.72 (tolerance 0.10)  [regression]
breaking
`
	if got := summary(t, rep); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
	// The same replay as baseline and candidate changes nothing.
	c, rs = loadTestdata(t, "contract.json", Options{}, "baseline.json", "baseline.json")
	rep, faults = Compare(c, rs[0], rs[1])
	if len(faults) > 0 || rep.Breaking() || rep.Unchanged != 3 {
		t.Errorf("compare with itself: %s\n%s", codes(faults), summary(t, rep))
	}
}

func TestCompareDerivation(t *testing.T) {
	text := contractJSON(`"defaults": {"min_confidence": 0.5, "confidence_tolerance": 0.1, "noul_tolerance": 0.05, "noul_true_threshold": 0.6}`,
		caseJSON("t-1", `"q": {"choice": "general", "baseline_confidence": 0.99, "min_confidence": 0.7}, "n": {"noul_true": false, "min_noul": 0.3}, "s": {"score": 0, "score_tolerance": 0.2}`))
	c, faults := LoadContract("c.json", []byte(text), Options{})
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	base, _ := LoadReplay("b.json", []byte(replayJSON([3]string{"t-1", `"jev-1.13"`, aChoice + ", " + aNoul + ", " + aScore})))
	want := []Expect{
		// The baseline's label and confidence; the field's own floor, the
		// defaults' tolerance.
		{Choice: "billing", HasChoice: true, BaselineConfidence: some(0.9), Tolerances: Tolerances{MinConfidence: some(0.7), ConfidenceTolerance: some(0.1), NoulTolerance: some(0.05), ScoreTolerance: some(0.5)}},
		// noul, noul_true (0.8 >= 0.6) and baseline_confidence = noul; the
		// field's min_noul kept.
		{Noul: some(0.8), NoulTrue: true, HasNoulTrue: true, MinNoul: some(0.3), BaselineConfidence: some(0.8), Tolerances: Tolerances{MinConfidence: some(0.5), ConfidenceTolerance: some(0.1), NoulTolerance: some(0.05), ScoreTolerance: some(0.5)}},
		{Score: some(1.9), BaselineConfidence: some(0.85), Tolerances: Tolerances{ScoreTolerance: some(0.2), MinConfidence: some(0.5), ConfidenceTolerance: some(0.1), NoulTolerance: some(0.05)}},
	}
	expects := make([]Expect, len(c.Cases[0].Fields))
	for i, f := range c.Cases[0].Fields {
		expects[i] = f.Expect.resolve(c.Defaults)
	}
	model, ok := derive(c, &c.Cases[0], base, expects)
	if !ok || model != "jev-1.13" {
		t.Fatalf("derive: %q %v", model, ok)
	}
	for i := range want {
		if expects[i] != want[i] {
			t.Errorf("field %s:\n got %+v\nwant %+v", c.Cases[0].Fields[i].Name, expects[i], want[i])
		}
	}
	// A candidate missing an answer flips; one within the derived
	// tolerances is unchanged.
	cand, _ := LoadReplay("r.json", []byte(replayJSON([3]string{"t-1", `"jev-1.14"`,
		strings.Replace(aChoice, "0.9,", "0.81,", 1) + ", " + strings.Replace(aNoul, "0.8", "0.86", 1)})))
	rep, faults := Compare(c, base, cand)
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	got := summary(t, rep)
	if !strings.Contains(got, "t-1 n: noul 0.80→0.86 (tolerance 0.05)  [regression]") || !strings.Contains(got, "t-1 s: missing answer  [flip]") ||
		strings.Contains(got, "t-1 q:") {
		t.Errorf("summary:\n%s", got)
	}
}

func TestCompareBaselineFaults(t *testing.T) {
	text := contractJSON("", caseJSON("t-1", `"q": {"choice": "billing"}, "n": {"noul_true": true}`), caseJSON("t-2", `"q": {"choice": "billing"}`))
	c, faults := LoadContract("c.json", []byte(text), Options{})
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	cand, _ := LoadReplay("r.json", []byte(replayJSON([3]string{"t-1", `"jev-1.14"`, aChoice + ", " + aNoul}, [3]string{"t-2", `"jev-1.14"`, aChoice})))
	tests := []struct {
		name     string
		baseline string
		want     string // code and position marker
		at       string
		msg      string
	}{
		{"a missing baseline case", replayJSON([3]string{"t-1", `"jev-1.13"`, aChoice + ", " + aNoul}), "replay_missing_case", "", `the baseline replay has no answers for case "t-2"`},
		{"a missing baseline field", replayJSON([3]string{"t-1", `"jev-1.13"`, aChoice}, [3]string{"t-2", `"jev-1.13"`, aChoice}), "replay_invalid", "L2:30",
			`"t-1": the baseline replay has no answer for field "n"`},
		{"a wrong-kind baseline answer", replayJSON([3]string{"t-1", `"jev-1.13"`, aChoice + `, "n": {"choice": "x", "confidence": 1, "probabilities": {"x": 1}}`}, [3]string{"t-2", `"jev-1.13"`, aChoice}),
			"replay_invalid", `{"choice": "x"`, `the baseline answer for "n" is a choice answer; the question is noul`},
		{"a baseline of another model", replayJSON([3]string{"t-1", `"jev-1.13"`, aChoice + ", " + aNoul}, [3]string{"t-2", `"jev-1.13.0"`, aChoice}),
			"model_mismatch", `"jev-1.13.0"`, `"t-2": response model "jev-1.13.0" is not the pinned baseline "jev-1.13"`},
	}
	for _, tt := range tests {
		base, bf := LoadReplay("b.json", []byte(tt.baseline))
		if len(bf) > 0 {
			t.Fatal(codes(bf))
		}
		rep, faults := Compare(c, base, cand)
		if len(faults) != 1 {
			t.Errorf("%s: faults\n%s", tt.name, codes(faults))
			continue
		}
		f := faults[0]
		if f.Code != tt.want || f.File != "b.json" || f.Pos != wantPos(t, tt.baseline, tt.at) || !strings.Contains(f.Message, tt.msg) ||
			f.Outcome != diag.Error || f.Check != CheckReplay {
			t.Errorf("%s: fault %+v, want %s at %q saying %q", tt.name, f, tt.want, tt.at, tt.msg)
		}
		// The other case is still compared.
		if len(rep.Cases) != 1 {
			t.Errorf("%s: %d cases compared", tt.name, len(rep.Cases))
		}
	}
}

func TestCompareAliasBaseline(t *testing.T) {
	text := strings.Replace(contractJSON(`"allow_unpinned": true`, caseJSON("t-1", `"q": {"choice": "billing"}`), caseJSON("t-2", `"q": {"choice": "billing"}`)), `"jev-1.13"`, `"jev-latest"`, 1)
	c, faults := LoadContract("c.json", []byte(text), Options{CandidateModel: "jev-preview"})
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	base, _ := LoadReplay("b.json", []byte(replayJSON([3]string{"t-1", `"jev-1.13.0"`, aChoice}, [3]string{"t-2", `"jev-1.13.1"`, aChoice})))
	cand, _ := LoadReplay("r.json", []byte(replayJSON([3]string{"t-1", `"jev-1.14.0"`, aChoice}, [3]string{"t-2", `"jev-1.14.0"`, aChoice})))
	rep, faults := Compare(c, base, cand)
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	if got := strings.Split(summary(t, rep), "\n")[1]; got != "baseline: jev-1.13.0, jev-1.13.1  candidate: jev-1.14.0" {
		t.Errorf("models line %q", got)
	}
	for res := range rep.Results() { // each names both replays, in its evidence and in its key
		if res.Evidence["replay"] != "r.json" || res.Evidence["baseline_replay"] != "b.json" || len(res.Evidence) != 2 || res.Key != "q r.json b.json" {
			t.Errorf("%s %s: evidence %v, key %q", res.CaseID, res.Check, res.Evidence, res.Key)
		}
	}
	base, _ = LoadReplay("b.json", []byte(replayJSON([3]string{"t-1", `"jev-latest"`, aChoice}, [3]string{"t-2", `"jev-1.13.1"`, aChoice})))
	if _, faults := Compare(c, base, cand); len(faults) != 1 || faults[0].Code != "model_mismatch" || !strings.Contains(faults[0].Message, "itself a floating alias") {
		t.Errorf("a baseline answered by an alias: %s", codes(faults))
	}
}
