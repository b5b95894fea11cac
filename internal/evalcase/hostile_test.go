package evalcase

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

// writeHostile writes one case and one candidate that together list about
// 2n faults in every assertion that lists faults (README "Results": bounded
// evidence): n distinct placeholders and n numbers in the source, n other
// placeholders and no number in the candidate, a response of n malformed
// items, n/100 required tokens of which none survives, and two forbidden
// patterns that match. It returns the root and the two files' sizes.
func writeHostile(t testing.TB, n int) (root string, size int64) {
	t.Helper()
	root = t.TempDir()
	var src, text, raw strings.Builder
	for i := range n {
		fmt.Fprintf(&src, "{a%d} %d ", i, 1000+i)
		fmt.Fprintf(&text, "{b%d} TODO ", i)
		fmt.Fprintf(&raw, "[%d]\n", i%7)
	}
	tokens := make([]string, n/100)
	for i := range tokens {
		tokens[i] = fmt.Sprintf("<t%d>", i)
	}
	c := map[string]any{
		"schema_version": 1, "id": "hostile.many.001", "source_locale": "en-US", "target_locale": "de-DE",
		"domain": "game-ui", "source": src.String(), "required_tokens": tokens,
		"assertions": []any{
			map[string]any{"name": "placeholder_integrity", "severity": "hard", "params": map[string]any{"syntax": "auto"}},
			map[string]any{"name": "number_fidelity", "severity": "hard"},
			map[string]any{"name": "required_tokens", "severity": "hard"},
			map[string]any{"name": "forbidden_renderings", "severity": "hard", "params": map[string]any{"patterns": []string{"TODO", `\{b1\}`}}},
			map[string]any{"name": "protocol_complete", "severity": "hard", "params": map[string]any{"expected_items": 3}},
			map[string]any{"name": "max_chars", "severity": "report", "params": map[string]any{"max": 10}},
		},
		"provenance": map[string]any{"kind": "synthetic", "license": "MIT"},
	}
	cand := map[string]any{"case_id": "hostile.many.001", "text": text.String(), "raw_response": raw.String()}
	for name, v := range map[string]any{"cases/hostile.jsonl": c, "candidates/hostile.jsonl": cand} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		size += int64(len(b) + 1)
	}
	return root, size
}

func hostileRequest(root string) Request {
	return Request{
		Root: root, Fixtures: []string{"cases/hostile.jsonl"}, Candidates: []string{"candidates/hostile.jsonl"},
		ReadCandidates: true, CandidatesConfigured: true,
	}
}

// TestHostileEvidenceBounded is the attack of a case and a candidate of 12
// MB with hundreds of thousands of placeholders: every assertion gives one
// positioned result whose evidence keeps its bounds (README "Results":
// bounded evidence). Past MaxTokens placeholders or numbers in one text,
// placeholder_integrity and number_fidelity compare nothing and are error
// too_large; below it, they list the faults and say how many more there are.
// The results together are far smaller than the input.
func TestHostileEvidenceBounded(t *testing.T) {
	t.Run("at MaxTokens", func(t *testing.T) { hostileCheck(t, MaxTokens) })
	t.Run("12 MB", func(t *testing.T) { hostileCheck(t, 360_000) })
}

