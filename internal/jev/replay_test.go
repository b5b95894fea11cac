package jev

import (
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

// Answers for the replays of the tests.
const (
	aChoice = `"q": {"type": "choice", "choice": "billing", "confidence": 0.9, "probabilities": {"billing": 0.9, "general": 0.1}}`
	aNoul   = `"n": {"type": "noul", "noul": 0.8}`
	aScore  = `"s": {"type": "score", "score": 1.9, "confidence": 0.85, "legend": {"0": "low", "1": "mid", "2": "high"}, "probabilities": {"0": 0.05, "1": 0.1, "2": 0.85}}`
)

// replayJSON is a replay with one response a line: id, model and answers.
func replayJSON(entries ...[3]string) string {
	var lines []string
	for _, e := range entries {
		lines = append(lines, `"`+e[0]+`": {"model": `+e[1]+`, "answers": {`+e[2]+`}}`)
	}
	return "{\n" + strings.Join(lines, ",\n") + "\n}\n"
}

func TestReplayValidation(t *testing.T) {
	all := aChoice + ", " + aNoul + ", " + aScore
	tests := []struct {
		name string
		text string
		want []want // code, position, message piece
	}{
		{name: "valid", text: replayJSON([3]string{"t-1", `"jev-1.14"`, all}, [3]string{"t-2", `"jev-1.14"`, ""})},
		{name: "usage", text: `{"t-1": {"model": "m", "usage": {"input_tokens": 3, "output_tokens": null}, "answers": {}}, "t-2": {"model": "m", "usage": null, "answers": {}}}`},
		{name: "types inferred", text: replayJSON([3]string{"t-1", `"m"`, strings.ReplaceAll(all, `"type": "choice", `, ``)}, [3]string{"t-2", `"m"`, `"n": {"noul": 0}, "s": {"score": -3, "confidence": 0, "legend": {"0": ["a"]}, "probabilities": {"0": 1}}`})},
		{name: "probabilities sum within 1e-6", text: replayJSON([3]string{"t-1", `"m"`, `"q": {"choice": "a", "confidence": 0.5, "probabilities": {"a": 0.3333333, "b": 0.3333333, "c": 0.3333334}}, "r": {"choice": "a", "confidence": 0.5, "probabilities": {"a": 0.5000005, "b": 0.5}}`})},
		{name: "syntax error", text: `{"t-1": }`, want: []want{{"replay_invalid", "}", "invalid JSON"}}},
		{name: "a bad response, then a syntax error", text: `{"t-1": "m", "t-2": {"model": "m", "answers": []},]`,
			want: []want{{"replay_invalid", "L1:51", "invalid JSON"}}},
		{name: "invalid UTF-8", text: "{\"t-1\xff\": 1}", want: []want{{"replay_invalid", "\xff", "invalid UTF-8"}}},
		{name: "not an object", text: `["t-1"]`, want: []want{{"replay_invalid", "@1:1", "a replay must be an object keyed by case id"}}},
		{name: "response not an object", text: `{"t-1": "m"}`, want: []want{{"replay_invalid", `"m"`, `"t-1": a response must be an object`}}},
		{name: "duplicate case id", text: "{\"t-1\": {\"model\": \"m\", \"answers\": {}},\n \"t-1\": {\"model\": \"m\", \"answers\": {}}}",
			want: []want{{"replay_invalid", "L2:2", `duplicate key "t-1" in the root object`}}},
		{name: "duplicate answer key", text: replayJSON([3]string{"t-1", `"m"`, aNoul + ", " + strings.Replace(aNoul, "0.8", "0.7", 1)}),
			want: []want{{"replay_invalid", `"n": {"type": "noul", "noul": 0.7}`, `duplicate key "n" in t-1.answers`}}},
		{name: "model missing", text: `{"t-1": {"answers": {}}}`, want: []want{{"replay_invalid", `{"answers"`, "the response has no model"}}},
		{name: "model null", text: replayJSON([3]string{"t-1", `null`, ""}), want: []want{{"replay_invalid", `null`, "model is null"}}},
		{name: `model "None"`, text: replayJSON([3]string{"t-1", `"None"`, ""}), want: []want{{"replay_invalid", `"None"`, `model is the string "None"`}}},
		{name: "model empty", text: replayJSON([3]string{"t-1", `""`, ""}), want: []want{{"replay_invalid", `""`, "model must name the model"}}},
		{name: "model a number", text: replayJSON([3]string{"t-1", `1.14`, ""}), want: []want{{"replay_invalid", `1.14`, "model must be a string"}}},
		{name: "unknown response key", text: `{"t-1": {"model": "m", "id": "x", "answers": {}}}`, want: []want{{"replay_invalid", `"id"`, `unknown key "id" in a response`}}},
		{name: "usage", text: `{"t-1": {"model": "m", "usage": {"input_tokens": 1.5, "output_tokens": -1, "cost": 1}, "answers": {}}}`,
			want: []want{
				{"replay_invalid", `1.5`, "usage.input_tokens must be a token count, got 1.5"},
				{"replay_invalid", `-1,`, "usage.output_tokens must be a token count"},
				{"replay_invalid", `"cost"`, `unknown key "cost" in usage`},
			}},
		{name: "answers missing", text: `{"t-1": {"model": "m"}}`, want: []want{{"replay_invalid", `{"model"`, "the response has no answers"}}},
		{name: "answers not an object", text: `{"t-1": {"model": "m", "answers": []}}`, want: []want{{"replay_invalid", `[]`, "answers must be an object"}}},
		{name: "answer not an object", text: replayJSON([3]string{"t-1", `"m"`, `"q": "billing"`}), want: []want{{"replay_invalid", `"billing"`, `answer "q" must be an object`}}},
		{name: "answer type unknown", text: replayJSON([3]string{"t-1", `"m"`, `"q": {"type": "bool", "noul": 1}`}), want: []want{{"replay_invalid", `"bool"`, `answer type must be noul, choice or score, got "bool"`}}},
		{name: "answer type untold", text: replayJSON([3]string{"t-1", `"m"`, `"q": {"noul": 1, "score": 1}`}), want: []want{{"replay_invalid", `{"noul"`, "has no type and holds noul and score"}}},
		{name: "answer type untold, nothing", text: replayJSON([3]string{"t-1", `"m"`, `"q": {"confidence": 1}`}), want: []want{{"replay_invalid", `{"confidence"`, "holds none of noul, choice and score"}}},
		{name: "noul has no confidence", text: replayJSON([3]string{"t-1", `"m"`, `"n": {"type": "noul", "noul": 0.8, "confidence": 0.8}`}),
			want: []want{{"replay_invalid", `"confidence"`, "a noul answer has no API confidence"}}},
		{name: "unknown answer key", text: replayJSON([3]string{"t-1", `"m"`, strings.Replace(aChoice, `"choice": "billing"`, `"choice": "billing", "reason": "x"`, 1)}),
			want: []want{{"replay_invalid", `"reason"`, `unknown key "reason" in a choice answer`}}},
		{name: "choice fields", text: replayJSON([3]string{"t-1", `"m"`, `"q": {"type": "choice", "choice": null, "confidence": 1.2}`}),
			want: []want{
				{"replay_invalid", `null`, "choice must be a string, got null"},
				{"replay_invalid", `1.2`, "confidence must be a number from 0 to 1, got 1.2"},
				{"replay_invalid", `{"type": "choice"`, "the answer has no probabilities"},
			}},
		{name: "choice fields missing", text: replayJSON([3]string{"t-1", `"m"`, `"q": {"type": "choice", "probabilities": {"a": 1}}`}),
			want: []want{
				{"replay_invalid", `{"type": "choice"`, "the answer has no choice"},
				{"replay_invalid", `{"type": "choice"`, "the answer has no confidence"},
			}},
		{name: "noul fields", text: replayJSON([3]string{"t-1", `"m"`, `"n": {"type": "noul", "noul": "0.8"}, "o": {"type": "noul", "noul": -0.1}, "p": {"type": "noul"}`}),
			want: []want{
				{"replay_invalid", `"0.8"`, `noul must be a number, got "0.8"`},
				{"replay_invalid", `-0.1`, "noul must be a number from 0 to 1"},
				{"replay_invalid", `{"type": "noul"}`, "the answer has no noul"},
			}},
		{name: "score fields", text: replayJSON([3]string{"t-1", `"m"`, `"s": {"type": "score", "score": 1e999, "confidence": true, "legend": {}, "probabilities": {"0": 1}}`}),
			want: []want{
				{"replay_invalid", `1e999`, "score is out of range"},
				{"replay_invalid", `true`, "confidence must be a number, got true"},
				{"replay_invalid", `{},`, "legend is empty"},
			}},
		{name: "score legend missing or wrong", text: replayJSON([3]string{"t-1", `"m"`, `"s": {"type": "score", "score": 1, "confidence": 1, "probabilities": {"1": 1}}, "t": {"type": "score", "score": 1, "confidence": 1, "legend": ["a"], "probabilities": {"1": 1}}, "u": {"type": "score", "score": 1, "confidence": 1, "legend": {"0": 5}, "probabilities": {"1": 1}}`}),
			want: []want{
				{"replay_invalid", `{"type": "score", "score": 1, "confidence": 1, "probabilities"`, "the score answer has no legend"},
				{"replay_invalid", `["a"]`, "legend must be an object"},
				{"replay_invalid", `5}`, "a legend entry must be"},
			}},
		{name: "probability maps", text: replayJSON([3]string{"t-1", `"m"`,
			`"a": {"choice": "x", "confidence": 1, "probabilities": null}, ` +
				`"b": {"choice": "x", "confidence": 1, "probabilities": {}}, ` +
				`"c": {"choice": "x", "confidence": 1, "probabilities": {"x": 1.5, "y": -0.5}}, ` +
				`"d": {"choice": "x", "confidence": 1, "probabilities": {"x": 0.5, "y": 0.4}}, ` +
				`"e": {"choice": "x", "confidence": 1, "probabilities": {"x": "1"}}, ` +
				`"f": {"choice": "x", "confidence": 1, "probabilities": [1]}, ` +
				`"g": {"choice": "x", "confidence": 1, "probabilities": {"x": 0.5, "y": 0.500002}}, ` +
				`"h": {"score": 1, "confidence": 1, "legend": {"1": "a"}, "probabilities": {"1": 1e400}}`}),
			want: []want{
				{"replay_invalid", `null}`, "probabilities must be an object of label to probability, got null"},
				{"replay_invalid", `{}}`, "probabilities is empty"},
				{"replay_invalid", `-0.5`, `probability "y" must be a finite number of 0 or more, got -0.5`},
				{"replay_invalid", `{"x": 0.5, "y": 0.4}`, "probabilities sum to 0.9, not 1"},
				{"replay_invalid", `"1"}`, `probability "x" must be a number`},
				{"replay_invalid", `[1]`, "probabilities must be an object"},
				{"replay_invalid", `{"x": 0.5, "y": 0.500002}`, "probabilities sum to 1.000002"},
				{"replay_invalid", `1e400`, `probability "1" must be a finite number`},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, got := LoadReplay("r.json", []byte(tt.text))
			checkPositions(t, []byte(tt.text), got)
			if len(tt.want) == 0 {
				if len(got) > 0 || r == nil {
					t.Fatalf("faults:\n%s", codes(got))
				}
				for id, resp := range r.Responses {
					if resp.Bad {
						t.Errorf("response %s is bad", id)
					}
				}
				return
			}
			checkFaults(t, tt.text, got, tt.want, func(r diag.Result) bool {
				return r.Source == diag.SourceJev && r.Check == CheckReplay && r.Outcome == diag.Error && r.File == "r.json"
			})
			if r != nil {
				for _, res := range got {
					if resp := r.Responses[res.CaseID]; resp == nil || !resp.Bad {
						t.Errorf("the response of %q is not marked bad", res.CaseID)
					}
				}
			}
		})
	}
}

// TestModels covers pinning and response identity (README "jevcheck v0.1 contracts").
func TestModels(t *testing.T) {
	ok := caseJSON("t-1", `"q": {"choice": "billing"}`)
	contract := func(baseline, meta string) string {
		return strings.Replace(contractJSON(meta, ok), `"jev-1.13"`, `"`+baseline+`"`, 1)
	}
	replay := func(model string) string { return replayJSON([3]string{"t-1", `"` + model + `"`, aChoice}) }
	tests := []struct {
		name      string
		contract  string
		opts      Options
		replay    string
		problems  []string // ModelProblems
		faults    []string // Eval's faults: code and message piece
		candidate string   // the summary's candidate
	}{
		{name: "no candidate model: any response model", contract: contract("jev-1.13", ""), replay: replay("anything"), candidate: "(replay)"},
		{name: "concrete candidate matched exactly", contract: contract("jev-1.13", ""), opts: Options{CandidateModel: "jev-1.14"}, replay: replay("jev-1.14"), candidate: "jev-1.14"},
		{name: "concrete candidate, another model", contract: contract("jev-1.13", ""), opts: Options{CandidateModel: "jev-1.14"}, replay: replay("jev-1.14.0"),
			faults: []string{`model_mismatch "t-1": response model "jev-1.14.0" is not the pinned candidate "jev-1.14"`}},
		{name: "no trimming", contract: contract("jev-1.13", ""), opts: Options{CandidateModel: "jev-1.14"}, replay: replay("jev-1.14 "),
			faults: []string{`model_mismatch response model "jev-1.14 "`}},
		{name: "no case folding", contract: contract("jev-1.13", ""), opts: Options{CandidateModel: "jev-1.14"}, replay: replay("JEV-1.14"),
			faults: []string{`model_mismatch response model "JEV-1.14"`}},
		{name: "alias candidate without opt-in", contract: contract("jev-1.13", ""), opts: Options{CandidateModel: "jev-latest"}, replay: replay("jev-1.14"),
			problems: []string{`candidate-model candidate model "jev-latest" is a floating alias`}},
		{name: "alias candidate with --allow-unpinned", contract: contract("jev-1.13", ""), opts: Options{CandidateModel: "jev-latest", AllowUnpinned: true},
			replay: replay("jev-1.14.2"), candidate: "jev-1.14.2"},
		{name: "alias candidate with the contract's allow_unpinned", contract: contract("jev-1.13", `"allow_unpinned": true`),
			opts: Options{CandidateModel: "JEV-PREVIEW"}, replay: replay("jev-1.15.0-rc1"), candidate: "jev-1.15.0-rc1"},
		{name: "alias candidate answered by an alias", contract: contract("jev-1.13", ""), opts: Options{CandidateModel: "jev-latest", AllowUnpinned: true},
			replay: replay("jev-preview"), faults: []string{`model_mismatch response model "jev-preview" is itself a floating alias`}},
		{name: "the contract's opt-in covers the baseline too", contract: contract("jev-latest", `"allow_unpinned": true`), replay: replay("x"), candidate: "(replay)"},
		{name: "the run's opt-in covers the contract's baseline", contract: contract("jev-preview", ""), opts: Options{AllowUnpinned: true}, replay: replay("x"), candidate: "(replay)"},
		{name: "alias baseline override without opt-in", contract: contract("jev-1.13", ""), opts: Options{BaselineModel: "jev-latest"}, replay: replay("x"),
			problems: []string{`baseline-model baseline model "jev-latest" is a floating alias`}},
		{name: "blank candidate", contract: contract("jev-1.13", ""), opts: Options{CandidateModel: " "}, replay: replay("x"),
			problems: []string{"candidate-model the candidate model must not be blank"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, faults := LoadContract("c.json", []byte(tt.contract), tt.opts)
			if len(faults) > 0 {
				t.Fatal(codes(faults))
			}
			var problems []string
			for _, p := range c.ModelProblems() {
				problems = append(problems, p.Option+" "+p.Message)
			}
			if len(problems) != len(tt.problems) {
				t.Fatalf("model problems %q, want %q", problems, tt.problems)
			}
			for i := range problems {
				if !strings.HasPrefix(problems[i], tt.problems[i]) {
					t.Errorf("model problem %q, want %q", problems[i], tt.problems[i])
				}
			}
			if len(problems) > 0 {
				return
			}
			r, rf := LoadReplay("r.json", []byte(tt.replay))
			if len(rf) > 0 {
				t.Fatal(codes(rf))
			}
			rep, faults := Eval(c, r)
			if len(faults) != len(tt.faults) {
				t.Fatalf("faults\n%s\nwant %q", codes(faults), tt.faults)
			}
			for i, f := range faults {
				code, msg, _ := strings.Cut(tt.faults[i], " ")
				at := diag.NewLineIndex([]byte(tt.replay)).Pos(strings.Index(tt.replay, `"model": `) + len(`"model": `))
				if f.Code != code || !strings.Contains(f.Message, msg) || f.Pos != at || f.File != "r.json" || f.CaseID != "t-1" {
					t.Errorf("fault %s %s %q, want %s", f.Pos, f.Code, f.Message, tt.faults[i])
				}
			}
			if len(faults) == 0 && rep.Candidate != tt.candidate {
				t.Errorf("candidate %q, want %q", rep.Candidate, tt.candidate)
			}
		})
	}
}

func TestBaselineOverride(t *testing.T) {
	text := contractJSON("", caseJSON("t-1", `"q": {"choice": "billing"}`))
	c, _ := LoadContract("c.json", []byte(text), Options{BaselineModel: "jev-1.12"})
	if c.BaselineModel != "jev-1.12" || c.ContractBaselineModel != "jev-1.13" || !c.Overridden() {
		t.Errorf("override: %q over %q, overridden %v", c.BaselineModel, c.ContractBaselineModel, c.Overridden())
	}
	c, _ = LoadContract("c.json", []byte(text), Options{BaselineModel: "jev-1.13"})
	if c.Overridden() {
		t.Error("the same model counts as an override")
	}
	c, _ = LoadContract("c.jsonl", []byte(caseJSON("t-1", `"q": {"choice": "billing"}`)), Options{BaselineModel: "jev-1.13"})
	if c.BaselineModel != "jev-1.13" || c.Overridden() {
		t.Errorf("a JSONL contract without _meta: %q, overridden %v", c.BaselineModel, c.Overridden())
	}
	// The override replaces the baseline a compare checks the baseline
	// replay against.
	c, _ = LoadContract("c.json", []byte(text), Options{BaselineModel: "jev-1.12"})
	base, _ := LoadReplay("b.json", []byte(replayJSON([3]string{"t-1", `"jev-1.13"`, aChoice})))
	cand, _ := LoadReplay("r.json", []byte(replayJSON([3]string{"t-1", `"jev-1.14"`, aChoice})))
	if _, faults := Compare(c, base, cand); len(faults) != 1 || faults[0].Code != "model_mismatch" || faults[0].File != "b.json" {
		t.Errorf("compare against an overridden baseline: %s", codes(faults))
	}
}

func TestMissingCase(t *testing.T) {
	text := contractJSON("", caseJSON("t-1", `"q": {"choice": "billing"}`), caseJSON("t-2", `"q": {"choice": "billing"}`))
	c, _ := LoadContract("c.json", []byte(text), Options{})
	r, _ := LoadReplay("r.json", []byte(replayJSON([3]string{"t-2", `"m"`, aChoice}, [3]string{"t-9", `"m"`, ""})))
	rep, faults := Eval(c, r)
	if len(faults) != 1 || faults[0].Code != "replay_missing_case" || faults[0].Pos != (diag.Pos{Line: 1}) || faults[0].CaseID != "t-1" ||
		faults[0].Check != CheckReplay || faults[0].Outcome != diag.Error {
		t.Fatalf("faults: %+v", faults)
	}
	// The other case is still evaluated; the extra one is ignored.
	if len(rep.Cases) != 1 || rep.Cases[0].ID != "t-2" {
		t.Errorf("cases: %+v", rep.Cases)
	}
}

// TestAnswersGet: a response's answers are found by field whatever order the replay wrote them in, and a
// field it did not answer is not found.
func TestAnswersGet(t *testing.T) {
	text := replayJSON([3]string{"c1", `"m"`, `"z": {"type": "noul", "noul": 0.1}, ` + aScore + `, "b": {"type": "noul", "noul": 0.2}, ` + aNoul})
	replay, faults := LoadReplay("replay.json", []byte(text))
	if len(faults) > 0 {
		t.Fatalf("faults: %+v", faults)
	}
	as := replay.Responses["c1"].Answers
	for field, noul := range map[string]float64{"z": 0.1, "b": 0.2, "n": 0.8} {
		if a, ok := as.Get(field); !ok || a.Noul != noul {
			t.Errorf("Get(%q) = %+v, %v; want noul %v", field, a, ok, noul)
		}
	}
	if a, ok := as.Get("s"); !ok || a.Score != 1.9 {
		t.Errorf("Get(s) = %+v, %v", a, ok)
	}
	for _, field := range []string{"", "a", "c", "q", "zz"} {
		if _, ok := as.Get(field); ok {
			t.Errorf("Get(%q) found an answer the replay does not hold", field)
		}
	}
}
