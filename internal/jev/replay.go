package jev

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
)

// CheckReplay is the check of every replay fault.
const CheckReplay = "replay"

// Replay is a replay file: the System One responses of one model, keyed by
// case id (the spec's "Replay file").
type Replay struct {
	File      string
	Responses map[string]*Response
	// pending are the faults compare found in this replay as the baseline,
	// until run returns them.
	pending []diag.Result
}

// Response is one case's recorded response.
type Response struct {
	Model   string
	Answers Answers
	// Bad marks a response with faults: it is not evaluated.
	Bad bool

	// Where eval's and compare's faults of the response point in the
	// replay file: its model's value and its answers' key.
	modelPos, answersPos diag.Pos
}

// Answers are a response's answers, sorted by field (each field once: the parser keeps a repeated key's
// first value). A slice rather than a map: a replay holds one per case, most of a question or two.
type Answers []FieldAnswer

// FieldAnswer is the answer to one field.
type FieldAnswer struct {
	Field string
	Answer
}

// Get returns the answer to field.
func (as Answers) Get(field string) (Answer, bool) {
	i, ok := slices.BinarySearchFunc(as, field, func(a FieldAnswer, f string) int { return strings.Compare(a.Field, f) })
	if !ok {
		return Answer{}, false
	}
	return as[i].Answer, true
}

// Answer is one field's answer, with only the verified System One fields
// evaluation reads (docs/jev-api.md of jevcheck).
type Answer struct {
	Kind       Kind
	Choice     string  // choice: the winning label
	Confidence float64 // choice and score: the API confidence
	Noul       float64 // noul: the probability of yes
	Score      float64 // score: the probability-weighted expected score

	pos diag.Pos // the answer object in the replay file
}

// Scalar is the answer's confidence scalar: the API confidence for choice and
// score, noul itself for noul (the spec: "Noul has no API confidence";
// README "jevcheck v0.1 contracts").
func (a Answer) Scalar() float64 {
	if a.Kind == KindNoul {
		return a.Noul
	}
	return a.Confidence
}

// ProbabilityTolerance is how far a probability map's sum may be from 1 (the
// spec: "whose sum is 1 ± 1e-6").
const ProbabilityTolerance = 1e-6

// replayFault is a replay fault: an error, check "replay" (README "jevcheck v0.1 contracts").
func replayFault(code, msg string) diag.Result {
	return diag.Result{Source: diag.SourceJev, Check: CheckReplay, Outcome: diag.Error,
		Severity: diag.SeverityError, Code: code, Message: msg}
}

// LoadReplay reads and validates a replay file, every entry of it (extra
// cases are not evaluated, but a broken one is still reported). Every fault is
// a replay_invalid result with file and position. The replay is nil when the
// file is not a JSON object; otherwise responses with faults are marked Bad.
// Each response is read as soon as it is parsed, and its nodes are then
// reused for the next (frontmatter.JSONOptions.Each): the responses keep what
// eval and compare need, positions included, and no tree of the file is held.
// Their strings share text's bytes, so text must not change afterwards.
func LoadReplay(file string, text []byte) (*Replay, []diag.Result) {
	s, text := newSource(file, text)
	r := &Replay{File: file}
	rv := &replayValidator{s: s}
	responses := map[string]*Response{}
	var responseFaults []diag.Result // dropped if the parse stops: a text that is not JSON has only that fault
	each := frontmatter.JSONOptions{EachDepth: 1, Each: func(path []frontmatter.JSONStep, x *node) bool {
		if path[0].Index >= 0 {
			return false // an array's item: the root is not a replay
		}
		n := len(s.faults)
		responses[path[0].Key] = rv.response(path[0].Key, x)
		responseFaults = append(responseFaults, s.faults[n:]...)
		s.faults = s.faults[:n]
		return true
	}}
	var doubled []string // the cases whose responses hold a key twice
	root := s.parse(unit{line: 1, text: text}, false, func(_, msg string) diag.Result {
		return replayFault("replay_invalid", msg)
	}, func(key string, object []frontmatter.JSONStep) diag.Result {
		f := replayFault("replay_invalid", fmt.Sprintf("duplicate key %s in %s", strconv.Quote(key), objectName(object)))
		f.CaseID = key // a case id twice
		if len(object) > 0 {
			f.CaseID = object[0].Key
		}
		doubled = append(doubled, f.CaseID)
		return f
	}, each)
	switch {
	case root == nil:
		s.stopped()
	case !isObj(root):
		s.add(replayFault("replay_invalid", fmt.Sprintf("a replay must be an object keyed by case id, got %s", typeName(root))), root.Pos, nil)
	default:
		r.Responses = responses
		s.faults = append(s.faults, responseFaults...)
	}
	// Duplicate keys make their case's response unreliable.
	for _, id := range doubled {
		if resp := r.Responses[id]; resp != nil {
			resp.Bad = true
		}
	}
	if r.Responses == nil {
		return nil, s.reported()
	}
	return r, s.reported()
}

