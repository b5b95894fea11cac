package jev

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

// TestDuplicateKeyPaths: a duplicate key names the object that holds it by
// its path in the text (README "jevcheck v0.1 contracts"), through arrays,
// keys made of digits and values an earlier duplicate dropped; the first of
// two keys is the one validated.
func TestDuplicateKeyPaths(t *testing.T) {
	ok := caseJSON("t-1", `"q": {"choice": "billing"}`)
	for _, tt := range []struct {
		name, text, at, msg string
	}{
		{"in an array item", contractJSON("", strings.Replace(ok, `"billing": null`, `"billing": null, "billing": 1`, 1)),
			`"billing": 1`, `duplicate key "billing" in cases[0].questions.q.criteria (the last one would count)`},
		{"under a key of digits", contractJSON(`"x": {"0": {"1": 1, "1": 2}}`, ok),
			`"1": 2`, `duplicate key "1" in x.0 `},
		{"inside a dropped value", contractJSON(`"x": 1, "x": {"b": 1, "b": 2}`, ok),
			`"b": 2`, `duplicate key "b" in x `},
		{"an odd key", contractJSON(`"a b": {"c": 1, "c": 2}`, ok),
			`"c": 2`, `duplicate key "c" in ["a b"] `},
	} {
		_, faults := LoadContract("c.json", []byte(tt.text), Options{})
		found := false
		for _, f := range faults {
			if f.Code == "duplicate_key" && f.Pos == posOf(t, tt.text, tt.at) {
				found = strings.Contains(f.Message, tt.msg)
			}
		}
		if !found {
			t.Errorf("%s: no duplicate_key at %s says %q:\n%s", tt.name, posOf(t, tt.text, tt.at), tt.msg, codes(faults))
		}
	}

	// The first of two keys counts: the second "min_confidence" (out of
	// range) is reported as a duplicate only.
	text := contractJSON("", caseJSON("t-1", `"q": {"choice": "billing", "min_confidence": 0.5, "min_confidence": 7}`))
	if _, faults := LoadContract("c.json", []byte(text), Options{}); len(faults) != 1 || faults[0].Code != "duplicate_key" {
		t.Errorf("a duplicate's value was validated:\n%s", codes(faults))
	}

	// In a replay, a duplicate makes its case's response bad: the case at
	// the root, or the case the object belongs to.
	text = `{"t-1": {"model": "m", "answers": {}}, "t-2": {"model": "m", "answers": {}}, "t-1": 3,` + "\n" +
		` "t-3": {"model": "m", "answers": {"n": {"noul": 0.5}, "n": {"noul": 0.6}}}, "t-4": {"model": "m", "answers": {}}}`
	r, faults := LoadReplay("r.json", []byte(text))
	if len(faults) != 2 {
		t.Fatalf("faults:\n%s", codes(faults))
	}
	for i, w := range []struct{ at, caseID, msg string }{
		{`"t-1": 3`, "t-1", `duplicate key "t-1" in the root object`},
		{`"n": {"noul": 0.6}`, "t-3", `duplicate key "n" in t-3.answers`},
	} {
		if f := faults[i]; f.Pos != posOf(t, text, w.at) || f.CaseID != w.caseID || f.Message != w.msg || f.Code != "replay_invalid" {
			t.Errorf("fault %s %q %q, want %s %q %q", f.Pos, f.CaseID, f.Message, posOf(t, text, w.at), w.caseID, w.msg)
		}
	}
	for id, bad := range map[string]bool{"t-1": true, "t-2": false, "t-3": true, "t-4": false} {
		if resp := r.Responses[id]; resp == nil || resp.Bad != bad {
			t.Errorf("response %s: %+v, want bad %v", id, resp, bad)
		}
	}
}

// TestBOMPositions: a BOM is skipped, and a position on line 1 counts it as
// one code point, as every position of the file does (internal/frontmatter).
func TestBOMPositions(t *testing.T) {
	ok := caseJSON("t-1", `"q": {"choice": "billing"}`)
	text := "\ufeff" + strings.Replace(contractJSON("", ok), `"0.1"`, `"0.2"`, 1)
	_, faults := LoadContract("c.json", []byte(text), Options{})
	if len(faults) != 1 || faults[0].Pos != posOf(t, text, `"0.2"`) {
		t.Errorf("JSON: %s, want %s", codes(faults), posOf(t, text, `"0.2"`))
	}
	text = "\ufeff{\"version\": \"0.1\",, }"
	if _, faults := LoadContract("c.json", []byte(text), Options{}); len(faults) != 1 || faults[0].Pos != posOf(t, text, ", }") {
		t.Errorf("syntax error: %s, want %s", codes(faults), posOf(t, text, ", }"))
	}

	// A JSONL contract whose first line is a case: its field results on
	// line 1 too.
	text = "\ufeff" + ok + "\n" + strings.Replace(ok, "t-1", "t-2", 1) + "\n"
	c, faults := LoadContract("c.jsonl", []byte(text), Options{BaselineModel: "jev-1.13"})
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	r, faults := LoadReplay("r.json", []byte("\ufeff"+replayJSON([3]string{"t-1", `"m"`, aChoice}, [3]string{"t-2", `"m"`, aChoice})))
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	rep, faults := Eval(c, r)
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	rs := slices.Collect(rep.Results())
	// Line 1 counts the BOM; line 2 is the same case without it.
	at := strings.Index(text, `"q": {"choice"`)
	want := []diag.Pos{diag.NewLineIndex([]byte(text)).Pos(at), {Line: 2, Col: at + 1 - len("\ufeff")}}
	if want[0].Col != want[1].Col+1 {
		t.Fatalf("positions %v", want)
	}
	if len(rs) != 2 || rs[0].Pos != want[0] || rs[1].Pos != want[1] {
		t.Errorf("results at %v, want %v", summarize(rs), want)
	}

	// A replay's eval faults on line 1 of a file with a BOM.
	rtext := "\ufeff" + `{"t-1": {"model": "x", "answers": {}}, "t-2": {"model": "x", "answers": {}}}`
	r, _ = LoadReplay("r.json", []byte(rtext))
	c, _ = LoadContract("c.jsonl", []byte(text), Options{BaselineModel: "jev-1.13", CandidateModel: "m"})
	_, faults = Eval(c, r)
	if len(faults) != 2 || faults[0].Pos != posOf(t, rtext, `"x", "answers": {}}, "t-2"`) || faults[0].Key != "t-1.model" {
		t.Errorf("model_mismatch: %s", codes(faults))
	}
}

