package jev

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

func TestLevelRoundsHalfToEven(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{
		{0.5, 0}, {1.5, 2}, {2.5, 2}, {3.5, 4}, {-0.5, 0}, {0.49, 0}, {0.51, 1}, {2.500001, 3}, {1.8, 2}, {2.2, 2},
		{-0.4, 0}, {math.Copysign(0, -1), 0}, {-1.5, -2},
	} {
		// Signbit as well: -0 equals 0, but prints as "-0" in the summary and the JSON.
		if got := Level(tt.in); got != tt.want || math.Signbit(got) != math.Signbit(tt.want) {
			t.Errorf("Level(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestFloating(t *testing.T) {
	for _, tt := range []struct {
		model string
		want  bool
	}{
		{"jev-latest", true}, {"jev-preview", true}, {"JEV-Latest", true}, {"my-previewer", true},
		{"gpt-latest-2", true}, {"jev-1.13", false}, {"jev-1.13.0", false}, {"late", false}, {"jev-prev", false},
	} {
		if got := Floating(tt.model); got != tt.want {
			t.Errorf("Floating(%q) = %v, want %v", tt.model, got, tt.want)
		}
	}
}

func TestDefaultsMerge(t *testing.T) {
	implicit := Defaults{NoulTrueThreshold: DefaultNoulTrueThreshold, Tolerances: Tolerances{ScoreTolerance: some(DefaultScoreTolerance)}}
	full := Defaults{NoulTrueThreshold: 0.6, Tolerances: Tolerances{MinConfidence: some(0.8), ConfidenceTolerance: some(0.1), NoulTolerance: some(0.05), ScoreTolerance: some(0.25)}}
	tests := []struct {
		name string
		e    Expect
		d    Defaults
		want Expect
	}{
		{"implicit defaults only", Expect{Score: some(2)}, implicit, Expect{Score: some(2), Tolerances: Tolerances{ScoreTolerance: some(0.5)}}},
		{"defaults fill what the field omits", Expect{HasChoice: true, Choice: "a"}, full,
			Expect{HasChoice: true, Choice: "a", Tolerances: Tolerances{MinConfidence: some(0.8), ConfidenceTolerance: some(0.1), NoulTolerance: some(0.05), ScoreTolerance: some(0.25)}}},
		{"the field's own keys win", Expect{Tolerances: Tolerances{MinConfidence: some(0), ConfidenceTolerance: some(0.3), NoulTolerance: some(0.2), ScoreTolerance: some(0)}}, full,
			Expect{Tolerances: Tolerances{MinConfidence: some(0), ConfidenceTolerance: some(0.3), NoulTolerance: some(0.2), ScoreTolerance: some(0)}}},
		{"baseline_confidence and answer keys are never defaulted", Expect{BaselineConfidence: some(0.9), Noul: some(0.7), MinNoul: some(0.5)}, full,
			Expect{BaselineConfidence: some(0.9), Noul: some(0.7), MinNoul: some(0.5), Tolerances: Tolerances{MinConfidence: some(0.8), ConfidenceTolerance: some(0.1), NoulTolerance: some(0.05), ScoreTolerance: some(0.25)}}},
	}
	for _, tt := range tests {
		if got := tt.e.resolve(tt.d); got != tt.want {
			t.Errorf("%s: resolve = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	// Through a contract: the implicit defaults without a defaults object,
	// and a defaults object that names only some keys.
	for _, tt := range []struct {
		meta string
		want Defaults
	}{
		{"", implicit},
		{`"defaults": {"min_confidence": 0.7}`, Defaults{NoulTrueThreshold: 0.5, Tolerances: Tolerances{MinConfidence: some(0.7), ScoreTolerance: some(0.5)}}},
		{`"defaults": {"score_tolerance": 0, "noul_true_threshold": 0.7}`, Defaults{NoulTrueThreshold: 0.7, Tolerances: Tolerances{ScoreTolerance: some(0)}}},
	} {
		c, faults := LoadContract("c.json", []byte(contractJSON(tt.meta, caseJSON("t", `"q": {"choice": "billing"}`))), Options{})
		if len(faults) > 0 {
			t.Fatal(codes(faults))
		}
		if c.Defaults != tt.want {
			t.Errorf("defaults %s = %+v, want %+v", tt.meta, c.Defaults, tt.want)
		}
	}
}

func TestEvalField(t *testing.T) {
	choice := func(label string, conf float64) *Answer {
		return &Answer{Kind: KindChoice, Choice: label, Confidence: conf}
	}
	noul := func(v float64) *Answer { return &Answer{Kind: KindNoul, Noul: v} }
	score := func(v, conf float64) *Answer { return &Answer{Kind: KindScore, Score: v, Confidence: conf} }
	billing := Expect{Choice: "billing", HasChoice: true}
	with := func(e Expect, f func(*Expect)) Expect { f(&e); return e }
	yes := Expect{NoulTrue: true, HasNoulTrue: true}
	tests := []struct {
		name   string
		kind   Kind
		e      Expect // resolved
		thr    float64
		a      *Answer
		want   Outcome
		detail string
	}{
		// Choice, missing and wrong-kind answers.
		{"same label", KindChoice, billing, 0.5, choice("billing", 0.3), Unchanged, "unchanged"},
		{"other label", KindChoice, billing, 0.5, choice("general", 0.99), Flip, "billing→general"},
		{"missing answer", KindChoice, billing, 0.5, nil, Flip, "missing answer"},
		{"wrong-kind answer", KindChoice, billing, 0.5, noul(0.9), Flip, "choice→noul"},
		{"wrong-kind answer, score", KindScore, Expect{Score: some(1)}, 0.5, choice("a", 1), Flip, "score→choice"},
		{"a flip outranks a confidence drop", KindChoice, with(billing, func(e *Expect) { e.BaselineConfidence, e.ConfidenceTolerance = some(0.9), some(0.1) }),
			0.5, choice("general", 0.1), Flip, "billing→general"},

		// Floors compare strictly: equal passes.
		{"floor exactly", KindChoice, with(billing, func(e *Expect) { e.MinConfidence = some(0.8) }), 0.5, choice("billing", 0.8), Unchanged, "unchanged"},
		{"floor a hair above", KindChoice, with(billing, func(e *Expect) { e.MinConfidence = some(0.8) }), 0.5, choice("billing", 0.800001), Unchanged, "unchanged"},
		{"floor a hair below", KindChoice, with(billing, func(e *Expect) { e.MinConfidence = some(0.8) }), 0.5, choice("billing", 0.799999), Regression, "confidence 0.80 < 0.80"},
		{"floor below", KindChoice, with(billing, func(e *Expect) { e.MinConfidence = some(0.8) }), 0.5, choice("billing", 0.71), Regression, "confidence 0.71 < 0.80"},
		{"floor without epsilon", KindChoice, with(billing, func(e *Expect) { e.MinConfidence = some(0.8) }), 0.5, choice("billing", 0.8-1e-12), Regression, "confidence 0.80 < 0.80"},

		// Tolerances are inclusive, with a 1e-9 epsilon.
		{"drop of exactly the tolerance 0.8→0.7 at 0.1", KindChoice, with(billing, func(e *Expect) { e.BaselineConfidence, e.ConfidenceTolerance = some(0.8), some(0.1) }),
			0.5, choice("billing", 0.7), Unchanged, "unchanged"},
		{"drop within the epsilon", KindChoice, with(billing, func(e *Expect) { e.BaselineConfidence, e.ConfidenceTolerance = some(0.8), some(0.1) }),
			0.5, choice("billing", 0.7-1e-10), Unchanged, "unchanged"},
		{"drop a hair beyond", KindChoice, with(billing, func(e *Expect) { e.BaselineConfidence, e.ConfidenceTolerance = some(0.8), some(0.1) }),
			0.5, choice("billing", 0.699999), Regression, "confidence 0.80→0.70 (tolerance 0.10)"},
		{"the issue's drop 0.9→0.6999 at 0.2", KindChoice, with(billing, func(e *Expect) { e.BaselineConfidence, e.ConfidenceTolerance = some(0.9), some(0.2) }),
			0.5, choice("billing", 0.6999), Regression, "confidence 0.90→0.70 (tolerance 0.20)"},
		{"drop beyond", KindChoice, with(billing, func(e *Expect) { e.BaselineConfidence, e.ConfidenceTolerance = some(0.94), some(0.1) }),
			0.5, choice("billing", 0.71), Regression, "confidence 0.94→0.71 (tolerance 0.10)"},
		{"higher confidence is no regression", KindChoice, with(billing, func(e *Expect) { e.BaselineConfidence, e.ConfidenceTolerance = some(0.8), some(0) }),
			0.5, choice("billing", 0.99), Unchanged, "unchanged"},
		{"a baseline without a tolerance checks no drop", KindChoice, with(billing, func(e *Expect) { e.BaselineConfidence = some(0.95) }),
			0.5, choice("billing", 0.51), Unchanged, "unchanged"},
		{"drop and floor: the drop is shown", KindChoice, with(billing, func(e *Expect) {
			e.BaselineConfidence, e.ConfidenceTolerance, e.MinConfidence = some(0.94), some(0.1), some(0.8)
		}), 0.5, choice("billing", 0.5), Regression, "confidence 0.94→0.50 (tolerance 0.10)"},
		{"floor fails, drop within", KindChoice, with(billing, func(e *Expect) {
			e.BaselineConfidence, e.ConfidenceTolerance, e.MinConfidence = some(0.8), some(0.1), some(0.75)
		}), 0.5, choice("billing", 0.72), Regression, "confidence 0.72 < 0.75"},

		// Noul: noul >= threshold is yes; the scalar is noul itself.
		{"noul exactly at the threshold is yes", KindNoul, yes, 0.5, noul(0.5), Unchanged, "unchanged"},
		{"noul a hair above the threshold", KindNoul, yes, 0.5, noul(0.500001), Unchanged, "unchanged"},
		{"noul a hair below the threshold", KindNoul, yes, 0.5, noul(0.499999), Flip, "yes→no (0.50)"},
		{"noul flips to no", KindNoul, yes, 0.5, noul(0.42), Flip, "yes→no (0.42)"},
		{"noul flips to yes", KindNoul, Expect{HasNoulTrue: true}, 0.5, noul(0.5), Flip, "no→yes (0.50)"},
		{"polarity from the expected noul", KindNoul, Expect{Noul: some(0.8)}, 0.5, noul(0.3), Flip, "yes→no (0.30)"},
		{"polarity from the expected noul below the threshold", KindNoul, Expect{Noul: some(0.2)}, 0.5, noul(0.25), Unchanged, "unchanged"},
		{"noul_true wins over the expected noul's polarity", KindNoul, Expect{HasNoulTrue: true, NoulTrue: true, Noul: some(0.45)}, 0.5, noul(0.5), Unchanged, "unchanged"},
		{"another threshold", KindNoul, yes, 0.7, noul(0.65), Flip, "yes→no (0.65)"},
		{"noul drift of exactly the tolerance 0.8→0.7 at 0.1", KindNoul, Expect{Noul: some(0.8), Tolerances: Tolerances{NoulTolerance: some(0.1)}}, 0.5, noul(0.7), Unchanged, "unchanged"},
		{"noul drift up of exactly the tolerance", KindNoul, Expect{Noul: some(0.8), Tolerances: Tolerances{NoulTolerance: some(0.1)}}, 0.5, noul(0.9), Unchanged, "unchanged"},
		{"noul drift a hair beyond", KindNoul, Expect{Noul: some(0.8), Tolerances: Tolerances{NoulTolerance: some(0.1)}}, 0.5, noul(0.699999), Regression, "noul 0.80→0.70 (tolerance 0.10)"},
		{"noul drift beyond", KindNoul, Expect{Noul: some(0.8), Tolerances: Tolerances{NoulTolerance: some(0.1)}}, 0.5, noul(0.65), Regression, "noul 0.80→0.65 (tolerance 0.10)"},
		{"noul drift up beyond", KindNoul, Expect{Noul: some(0.8), Tolerances: Tolerances{NoulTolerance: some(0.1)}}, 0.5, noul(0.95), Regression, "noul 0.80→0.95 (tolerance 0.10)"},
		{"noul without a tolerance checks no drift", KindNoul, Expect{Noul: some(0.8)}, 0.5, noul(0.51), Unchanged, "unchanged"},
		{"min_noul exactly", KindNoul, Expect{MinNoul: some(0.8)}, 0.5, noul(0.8), Unchanged, "unchanged"},
		{"min_noul below", KindNoul, Expect{MinNoul: some(0.8)}, 0.5, noul(0.79), Regression, "noul 0.79 < 0.80"},
		{"noul scalar against min_confidence", KindNoul, Expect{HasNoulTrue: true, Tolerances: Tolerances{MinConfidence: some(0.8)}}, 0.5, noul(0.05), Regression, "confidence 0.05 < 0.80"},
		{"noul scalar against a baseline", KindNoul, Expect{Noul: some(0.96), BaselineConfidence: some(0.96), Tolerances: Tolerances{ConfidenceTolerance: some(0.1)}}, 0.5, noul(0.9), Unchanged, "unchanged"},

		// Score: nearest levels, half to even, with score_tolerance
		// suppressing a level flip.
		{"score exactly at the tolerance 2 vs 1.5 at 0.5", KindScore, Expect{Score: some(2), Tolerances: Tolerances{ScoreTolerance: some(0.5)}}, 0.5, score(1.5, 0.9), Unchanged, "unchanged"},
		{"score a hair inside", KindScore, Expect{Score: some(2), Tolerances: Tolerances{ScoreTolerance: some(0.5)}}, 0.5, score(1.500001, 0.9), Unchanged, "unchanged"},
		{"score a hair beyond", KindScore, Expect{Score: some(2), Tolerances: Tolerances{ScoreTolerance: some(0.5)}}, 0.5, score(1.499999, 0.9), Flip, "level 2→1 (1.50)"},
		{"score 1.4 vs 1.6 at 0.2 is within", KindScore, Expect{Score: some(1.4), Tolerances: Tolerances{ScoreTolerance: some(0.2)}}, 0.5, score(1.6, 0.9), Unchanged, "unchanged"},
		{"score 1.4 vs 1.61 at 0.2 flips", KindScore, Expect{Score: some(1.4), Tolerances: Tolerances{ScoreTolerance: some(0.2)}}, 0.5, score(1.61, 0.9), Flip, "level 1→2 (1.61)"},
		{"expected 1.8 vs actual 2.2 at 0.1 is unchanged", KindScore, Expect{Score: some(1.8), Tolerances: Tolerances{ScoreTolerance: some(0.1)}}, 0.5, score(2.2, 0.9), Unchanged, "unchanged"},
		{"same level however far", KindScore, Expect{Score: some(1.5), Tolerances: Tolerances{ScoreTolerance: some(0)}}, 0.5, score(2.49, 0.9), Unchanged, "unchanged"},
		{"level of 0.5 is 0", KindScore, Expect{Score: some(0.5), Tolerances: Tolerances{ScoreTolerance: some(0)}}, 0.5, score(0.6, 0.9), Flip, "level 0→1 (0.60)"},
		{"level of 0.5 is 0, unchanged", KindScore, Expect{Score: some(0.5), Tolerances: Tolerances{ScoreTolerance: some(0)}}, 0.5, score(0.1, 0.9), Unchanged, "unchanged"},
		{"level of 1.5 is 2", KindScore, Expect{Score: some(1.5), Tolerances: Tolerances{ScoreTolerance: some(0)}}, 0.5, score(1.4, 0.9), Flip, "level 2→1 (1.40)"},
		{"level of 2.5 is 2", KindScore, Expect{Score: some(2.5), Tolerances: Tolerances{ScoreTolerance: some(0)}}, 0.5, score(2.4, 0.9), Unchanged, "unchanged"},
		{"level of 2.5 is 2, flips to 3", KindScore, Expect{Score: some(2.5), Tolerances: Tolerances{ScoreTolerance: some(0)}}, 0.5, score(2.6, 0.9), Flip, "level 2→3 (2.60)"},
		{"level of 3.5 is 4", KindScore, Expect{Score: some(3.5), Tolerances: Tolerances{ScoreTolerance: some(0)}}, 0.5, score(3.6, 0.9), Unchanged, "unchanged"},
		{"level of 3.5 is 4, flips to 3", KindScore, Expect{Score: some(3.5), Tolerances: Tolerances{ScoreTolerance: some(0)}}, 0.5, score(3.4, 0.9), Flip, "level 4→3 (3.40)"},
		{"actual at a tie", KindScore, Expect{Score: some(2), Tolerances: Tolerances{ScoreTolerance: some(0)}}, 0.5, score(2.5, 0.9), Unchanged, "unchanged"},
		{"score flip 2→1", KindScore, Expect{Score: some(2), Tolerances: Tolerances{ScoreTolerance: some(0.5)}}, 0.5, score(1.4, 0.9), Flip, "level 2→1 (1.40)"},
		{"no expected score: confidence only", KindScore, Expect{Tolerances: Tolerances{MinConfidence: some(0.8)}}, 0.5, score(0, 0.79), Regression, "confidence 0.79 < 0.80"},
		{"score confidence drop", KindScore, Expect{Score: some(2), BaselineConfidence: some(0.91), Tolerances: Tolerances{ScoreTolerance: some(0.5), ConfidenceTolerance: some(0.1)}}, 0.5,
			score(2, 0.8), Regression, "confidence 0.91→0.80 (tolerance 0.10)"},
	}
	for _, tt := range tests {
		got := evalField(tt.kind, tt.e, tt.thr, tt.a)
		if got.Outcome != tt.want || got.Detail != tt.detail {
			t.Errorf("%s: %v %q, want %v %q", tt.name, got.Outcome, got.Detail, tt.want, tt.detail)
		}
		if got.Outcome != Unchanged && len(got.Evidence) == 0 {
			t.Errorf("%s: no evidence", tt.name)
		}
	}
}

// TestEvalReport runs a contract against a replay: one result per case ×
// field at the field's key, the worst field deciding the case, counts per
// case, and the summary text.
func TestEvalReport(t *testing.T) {
	text := contractJSON(`"name": "demo", "defaults": {"confidence_tolerance": 0.1, "noul_tolerance": 0.1}`,
		caseJSON("c-1", `"s": {"score": 2}, "q": {"choice": "billing", "baseline_confidence": 0.9}, "n": {"noul": 0.8}`),
		caseJSON("c-2", `"q": {"choice": "general"}`),
		caseJSON("c-3", `"n": {"noul_true": false}, "s": {"score": 1, "min_confidence": 0.5}`),
		caseJSON("c-4", `"q": {"min_confidence": 0.5}`))
	replay := `{
"c-1": {"model": "jev-1.14", "answers": {
  "q": {"type": "choice", "choice": "billing", "confidence": 0.7, "probabilities": {"billing": 0.7, "general": 0.3}},
  "n": {"noul": 0.75},
  "s": {"type": "score", "score": 2.3, "confidence": 0.9, "legend": {"0": "low", "1": "mid", "2": "high"}, "probabilities": {"1": 0.7, "2": 0.3}}}},
"c-2": {"model": "jev-1.14", "answers": {"q": {"type": "noul", "noul": 0.2}}},
"c-3": {"model": "jev-1.14", "answers": {"s": {"score": 1.2, "confidence": 0.49, "legend": {"0": "low"}, "probabilities": {"1": 1}}}},
"c-4": {"model": "jev-1.14", "answers": {"q": {"choice": "general", "confidence": 0.6, "probabilities": {"general": 0.6, "billing": 0.4}}}},
"extra": {"model": "jev-1.14", "answers": {}}
}`
	c, faults := LoadContract("c.json", []byte(text), Options{CandidateModel: "jev-1.14"})
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	r, faults := LoadReplay("r.json", []byte(replay))
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	rep, faults := Eval(c, r)
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	wantSummary := `evalgate jev eval: demo
baseline: jev-1.13  candidate: jev-1.14
cases: 4  unchanged: 1  confidence regressions: 1  answer flips: 2
c-1 q: confidence 0.90→0.70 (tolerance 0.10)  [regression]
c-2 q: choice→noul  [flip]
c-3 n: missing answer  [flip]
c-3 s: confidence 0.49 < 0.50  [regression]
breaking
`
	if got := summary(t, rep); got != wantSummary {
		t.Errorf("summary:\n%s\nwant:\n%s", got, wantSummary)
	}
	if !rep.Breaking() {
		t.Error("not breaking")
	}
	rs := slices.Collect(rep.Results())
	var got []string
	for _, res := range rs {
		if res.File != "c.json" || res.Source != diag.SourceJev || res.Severity != diag.SeverityError || res.Key != res.Check+" r.json" || res.Evidence["replay"] != "r.json" {
			t.Errorf("malformed result %+v", res)
		}
		if own := len(res.Evidence) > 1; own != (res.Outcome == diag.Fail) {
			t.Errorf("%s %s: evidence %v: a fail's has its own facts and the replay, a pass's the replay alone", res.CaseID, res.Check, res.Evidence)
		}
		got = append(got, res.CaseID+" "+res.Check+" "+string(res.Outcome)+" "+res.Code+" "+res.Pos.String())
	}
	p := func(marker string) string { return posOf(t, text, marker).String() }
	want := []string{
		"c-1 s pass ok " + p(`"s": {"score": 2}`),
		"c-1 q fail confidence_regression " + p(`"q": {"choice": "billing", "baseline`),
		"c-1 n pass ok " + p(`"n": {"noul": 0.8}`),
		"c-2 q fail answer_flip " + p(`"q": {"choice": "general"}`),
		"c-3 n fail answer_flip " + p(`"n": {"noul_true": false}`),
		"c-3 s fail confidence_regression " + p(`"s": {"score": 1, "min`),
		"c-4 q pass ok " + p(`"q": {"min_confidence": 0.5}`),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestEvalCompatibleSummary(t *testing.T) {
	c, faults := LoadContract("dir/c.jsonl", []byte(`{"_meta": true, "baseline_model": "jev-1.13"}`+"\n"+caseJSON("a", `"q": {"choice": "billing"}`)), Options{})
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	r, _ := LoadReplay("r.json", []byte(`{"a": {"model": "whatever", "answers": {"q": {"choice": "billing", "confidence": 1, "probabilities": {"billing": 1}}}}}`))
	rep, faults := Eval(c, r)
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	want := "evalgate jev eval: dir/c.jsonl\nbaseline: jev-1.13  candidate: (replay)\ncases: 1  unchanged: 1  confidence regressions: 0  answer flips: 0\ncompatible\n"
	if got := summary(t, rep); got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

// The report holds the contract's and the replay's text as it is: jev never
// escapes for a terminal; internal/cli escapes every line it writes.
func TestReportValuesUnescaped(t *testing.T) {
	c, faults := LoadContract("c.json", []byte(contractJSON(`"name": "a\nb::c ##[x]"`,
		strings.Replace(caseJSON("id\u2028x", `"q": {"choice": "billing"}`), `"billing": null`, `"billing": null, "x\ty": null`, 1))), Options{})
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	r, rf := LoadReplay("r.json", []byte(`{"id\u2028x": {"model": "m", "answers": {"q": {"choice": "x\ty", "confidence": 1, "probabilities": {"x\ty": 1}}}}}`))
	if len(rf) > 0 {
		t.Fatal(codes(rf))
	}
	rep, _ := Eval(c, r)
	if rep.Title != "a\nb::c ##[x]" || len(rep.Cases) != 1 || rep.Cases[0].ID != "id\u2028x" ||
		len(rep.Cases[0].Fields) != 1 || rep.Cases[0].Fields[0].Detail != "billing→x\ty" {
		t.Errorf("report %+v", rep)
	}
}

func TestExceeds(t *testing.T) {
	if exceeds(0.8-0.7, 0.1) || exceeds(1.6-1.4, 0.2) || exceeds(0.1+1e-9, 0.1) {
		t.Error("an exact decimal boundary exceeds its tolerance")
	}
	if !exceeds(0.1+2e-9, 0.1) || !exceeds(math.Inf(1), 0.5) {
		t.Error("a difference beyond the epsilon does not exceed")
	}
}