// replayValidator checks the entries of a replay.
type replayValidator struct {
	s  *source
	id string // the case being checked
	n  int    // faults before the case
}

// fault records a fault of the response being checked at pos.
func (rv *replayValidator) fault(p *pth, pos diag.Pos, format string, args ...any) {
	r := replayFault("replay_invalid", strconv.Quote(rv.id)+": "+fmt.Sprintf(format, args...))
	r.CaseID = rv.id
	rv.s.add(r, pos, p)
}

// responseKeys are the fields of a System One response.
var responseKeys = []string{"model", "usage", "answers"}

// response checks one case's response x: {model, usage?, answers}.
func (rv *replayValidator) response(id string, x *node) *Response {
	rv.id, rv.n = id, rv.s.found
	p := pth{key: id}
	resp := &Response{}
	if !isObj(x) {
		rv.fault(&p, x.Pos, "a response must be an object with model and answers, got %s", typeName(x))
		resp.Bad = true
		return resp
	}
	for _, e := range x.Entries {
		if !slices.Contains(responseKeys, e.Key) {
			kp := p.to(e.Key)
			rv.fault(&kp, e.KeyPos, "unknown key %s in a response (allowed: model, usage, answers)", strconv.Quote(e.Key))
		}
	}
	// model: never null, never the string "None" (a null stringified by an
	// old recorder), never empty (defects jevcheck's own audit records).
	mp := p.to("model")
	switch m := x.Get("model"); {
	case m == nil:
		rv.fault(&p, x.Pos, "the response has no model")
	case isNull(m.Value):
		rv.fault(&mp, m.Value.Pos, "model is null: a replay must name the model that answered")
	case !isStr(m.Value):
		rv.fault(&mp, m.Value.Pos, "model must be a string, got %s", show(m.Value))
	case m.Value.Text == "None":
		rv.fault(&mp, m.Value.Pos, `model is the string "None", a null model written by an old recorder`)
	case blank(m.Value.Text):
		rv.fault(&mp, m.Value.Pos, "model must name the model that answered, got %s", strconv.Quote(m.Value.Text))
	default:
		resp.Model, resp.modelPos = m.Value.Text, rv.s.at(m.Value.Pos)
	}
	if u := x.Get("usage"); u != nil && !isNull(u.Value) {
		up := p.to("usage")
		rv.usage(u.Value, &up)
	}
	ap := p.to("answers")
	switch a := x.Get("answers"); {
	case a == nil:
		rv.fault(&p, x.Pos, "the response has no answers")
	case !isObj(a.Value):
		rv.fault(&ap, a.Value.Pos, "answers must be an object keyed by field, got %s", typeName(a.Value))
	default:
		resp.answersPos = rv.s.at(a.KeyPos)
		resp.Answers = make(Answers, 0, len(a.Value.Entries))
		for _, e := range a.Value.Entries {
			np := ap.to(e.Key)
			if ans, ok := rv.answer(e.Key, e.Value, &np); ok {
				ans.pos = rv.s.at(e.Value.Pos)
				resp.Answers = append(resp.Answers, FieldAnswer{Field: e.Key, Answer: ans})
			}
		}
		slices.SortFunc(resp.Answers, func(a, b FieldAnswer) int { return strings.Compare(a.Field, b.Field) })
	}
	resp.Bad = rv.s.found != rv.n
	return resp
}

