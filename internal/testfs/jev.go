package testfs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The jevcheck corpus of the benchmarks: its two files, in the folder WriteJevCorpus writes to.
const (
	JevContract = "contract.json"
	JevReplay   = "replay.json"
)

// WriteJevCorpus writes, as JevContract and JevReplay in dir, a contract of n cases, one question each (choice, noul
// and score in turn, so that both files stay under MaxJSON), and a replay
// answering them, with a flip or a regression every tenth case. It returns
// the two paths.
func WriteJevCorpus(tb testing.TB, dir string, n int) (contract, replay string) {
	tb.Helper()
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
	contract, replay = filepath.Join(dir, JevContract), filepath.Join(dir, JevReplay)
	if err := os.WriteFile(contract, []byte(c.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(replay, []byte(r.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return contract, replay
}

// DecodeJevTyped is the typed yardstick of the jev benchmarks: both files of WriteJevCorpus decoded with encoding/json into structs of the
// spec's shapes, with maps where the keys are the file's own (questions, expect, answers, case ids)
// and any where a value may be of several types (state, criteria, an expectation's values).
// It checks that the n cases were read.
func DecodeJevTyped(b testing.TB, ctext, rtext []byte, n int) {
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
	if len(c.Cases) != n || len(r) != n {
		b.Fatalf("typed decode: %d cases, %d responses", len(c.Cases), len(r))
	}
}
