// Package judge is the AI judge of ai evals (README "The AI judge"): the verdict a judge must return,
// how one reply is read, and how the verdicts of several runs make one outcome. It sends nothing;
// the providers that do are built on it.
package judge

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
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
// error wrapping ErrInvalid that says why; what it quotes of the reply goes through mask (nil: as it is)
// before it is cut, so that no cut leaves part of a secret unmasked.
func Parse(reply, target []byte, fenced bool, mask func(string) string) (Verdict, error) {
	quote := func(s string) string { // masked, then cut
		if mask != nil {
			s = mask(s)
		}
		return clip(s)
	}
	body := bytes.TrimSpace(reply)
	if fenced {
		body = unfence(body)
	}
	if len(body) == 0 || body[0] != '{' {
		return Verdict{}, fmt.Errorf("%w: the reply is not a JSON object", ErrInvalid)
	}
	// Read as written, keys exact and once each: encoding/json matched "VERDICT" and took the later of
	// two "verdict" keys, so an ambiguous reply could turn a fail into a pass.
	root, problems := frontmatter.ParseJSON(body, 1)
	switch {
	case len(problems) > 0 && strings.Contains(problems[0].Message, "after the JSON value"):
		return Verdict{}, fmt.Errorf("%w: the reply holds more than one JSON object", ErrInvalid)
	case len(problems) > 0:
		return Verdict{}, fmt.Errorf("%w: %s", ErrInvalid, problems[0].Message)
	}
	var v Verdict
	var has [3]bool
	for _, e := range root.Entries {
		n := e.Value
		switch e.Key {
		case "quotes":
			if n.Kind != frontmatter.List {
				return Verdict{}, fmt.Errorf("%w: quotes must be a list of strings", ErrInvalid)
			}
			v.Quotes = make([]string, len(n.Items))
			for i, q := range n.Items {
				if q.Kind != frontmatter.String {
					return Verdict{}, fmt.Errorf("%w: quotes must be a list of strings", ErrInvalid)
				}
				v.Quotes[i] = q.Text
			}
			has[0] = true
		case "reasoning", "verdict":
			if n.Kind != frontmatter.String {
				return Verdict{}, fmt.Errorf("%w: %s must be a string", ErrInvalid, e.Key)
			}
			if e.Key == "reasoning" {
				v.Reasoning, has[1] = n.Text, true
			} else {
				v.Verdict, has[2] = n.Text, true
			}
		default:
			return Verdict{}, fmt.Errorf("%w: unknown field %q", ErrInvalid, quote(e.Key))
		}
	}
	switch {
	case has != [3]bool{true, true, true}:
		return Verdict{}, fmt.Errorf("%w: the verdict needs quotes, reasoning and verdict", ErrInvalid)
	case v.Verdict != Pass && v.Verdict != Fail && v.Verdict != Partial:
		return Verdict{}, fmt.Errorf("%w: verdict must be pass, fail or partial, got %q", ErrInvalid, quote(v.Verdict))
	}
	folded := fold(string(target))
	for _, q := range v.Quotes {
		if f := fold(q); f != "" && !strings.Contains(folded, f) {
			return Verdict{}, fmt.Errorf("%w: the quote %q is not in the target", ErrInvalid, quote(q))
		}
	}
	return v, nil
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