// usage checks x at p, {input_tokens?, output_tokens?}: counts or null.
func (rv *replayValidator) usage(x *node, p *pth) {
	if !isObj(x) {
		rv.fault(p, x.Pos, "usage must be an object, got %s", typeName(x))
		return
	}
	for _, e := range x.Entries {
		k, v := e.Key, e.Value
		kp := p.to(k)
		if k != "input_tokens" && k != "output_tokens" {
			rv.fault(&kp, e.KeyPos, "unknown key %s in usage (allowed: input_tokens, output_tokens)", strconv.Quote(k))
			continue
		}
		if isNull(v) {
			continue
		}
		n, isNum, finite := toNumber(v)
		if !isNum || !finite || n < 0 || n != math.Trunc(n) {
			rv.fault(&kp, v.Pos, "usage.%s must be a token count, got %s", k, show(v))
		}
	}
}

// answerKeys are the fields of each answer type.
var answerKeys = [...][]string{
	KindChoice: {"type", "choice", "confidence", "probabilities"},
	KindNoul:   {"type", "noul"},
	KindScore:  {"type", "score", "confidence", "legend", "probabilities"},
}

// answer checks one answer x at p: its type (given, or told by which of
// noul, choice and score it holds), and only that type's fields.
func (rv *replayValidator) answer(name string, x *node, p *pth) (Answer, bool) {
	before := rv.s.found
	var a Answer
	if !isObj(x) {
		rv.fault(p, x.Pos, "answer %s must be an object, got %s", strconv.Quote(name), typeName(x))
		return a, false
	}
	if t := x.Get("type"); t != nil {
		if isStr(t.Value) {
			a.Kind = parseKind(t.Value.Text)
		}
		if a.Kind == KindNone {
			tp := p.to("type")
			rv.fault(&tp, t.Value.Pos, "answer type must be noul, choice or score, got %s", show(t.Value))
			return a, false
		}
	} else {
		var kinds []Kind
		for _, k := range []Kind{KindNoul, KindChoice, KindScore} {
			if x.Get(k.String()) != nil {
				kinds = append(kinds, k)
			}
		}
		if len(kinds) != 1 {
			rv.fault(p, x.Pos, "answer %s has no type and holds %s: give type noul, choice or score", strconv.Quote(name), kindsHeld(kinds))
			return a, false
		}
		a.Kind = kinds[0]
	}
	for _, e := range x.Entries {
		if !slices.Contains(answerKeys[a.Kind], e.Key) {
			hint := ""
			if e.Key == "confidence" && a.Kind == KindNoul {
				hint = "; a noul answer has no API confidence: its scalar is noul itself"
			}
			kp := p.to(e.Key)
			rv.fault(&kp, e.KeyPos, "unknown key %s in %s answer (allowed: %s)%s", strconv.Quote(e.Key), article(a.Kind), strings.Join(answerKeys[a.Kind], ", "), hint)
		}
	}
	switch a.Kind {
	case KindChoice:
		a.Choice, _ = rv.str(x, p, "choice")
		a.Confidence, _ = rv.num(x, p, "confidence", true)
		rv.probabilities(x, p)
	case KindNoul:
		a.Noul, _ = rv.num(x, p, "noul", true)
	case KindScore:
		a.Score, _ = rv.num(x, p, "score", false)
		a.Confidence, _ = rv.num(x, p, "confidence", true)
		rv.legend(x, p)
		rv.probabilities(x, p)
	}
	return a, rv.s.found == before
}

func kindsHeld(ks []Kind) string {
	if len(ks) == 0 {
		return "none of noul, choice and score"
	}
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = k.String()
	}
	return strings.Join(s, " and ")
}

// str reads the answer's (obj at p) required string key.
func (rv *replayValidator) str(obj *node, p *pth, key string) (string, bool) {
	e := obj.Get(key)
	if e == nil {
		rv.fault(p, obj.Pos, "the answer has no %s", key)
		return "", false
	}
	if !isStr(e.Value) {
		kp := p.to(key)
		rv.fault(&kp, e.Value.Pos, "%s must be a string, got %s", key, show(e.Value))
		return "", false
	}
	return e.Value.Text, true
}

