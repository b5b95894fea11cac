package jev

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchCases is the size of the benchmark's contract (the issue's
// acceptance: 50,000 cases).
const benchCases = 50000

// writeBench writes a contract of n cases, one question each (choice, noul
// and score in turn, so that both files stay under MaxJSON), and a replay
// answering them, with a flip or a regression every tenth case. It returns
// the two paths.
func writeBench(tb testing.TB, dir string, n int) (contract, replay string) {
	var c, r strings.Builder
	c.WriteString("{\n  \"version\": \"0.1\",\n  \"name\": \"bench\",\n  \"baseline_model\": \"jev-1.13\",\n" +
		"  \"defaults\": {\"confidence_tolerance\": 0.1, \"noul_tolerance\": 0.1},\n  \"cases\": [\n")
	r.WriteString("{\n")
	for i := range n {
		sep := ",\n"
		if i == n-1 {
			sep = "\n"
		}
		id := fmt.Sprintf("case-%06d", i)
		off := 0.0
		if i%10 == 9 {
			off = 0.3
		}
		switch i % 3 {
		case 0:
			fmt.Fprintf(&c, `    {"id": %q, "state": "Ticket %d: I was charged twice.", "questions": {"intent": {"type": "choice", "criteria": {"billing": null, "general": null}}}, "expect": {"intent": {"choice": "billing", "min_confidence": 0.6, "baseline_confidence": 0.9}}}%s`, id, i, sep)
			fmt.Fprintf(&r, `  %q: {"model": "jev-1.14", "answers": {"intent": {"type": "choice", "choice": "billing", "confidence": %g, "probabilities": {"billing": %g, "general": %g}}}}%s`, id, 0.88-off, 0.88-off, 0.12+off, sep)
		case 1:
			fmt.Fprintf(&c, `    {"id": %q, "state": "Ticket %d: is it billing?", "questions": {"billing": {"type": "noul", "criteria": {"true": "yes", "false": "no"}}}, "expect": {"billing": {"noul_true": true, "noul": 0.9}}}%s`, id, i, sep)
			fmt.Fprintf(&r, `  %q: {"model": "jev-1.14", "answers": {"billing": {"type": "noul", "noul": %g}}}%s`, id, 0.87-off, sep)
		default:
			fmt.Fprintf(&c, `    {"id": %q, "state": "Ticket %d: how urgent?", "questions": {"urgency": {"type": "score", "criteria": ["low", "mid", "high"]}}, "expect": {"urgency": {"score": 2, "baseline_confidence": 0.9}}}%s`, id, i, sep)
			fmt.Fprintf(&r, `  %q: {"model": "jev-1.14", "answers": {"urgency": {"type": "score", "score": %g, "confidence": 0.85, "legend": {"0": "low", "1": "mid", "2": "high"}, "probabilities": {"0": 0.05, "1": 0.1, "2": 0.85}}}}%s`, id, 1.8-2*off, sep)
		}
	}
	c.WriteString("  ]\n}\n")
	r.WriteString("}\n")
	contract, replay = filepath.Join(dir, "contract.json"), filepath.Join(dir, "replay.json")
	if err := os.WriteFile(contract, []byte(c.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(replay, []byte(r.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return contract, replay
}

func readBench(b *testing.B) (ctext, rtext []byte, dir string) {
	dir = b.TempDir()
	cp, rp := writeBench(b, dir, benchCases)
	ctext, err := os.ReadFile(cp)
	if err != nil {
		b.Fatal(err)
	}
	rtext, err = os.ReadFile(rp)
	if err != nil {
		b.Fatal(err)
	}
	if len(ctext) > MaxJSON || len(rtext) > MaxJSON {
		b.Fatalf("bench files of %d and %d bytes exceed MaxJSON", len(ctext), len(rtext))
	}
	return ctext, rtext, dir
}

// decodeBoth is the yardstick: decoding both files with encoding/json into
// map[string]any, and nothing else.
func decodeBoth(b *testing.B, ctext, rtext []byte) {
	var c, r map[string]any
	if err := json.Unmarshal(ctext, &c); err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(rtext, &r); err != nil {
		b.Fatal(err)
	}
}

// evalBoth is what `evalgate jev eval` does after reading the files (Evaluate, here with the files
// already read): load and validate the contract and the replay, the replay beside the contract, then
// evaluate (internal/cli writes the summary from the report).
func evalBoth(b *testing.B, ctext, rtext []byte) {
	read := func(name string, _ bool) ([]byte, error) {
		if name == "contract.json" {
			return ctext, nil
		}
		return rtext, nil
	}
	o := Evaluate(context.Background(), Entry{Contract: "contract.json", Answers: "replay.json", CandidateModel: "jev-1.14"}, read, true)
	if o.Invalid() || o.Report == nil {
		b.Fatalf("%s, %v", codes(o.Faults), o.Models)
	}
	if rep := o.Report; len(rep.Cases) != benchCases || rep.Unchanged == benchCases {
		b.Fatalf("%d cases, %d unchanged", len(rep.Cases), rep.Unchanged)
	}
}

// benchBoth times run (decodeBoth or evalBoth) over the benchmark's two
// files, counting the bytes of both.
func benchBoth(b *testing.B, run func(b *testing.B, ctext, rtext []byte)) {
	ctext, rtext, _ := readBench(b)
	b.SetBytes(int64(len(ctext) + len(rtext)))
	b.ResetTimer()
	for b.Loop() {
		run(b, ctext, rtext)
	}
}

func BenchmarkDecode(b *testing.B) { benchBoth(b, decodeBoth) }

func BenchmarkEval(b *testing.B) { benchBoth(b, evalBoth) }

// BenchmarkCheck is the engine's path: reading both files, eval, and a
// positioned result for each of the 50,000 fields.
func BenchmarkCheck(b *testing.B) {
	_, _, dir := readBench(b)
	e := Entry{Contract: "contract.json", Answers: "replay.json", CandidateModel: "jev-1.14"}
	b.ResetTimer()
	for b.Loop() {
		if rs := slices.Collect(Check(context.Background(), dir, e, true)); len(rs) != benchCases {
			b.Fatalf("%d results", len(rs))
		}
	}
}

// BenchmarkEvalVsDecode measures eval and two decode yardsticks in turns, in the same run: decoding
// both files with encoding/json into map[string]any (decodeBoth) and into typed structs of the
// files' shapes (decodeTyped). It reports eval's speed as a multiple of each (speed-ratio and
// typed-speed-ratio; the acceptance is at least 2, eval in half the decode's time) and fails
// below 1/3 of the first.
func BenchmarkEvalVsDecode(b *testing.B) {
	ctext, rtext, dir := readBench(b)
	e := Entry{Contract: "contract.json", Answers: "replay.json", CandidateModel: "jev-1.14"}
	var dec, typed, ev, chk time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		decodeBoth(b, ctext, rtext)
		t1 := time.Now()
		evalBoth(b, ctext, rtext)
		t2 := time.Now()
		for range Check(context.Background(), dir, e, true) {
		}
		t3 := time.Now()
		decodeTyped(b, ctext, rtext)
		typed += time.Since(t3)
		chk += t3.Sub(t2)
		dec += t1.Sub(t0)
		ev += t2.Sub(t1)
	}
	ratio := float64(dec) / float64(ev)
	b.ReportMetric(ratio, "speed-ratio")
	b.ReportMetric(float64(typed)/float64(ev), "typed-speed-ratio")
	b.ReportMetric(float64(dec)/float64(chk), "check-speed-ratio")
	b.ReportMetric(float64(dec.Milliseconds())/float64(b.N), "decode-ms/op")
	b.ReportMetric(float64(typed.Milliseconds())/float64(b.N), "typed-ms/op")
	b.ReportMetric(float64(ev.Milliseconds())/float64(b.N), "eval-ms/op")
	b.ReportMetric(float64(chk.Milliseconds())/float64(b.N), "check-ms/op")
	if ratio < 1.0/3 {
		b.Errorf("eval runs at %.2f of the speed of decoding, below 1/3", ratio)
	}
}

// decodeTyped is the typed yardstick: both files decoded with encoding/json into structs of the
// spec's shapes, with maps where the keys are the file's own (questions, expect, answers, case ids)
// and any where a value may be of several types (state, criteria, an expectation's values).
func decodeTyped(b *testing.B, ctext, rtext []byte) {
	var c struct {
		Version       string             `json:"version"`
		Name          string             `json:"name"`
		BaselineModel string             `json:"baseline_model"`
		AllowUnpinned bool               `json:"allow_unpinned"`
		Defaults      map[string]float64 `json:"defaults"`
		Cases         []struct {
			ID        string `json:"id"`
			State     any    `json:"state"`
			Questions map[string]struct {
				Type         string `json:"type"`
				Instructions string `json:"instructions"`
				Criteria     any    `json:"criteria"`
			} `json:"questions"`
			Expect map[string]map[string]any `json:"expect"`
		} `json:"cases"`
	}
	var r map[string]struct {
		Model string `json:"model"`
		Usage *struct {
			InputTokens  *int `json:"input_tokens"`
			OutputTokens *int `json:"output_tokens"`
		} `json:"usage"`
		Answers map[string]struct {
			Type          string             `json:"type"`
			Choice        string             `json:"choice"`
			Confidence    float64            `json:"confidence"`
			Noul          float64            `json:"noul"`
			Score         float64            `json:"score"`
			Probabilities map[string]float64 `json:"probabilities"`
			Legend        map[string]any     `json:"legend"`
		} `json:"answers"`
	}
	if err := json.Unmarshal(ctext, &c); err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(rtext, &r); err != nil {
		b.Fatal(err)
	}
	if len(c.Cases) != benchCases || len(r) != benchCases {
		b.Fatalf("typed decode: %d cases, %d responses", len(c.Cases), len(r))
	}
}
