// Package judge is the AI judge of ai evals (README "The AI judge"): the verdict a judge must return,
// how one reply is read, and how the verdicts of several runs make one outcome. It sends nothing;
// the providers that do are built on it.
package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/evalgate/evalgate/internal/diag"
)

// Template is the version of the prompt and verdict contract; it is part of every cache key and of the
// evidence.
const Template = "evalgate-judge/1"

// Verdict values a judge may answer.
const (
	Pass    = "pass"
	Fail    = "fail"
	Partial = "partial" // counts as fail: the assertion does not fully hold
)

// Verdict is one run's verdict: the closed object the judge returns.
type Verdict struct {
	Quotes    []string `json:"quotes"`
	Reasoning string   `json:"reasoning"`
	Verdict   string   `json:"verdict"`
}

// Passed reports whether the verdict is a pass (partial is a fail).
func (v Verdict) Passed() bool { return v.Verdict == Pass }

// ErrInvalid marks a reply that is no valid verdict: the run is invalid, not a fail.
var ErrInvalid = errors.New("invalid verdict")

// Parse reads one reply as a verdict about target. The reply must be exactly one closed verdict object
// (white space around it allowed); fenced, when the server refused strict output and the schema was in
// the prompt, also accepts that object inside one ```json fence. Every non-empty quote must occur in the
// target after folding white space: a verdict cannot stand on invented evidence. Any other reply is an
// error wrapping ErrInvalid that says why.
func Parse(reply, target []byte, fenced bool) (Verdict, error) {
	body := bytes.TrimSpace(reply)
	if fenced {
		body = unfence(body)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var raw struct {
		Quotes    *[]string `json:"quotes"`
		Reasoning *string   `json:"reasoning"`
		Verdict   *string   `json:"verdict"`
	}
	if len(body) == 0 || body[0] != '{' {
		return Verdict{}, fmt.Errorf("%w: the reply is not a JSON object", ErrInvalid)
	}
	if err := dec.Decode(&raw); err != nil {
		return Verdict{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if dec.More() || dec.InputOffset() != int64(len(body)) {
		return Verdict{}, fmt.Errorf("%w: the reply holds more than one JSON object", ErrInvalid)
	}
	switch {
	case raw.Verdict == nil || raw.Reasoning == nil || raw.Quotes == nil:
		return Verdict{}, fmt.Errorf("%w: the verdict needs quotes, reasoning and verdict", ErrInvalid)
	case *raw.Verdict != Pass && *raw.Verdict != Fail && *raw.Verdict != Partial:
		return Verdict{}, fmt.Errorf("%w: verdict must be pass, fail or partial, got %q", ErrInvalid, clip(*raw.Verdict))
	}
	folded := fold(string(target))
	for _, q := range *raw.Quotes {
		if f := fold(q); f != "" && !strings.Contains(folded, f) {
			return Verdict{}, fmt.Errorf("%w: the quote %q is not in the target", ErrInvalid, clip(q))
		}
	}
	return Verdict{Quotes: *raw.Quotes, Reasoning: *raw.Reasoning, Verdict: *raw.Verdict}, nil
}

// unfence returns the body of one ```json (or ```) fence that is the whole reply, else the reply.
func unfence(b []byte) []byte {
	if !bytes.HasPrefix(b, []byte("```")) || !bytes.HasSuffix(b, []byte("```")) || len(b) < 6 {
		return b
	}
	inner := b[3 : len(b)-3]
	nl := bytes.IndexByte(inner, '\n')
	if nl < 0 {
		return b
	}
	if info := bytes.TrimSpace(inner[:nl]); len(info) > 0 && !bytes.EqualFold(info, []byte("json")) {
		return b
	}
	return bytes.TrimSpace(inner[nl+1:])
}

// fold collapses every run of white space into one space and trims, so that a quote matches across
// line breaks and indentation.
func fold(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// clip cuts text quoted in an error to 80 code points.
func clip(s string) string { return diag.ClipRunes(s, 80) }