// num reads the answer's (obj at p) required finite number; unit bounds it
// to [0, 1].
func (rv *replayValidator) num(obj *node, p *pth, key string, unit bool) (float64, bool) {
	e := obj.Get(key)
	if e == nil {
		rv.fault(p, obj.Pos, "the answer has no %s", key)
		return 0, false
	}
	x := e.Value
	n, isNum, finite := toNumber(x)
	if isNum && finite && (!unit || n >= 0 && n <= 1) {
		return n, true
	}
	kp := p.to(key)
	switch {
	case !isNum:
		rv.fault(&kp, x.Pos, "%s must be a number, got %s", key, show(x))
	case !finite:
		rv.fault(&kp, x.Pos, "%s is out of range", key)
	default:
		rv.fault(&kp, x.Pos, "%s must be a number from 0 to 1, got %s", key, fmtNum(n))
	}
	return 0, false
}

// probabilities checks the answer's (obj at ap) probability map: present,
// an object, non-empty, every value a finite number >= 0, summing to 1
// within 1e-6 (never renormalised). JSON keys are strings already: the
// integer keys of the SDK's score maps arrive stringified.
func (rv *replayValidator) probabilities(obj *node, ap *pth) {
	m, p := rv.nonEmptyMap(obj, ap, "probabilities", "the answer has no probabilities (a non-empty map of label to probability)", "label to probability")
	if m == nil {
		return
	}
	var sum, c float64 // Neumaier's compensated sum, in the text's order
	for _, pe := range m.Entries {
		k, v := pe.Key, pe.Value
		n, isNum, finite := toNumber(v)
		if !isNum || !finite || n < 0 {
			kp := p.to(k)
			if !isNum {
				rv.fault(&kp, v.Pos, "probability %s must be a number, got %s", strconv.Quote(k), show(v))
			} else {
				rv.fault(&kp, v.Pos, "probability %s must be a finite number of 0 or more, got %s", strconv.Quote(k), show(v))
			}
			return
		}
		t := sum + n
		if math.Abs(sum) >= math.Abs(n) {
			c += (sum - t) + n
		} else {
			c += (n - t) + sum
		}
		sum = t
	}
	if total := sum + c; math.Abs(total-1) > ProbabilityTolerance {
		rv.fault(&p, m.Pos, "probabilities sum to %s, not 1 (within 1e-6)", strconv.FormatFloat(total, 'g', 10, 64))
	}
}

// legend checks a score answer's (obj at ap) legend: a non-empty map of
// level (its key, a stringified integer in JSON) to description.
func (rv *replayValidator) legend(obj *node, ap *pth) {
	m, p := rv.nonEmptyMap(obj, ap, "legend", "the score answer has no legend", "level to description")
	if m == nil {
		return
	}
	for _, le := range m.Entries {
		if !content(le.Value) {
			kp := p.to(le.Key)
			rv.fault(&kp, le.Value.Pos, "a legend entry must be text, an object or an array, got %s", typeName(le.Value))
		}
	}
}

// nonEmptyMap reads the answer's (obj at ap) key, which must be a non-empty
// object (of what): the object and its path, or nil after the fault
// (missing, a null or absent key, says so).
func (rv *replayValidator) nonEmptyMap(obj *node, ap *pth, key, missing, of string) (*node, pth) {
	e := obj.Get(key)
	if e == nil {
		rv.fault(ap, obj.Pos, "%s", missing)
		return nil, pth{}
	}
	m := e.Value // a null among them: a fault about a value points at the value
	if isObj(m) && len(m.Entries) > 0 {
		return m, ap.to(key)
	}
	fp := ap.to(key) // made here only: its address moves it to the heap
	if !isObj(m) {
		rv.fault(&fp, m.Pos, "%s must be an object of %s, got %s", key, of, typeName(m))
	} else {
		rv.fault(&fp, m.Pos, "%s is empty", key)
	}
	return nil, pth{}
}