// TestNesting: ParseJSON's bound, 1,000 levels with the root at level 1, is a
// syntax_error at the bracket that goes deeper.
func TestNesting(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	ok := caseJSON("t-1", `"q": {"choice": "billing"}`)
	// The root, cases, the case and state: 997 more levels fit.
	text := contractJSON("", strings.Replace(ok, `"text"`, deep(997), 1))
	if _, faults := LoadContract("c.json", []byte(text), Options{}); len(faults) > 0 {
		t.Errorf("1,000 levels: %s", codes(faults))
	}
	text = contractJSON("", strings.Replace(ok, `"text"`, deep(998), 1))
	_, faults := LoadContract("c.json", []byte(text), Options{})
	at := posOf(t, text, deep(998))
	at.Col += 997 // the 998th bracket
	if len(faults) != 1 || faults[0].Code != "syntax_error" || faults[0].Pos != at ||
		faults[0].Message != "invalid JSON: nesting deeper than 1,000 levels" {
		t.Errorf("1,001 levels: %s, want %s", codes(faults), at)
	}
	r, faults := LoadReplay("r.json", []byte(deep(1001)))
	if r != nil || len(faults) != 1 || faults[0].Code != "replay_invalid" || faults[0].Pos != (diag.Pos{Line: 1, Col: 1001}) {
		t.Errorf("a replay 1,001 levels deep: %s", codes(faults))
	}
}

// TestManyQuestions: a case with more questions than a linear search is
// used for finds every one, in expect's text order.
func TestManyQuestions(t *testing.T) {
	var qs, ex []string
	for i := range 20 {
		qs = append(qs, fmt.Sprintf(`"q%02d": {"type": "noul"}`, i))
	}
	for _, i := range []int{19, 3, 17} {
		ex = append(ex, fmt.Sprintf(`"q%02d": {"noul_true": true}`, i))
	}
	kase := func(expect string) string {
		return `{"id": "t-1", "state": "s", "questions": {` + strings.Join(qs, ", ") + `}, "expect": {` + expect + `}}`
	}
	c, faults := LoadContract("c.json", []byte(contractJSON("", kase(strings.Join(ex, ", ")))), Options{})
	if len(faults) > 0 {
		t.Fatal(codes(faults))
	}
	var names []string
	for _, f := range c.Cases[0].Fields {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, " "); got != "q19 q03 q17" {
		t.Errorf("fields %s", got)
	}
	text := contractJSON("", kase(`"q05": {"noul_true": true}, "q20": {"noul_true": true}`))
	_, faults = LoadContract("c.json", []byte(text), Options{})
	if len(faults) != 1 || faults[0].Code != "unknown_key" || faults[0].Pos != posOf(t, text, `"q20"`) ||
		!strings.Contains(faults[0].Message, `(questions: "q00", "q01", "q02"`) || !strings.HasSuffix(faults[0].Message, `"q19")`) {
		t.Errorf("an unknown field: %s", codes(faults))
	}
}

// TestNumbersBeyondFloat64: such a number is refused as out of range, and a
// message shows it as written (ParseJSON keeps its text).
func TestNumbersBeyondFloat64(t *testing.T) {
	text := contractJSON("", caseJSON("t-1", `"q": {"choice": 1e400}`))
	if _, faults := LoadContract("c.json", []byte(text), Options{}); len(faults) != 1 || faults[0].Message != "choice must be a label (a string), got 1e400" {
		t.Errorf("contract: %s", codes(faults))
	}
	text = `{"t-1": {"model": "m", "usage": {"input_tokens": -2E+999, "output_tokens": 1.50}, "answers": {}}}`
	_, faults := LoadReplay("r.json", []byte(text))
	if len(faults) != 2 || faults[0].Message != `"t-1": usage.input_tokens must be a token count, got -2E+999` ||
		faults[1].Message != `"t-1": usage.output_tokens must be a token count, got 1.5` {
		t.Errorf("replay: %s", codes(faults))
	}
}
