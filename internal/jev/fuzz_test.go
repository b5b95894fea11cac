package jev

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/testfs"
)

// checkResults fails on a result that is malformed: an unregistered code, a
// position outside text (when the result is about text's file), or a
// message of more than one line.
func checkResults(t *testing.T, file string, text []byte, rs []diag.Result) {
	t.Helper()
	var mine []diag.Result
	for _, r := range rs {
		if _, ok := diag.LookupCode(r.Code); !ok {
			t.Errorf("unregistered code %q (%s)", r.Code, r.Message)
		}
		if r.Source != diag.SourceJev || r.Message == "" || strings.ContainsAny(r.Message, "\n\r") {
			t.Errorf("malformed result %+v", r)
		}
		if r.File == file {
			mine = append(mine, r)
		}
	}
	checkPositions(t, text, mine)
}

func seedFiles(f *testing.F, pattern string) [][]byte {
	var out [][]byte
	for _, file := range testfs.Files(f, filepath.Join("testdata", pattern)) {
		out = append(out, file.Text)
	}
	return out
}

// FuzzContract loads arbitrary text as a JSON and as a JSONL contract: no
// panic, every fault registered and positioned inside the text, a contract
// only without faults; a valid contract is then evaluated against a replay.
// Seeds: testdata/contract.json(l) and the fixtures of the validation table.
func FuzzContract(f *testing.F) {
	for _, b := range seedFiles(f, "contract.json*") {
		f.Add(b, false)
		f.Add(b, true)
	}
	ok := caseJSON("t-1", `"q": {"choice": "billing"}, "n": {"noul": 0.6, "noul_tolerance": 0.1}, "s": {"score": 1.5}`)
	f.Add([]byte(contractJSON(`"defaults": {"confidence_tolerance": 0.1, "score_tolerance": 0.2}`, ok, caseJSON("t-2", `"q": {"baseline_confidence": 0.9}`))), false)
	f.Add([]byte(`{"_meta": true, "baseline_model": "jev-latest", "allow_unpinned": true}`+"\n"+ok+"\n"), true)
	f.Add([]byte("\ufeff{\"a\": [1e400, \"\\u00e9\", {\"b\": null}], \"a\": 2}"), false)
	replay := seedFiles(f, "candidate.json")[0]
	f.Fuzz(func(t *testing.T, text []byte, jsonl bool) {
		file := "c.json"
		if jsonl {
			file = "c.jsonl"
		}
		c, faults := LoadContract(file, text, Options{})
		checkResults(t, file, text, faults)
		if (c == nil) == (len(faults) == 0) {
			t.Fatalf("contract %v with %d faults", c != nil, len(faults))
		}
		if c == nil {
			return
		}
		for _, k := range c.Cases {
			if k.ID == "" || len(k.Fields) == 0 {
				t.Fatalf("a valid contract holds case %q with %d fields", k.ID, len(k.Fields))
			}
		}
		r, rf := LoadReplay("r.json", replay)
		if len(rf) > 0 {
			t.Fatalf("seed replay: %s", codes(rf))
		}
		rep, faults := Eval(c, r)
		checkResults(t, "r.json", replay, faults)
		rs := slices.Collect(rep.Results())
		checkResults(t, file, text, rs)
		if rep.Unchanged+rep.Regressions+rep.Flips != len(rep.Cases) {
			t.Fatalf("counts %d+%d+%d for %d cases", rep.Unchanged, rep.Regressions, rep.Flips, len(rep.Cases))
		}
	})
}

// FuzzReplay loads arbitrary text as a replay, then uses it as the
// candidate and as the baseline of testdata/contract.json: no panic, every
// fault registered and positioned inside the text. Seeds: testdata/*.json
// replays.
func FuzzReplay(f *testing.F) {
	for _, b := range seedFiles(f, "[bc]a*.json") {
		f.Add(b)
	}
	f.Add([]byte(`{"ticket-001": {"model": null, "answers": {"intent": {"choice": "a", "confidence": 2, "probabilities": {"a": -1}}}}}`))
	f.Add([]byte(`{"ticket-001": {"model": "None", "usage": {"input_tokens": 1.5}, "answers": {"urgency": {"score": 1, "confidence": 0.5, "legend": {}, "probabilities": {"0": 0.5, "1": 0.5000001}}}}, "ticket-001": 1}`))
	ctext := seedFiles(f, "contract.json")[0]
	c, faults := LoadContract("c.json", ctext, Options{CandidateModel: "jev-1.15"})
	if len(faults) > 0 {
		f.Fatalf("seed contract: %s", codes(faults))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		r, faults := LoadReplay("r.json", text)
		checkResults(t, "r.json", text, faults)
		if r == nil {
			if len(faults) == 0 {
				t.Fatal("no replay and no fault")
			}
			return
		}
		for _, resp := range r.Responses {
			if !resp.Bad && resp.Model == "" {
				t.Fatal("a good response without a model")
			}
		}
		rep, faults := Eval(c, r)
		checkResults(t, "r.json", text, faults)
		checkResults(t, "c.json", ctext, slices.Collect(rep.Results()))
		rep, faults = Compare(c, r, r)
		checkResults(t, "r.json", text, faults)
		checkResults(t, "c.json", ctext, slices.Collect(rep.Results()))
	})
}