func hostileCheck(t *testing.T, n int) {
	tooMany := n > MaxTokens
	root, size := writeHostile(t, n)
	var rs []diag.Result
	peak, _ := peakHeap(func() {
		var err error
		rs, err = Check(context.Background(), hostileRequest(root))
		if err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("input %.1f MB, peak live heap %.0f MiB", float64(size)/1e6, float64(peak)/(1<<20))
	want := map[string]string{
		"placeholder_integrity": "placeholder_missing", "number_fidelity": "number_missing",
		"required_tokens": "required_token_missing", "forbidden_renderings": "forbidden_rendering",
		"protocol_complete": "protocol_malformed_item", "max_chars": "max_chars_exceeded",
	}
	if len(rs) != len(want) {
		t.Fatalf("%d results, want %d: %s", len(rs), len(want), textLines(rs))
	}
	var all int
	for _, r := range rs {
		b, err := json.Marshal(r.Evidence)
		if err != nil {
			t.Fatal(err)
		}
		all += len(b) + len(r.Message)
		if len(b) > diag.MaxEvidenceBytes {
			t.Errorf("%s: evidence of %d bytes, more than %d", r.Check, len(b), diag.MaxEvidenceBytes)
		}
		checkEvidenceLists(t, r.Check, r.Evidence)
		if len(r.Message) > 1024 {
			t.Errorf("%s: a message of %d bytes", r.Check, len(r.Message))
		}
		if tooMany && (r.Check == "placeholder_integrity" || r.Check == "number_fidelity") {
			if r.Outcome != diag.Error || r.Code != "too_large" || r.Pos != (diag.Pos{Line: 1, Col: 1}) ||
				r.Message != "the source holds more than 10,000 placeholders; evalgate compares at most 10,000" {
				t.Errorf("%s: %s %s at %s: %s; want an error too_large at 1:1", r.Check, r.Outcome, r.Code, r.Location(), r.Message)
			}
			continue
		}
		if r.Outcome != diag.Fail || r.Code != want[r.Check] || r.Pos != (diag.Pos{Line: 1, Col: 1}) || r.File != "cases/hostile.jsonl" {
			t.Errorf("%s: %s %s at %s, want a fail %s at cases/hostile.jsonl:1:1", r.Check, r.Outcome, r.Code, r.Location(), want[r.Check])
		}
		if r.Check == "max_chars" || r.Check == "forbidden_renderings" {
			continue // one fault, or two
		}
		if !strings.Contains(r.Message, "more fault(s)") {
			t.Errorf("%s: the message does not say how many more faults: %s", r.Check, r.Message)
		}
		if r.Check == "required_tokens" {
			// 3,600 tokens in 13 MB: most are over the work limit; 100 at MaxTokens, all listed.
			if tooMany && !strings.Contains(r.Message, "were not checked") {
				t.Errorf("required_tokens: %s", r.Message)
			}
			continue
		}
		if total, _ := r.Evidence["faults_total"].(int); total <= diag.MaxEvidenceItems || r.Evidence["truncated"] != true {
			t.Errorf("%s: faults_total %v, truncated %v", r.Check, r.Evidence["faults_total"], r.Evidence["truncated"])
		}
		if r.Check == "placeholder_integrity" {
			if got := fmt.Sprintf("(and %d more fault(s); the evidence lists 99 of them)", 2*n-1); !strings.HasSuffix(r.Message, got) {
				t.Errorf("placeholder_integrity: message %q, want it to end with %q", r.Message, got)
			}
			if r.Evidence["expected_total"] != n || r.Evidence["actual_total"] != n {
				t.Errorf("placeholder_integrity: expected_total %v, actual_total %v, want %d", r.Evidence["expected_total"], r.Evidence["actual_total"], n)
			}
		}
	}
	if int64(all) > size/4 {
		t.Errorf("results of %d bytes for an input of %d", all, size)
	}
}

// checkEvidenceLists asserts that no list of v holds more than
// diag.MaxEvidenceItems items and no string more than
// diag.MaxEvidenceString bytes.
func checkEvidenceLists(t *testing.T, check string, v any) {
	t.Helper()
	switch x := v.(type) {
	case string:
		if len(x) > diag.MaxEvidenceString {
			t.Errorf("%s: a string of %d bytes in the evidence", check, len(x))
		}
	case []any:
		if len(x) > diag.MaxEvidenceItems {
			t.Errorf("%s: a list of %d items in the evidence", check, len(x))
		}
		for _, e := range x {
			checkEvidenceLists(t, check, e)
		}
	case map[string]any:
		for _, e := range x {
			checkEvidenceLists(t, check, e)
		}
	}
}

// TestManyRequiredTokens: required tokens beyond the work limit are
// counted, not checked, and the result says so.
func TestManyRequiredTokens(t *testing.T) {
	text := strings.Repeat("x", 1<<20)
	tokens := make([]string, 3000)
	for i := range tokens {
		tokens[i] = fmt.Sprintf("<t%d>", i)
	}
	v := runRequiredTokens(&input{source: text, text: text, requiredTokens: tokens}, nil)
	if v.total != requiredWorkLimit/(2<<20) || !strings.Contains(v.unchecked, "of 3000 distinct required tokens were not checked") {
		t.Errorf("%d faults, unchecked %q", v.total, v.unchecked)
	}
	r := assertionResult("required_tokens", diag.SeverityError, v, "f.jsonl", 1, "a.b")
	if r.Outcome != diag.Fail || r.Evidence["not_checked"] != v.unchecked || !strings.Contains(r.Message, "not checked") {
		t.Errorf("%s %s %q, evidence %v", r.Outcome, r.Code, r.Message, r.Evidence["not_checked"])
	}
	// With no fault among those checked, there is no verdict.
	all := strings.Join(tokens, " ")
	v = runRequiredTokens(&input{source: all + text, text: all + text, requiredTokens: tokens}, nil)
	if r := assertionResult("required_tokens", diag.SeverityError, v, "f.jsonl", 1, "a.b"); r.Outcome != diag.Error || r.Code != "too_large" {
		t.Errorf("%s %s: %s", r.Outcome, r.Code, r.Message)
	}
}

// TestPatternWorkBounded: a forbidden pattern, or a custom placeholder pattern, whose compiled
// instructions times the text's bytes pass the match budget is not run: the assertion says what it did
// not check, and the case is too_large. (?:.?){1000}Z on a 2 MB candidate took 36 s, past any signal.
func TestPatternWorkBounded(t *testing.T) {
	text := strings.Repeat("a", 2<<20) + "Z"
	v := runForbidden(&input{text: text}, []byte(`{"patterns": ["TODO", "(?:.?){1000}Z"]}`))
	if !strings.Contains(v.unchecked, "1 of 2 forbidden patterns were not checked") || v.failed() {
		t.Errorf("forbidden_renderings: unchecked %q, failed %v", v.unchecked, v.failed())
	}
	if r := assertionResult("forbidden_renderings", diag.SeverityError, v, "f.jsonl", 1, "a.b"); r.Outcome != diag.Error || r.Code != "too_large" {
		t.Errorf("forbidden_renderings: %s %s", r.Outcome, r.Code)
	}
	params := []byte(`{"syntax": "printf", "patterns": ["(?:.?){1000}Z"]}`)
	for name, run := range map[string]func(*input, []byte) verdict{"placeholder_integrity": runPlaceholders, "number_fidelity": runNumbers} {
		in := &input{source: "a Z", text: text, placeholder: ptr(decodePlaceholderParams(params))}
		v := run(in, params)
		if !strings.Contains(v.unchecked, "custom pattern") || v.failed() {
			t.Errorf("%s: unchecked %q, failed %v", name, v.unchecked, v.failed())
		}
	}
	// A pattern each of whose matches reads to the end of the text: every match counts, not one pass.
	quad := []byte(`{"syntax": "custom", "patterns": ["a(?:.*Z)?"]}`)
	in := &input{source: "a", text: strings.Repeat("a", 200_000), placeholder: ptr(decodePlaceholderParams(quad))}
	if v := runPlaceholders(in, quad); !strings.Contains(v.unchecked, "custom pattern") {
		t.Errorf("a(?:.*Z)? on 200 KB: unchecked %q", v.unchecked)
	}
	// An ordinary pattern on the same text is matched.
	if v := runForbidden(&input{text: text}, []byte(`{"patterns": ["a+Z$"]}`)); v.unchecked != "" || !v.failed() {
		t.Errorf("an ordinary pattern: unchecked %q, failed %v", v.unchecked, v.failed())
	}
}

func ptr[T any](v T) *T { return &v }
