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
