package testfs

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The EvalCase corpus of the benchmarks: its two files, under the root WriteCorpus writes to.
const (
	CorpusCases      = "cases/bench.jsonl"
	CorpusCandidates = "candidates/bench.jsonl"
)

// WriteCorpus writes n realistic EvalCase cases (printf and Python placeholders, numbers, tokens,
// renderings, length, the protocol: six assertion kinds) and one candidate for each, in case order,
// every tenth of them failing, with pad more bytes of context in each case and of text in each
// candidate. It returns the two files' sizes.
func WriteCorpus(t testing.TB, root string, n, pad int) (size int64) {
	t.Helper()
	var cases, cands jsonl
	for i := range n {
		id := fmt.Sprintf("bench.kind-%d.%06d", i%3, i)
		var source, assertions, text, raw string
		switch i % 3 {
		case 0:
			source = fmt.Sprintf("Welcome back, %%s! You have %%d coins and a %%.1f%%%% bonus on %d,250 gems.", i%97)
			assertions = `[{"name": "placeholder_integrity", "severity": "hard", "params": {"syntax": "printf", "allow_reorder": true}}, {"name": "number_fidelity", "severity": "hard"}, {"name": "max_chars", "severity": "report", "params": {"max": 80}}]`
			text = fmt.Sprintf("欢迎回来，%%s！你有%%d枚金币，宝石%d,250颗可获得%%.1f%%%%奖励。", i%97)
		case 1:
			source = "{player} found {count} items in {zone}; press <b>Open</b> to see them."
			assertions = `[{"name": "placeholder_integrity", "severity": "hard", "params": {"syntax": "python"}}, {"name": "required_tokens", "severity": "hard"}, {"name": "forbidden_renderings", "severity": "report", "params": {"patterns": ["(?i)\\btodo\\b"]}}]`
			text = "{player} hat {count} Gegenstände in {zone} gefunden; drücke <b>Öffnen</b>, um sie zu sehen."
		default:
			source = "[1] Start game\n[2] Options\n[3] Quit to desktop"
			assertions = `[{"name": "protocol_complete", "severity": "hard", "params": {"expected_items": 3, "terminator": "---END---"}}]`
			raw = "[1] ゲームを始める\n[2] オプション\n[3] デスクトップに戻る\n---END---"
		}
		if i%10 == 9 {
			text, raw = "broken %s", "[1] x\n[3] y"
		}
		c := map[string]any{
			"schema_version": 1, "id": id, "source_locale": "en-US", "target_locale": "zh-Hans", "domain": "game-ui",
			"source": source, "assertions": json.RawMessage(assertions), "required_tokens": []string{"<b>", "</b>"},
			"references": []string{}, "provenance": map[string]string{"kind": "synthetic", "license": "GPL-3.0-or-later"},
			"context": map[string]any{"screen": "main-menu", "max_width_px": 320, "note": strings.Repeat("n", pad)}, "difficulty": "intermediate",
			"tags": []string{"bench", "placeholder"},
		}
		if i%3 != 1 {
			delete(c, "required_tokens")
		}
		cases.line(t, c)
		if pad > 0 && i%3 != 2 {
			text += strings.Repeat(" ", pad)
		}
		cand := map[string]any{"case_id": id, "text": text, "raw_response": nil}
		if raw != "" {
			cand["raw_response"] = raw
		}
		cands.line(t, cand)
	}
	for name, text := range map[string][]byte{CorpusCases: cases, CorpusCandidates: cands} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, text, 0o644); err != nil {
			t.Fatal(err)
		}
		size += int64(len(text))
	}
	return size
}

// jsonl is a JSONL file being written.
type jsonl []byte

func (b *jsonl) line(t testing.TB, v any) {
	line, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	*b = append(append(*b, line...), '\n')
}

// The typed yardstick: every field of a case and of a candidate, as a program that only reads the
// files would declare them.
type (
	corpusCase struct {
		SchemaVersion  int               `json:"schema_version"`
		ID             string            `json:"id"`
		SourceLocale   string            `json:"source_locale"`
		TargetLocale   string            `json:"target_locale"`
		Domain         string            `json:"domain"`
		Source         string            `json:"source"`
		Assertions     []corpusAssertion `json:"assertions"`
		Provenance     corpusProvenance  `json:"provenance"`
		Context        json.RawMessage   `json:"context"`
		RequiredTokens []string          `json:"required_tokens"`
		References     []string          `json:"references"`
		Difficulty     string            `json:"difficulty"`
		Tags           []string          `json:"tags"`
	}
	corpusAssertion struct {
		Name     string          `json:"name"`
		Severity string          `json:"severity"`
		Params   json.RawMessage `json:"params"`
	}
	corpusProvenance struct {
		Kind           string  `json:"kind"`
		License        string  `json:"license"`
		Source         *string `json:"source"`
		Transformation string  `json:"transformation"`
	}
	corpusCandidate struct {
		CaseID      string  `json:"case_id"`
		Text        *string `json:"text"`
		RawResponse *string `json:"raw_response"`
	}
)

// DecodeCorpus is the baseline the EvalCase benchmarks are measured against: it reads the corpus's two
// files line by line and decodes each line with encoding/json, into the typed structs above or, with
// maps, into map[string]any. It does nothing else.
func DecodeCorpus(t testing.TB, root string, maps bool) {
	for _, name := range []string{CorpusCases, CorpusCandidates} {
		f, err := os.Open(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			switch {
			case maps:
				var m map[string]any
				err = json.Unmarshal(sc.Bytes(), &m)
			case name == CorpusCases:
				var c corpusCase
				err = json.Unmarshal(sc.Bytes(), &c)
			default:
				var c corpusCandidate
				err = json.Unmarshal(sc.Bytes(), &c)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}

// The jevcheck corpus of the benchmarks: its two files, in the folder WriteJevCorpus writes to.
const (
	JevContract = "contract.json"
	JevReplay   = "replay.json"
)

// WriteJevCorpus writes, as JevContract and JevReplay in dir, a contract of n cases, one question each
// (choice, noul and score in turn, so that 50,000 cases stay under jev.MaxJSON), and a replay by
// jev-1.14 answering them, with a flip or a regression every tenth case. It returns the two texts.
func WriteJevCorpus(tb testing.TB, dir string, n int) (contract, replay []byte) {
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
	Write(tb, dir, map[string]string{JevContract: c.String(), JevReplay: r.String()})
	return []byte(c.String()), []byte(r.String())
}

// DecodeJevTyped is the typed yardstick of the jev benchmarks: the two texts of WriteJevCorpus decoded
// with encoding/json into structs of the spec's shapes, with maps where the keys are the file's own
// (questions, expect, answers, case ids) and any where a value may be of several types (state,
// criteria, an expectation's values). It checks that the n cases were read.
func DecodeJevTyped(tb testing.TB, ctext, rtext []byte, n int) {
	tb.Helper()
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
		tb.Fatal(err)
	}
	if err := json.Unmarshal(rtext, &r); err != nil {
		tb.Fatal(err)
	}
	if len(c.Cases) != n || len(r) != n {
		tb.Fatalf("typed decode: %d cases, %d responses", len(c.Cases), len(r))
	}
}
