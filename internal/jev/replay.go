package jev

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
)

// CheckReplay is the check of every replay fault.
const CheckReplay = "replay"

// Replay is a replay file: the System One responses of one model, keyed by
// case id (the spec's "Replay file").
type Replay struct {
	File      string
	Responses map[string]*Response
	src       *source
}

// Response is one case's recorded response.
type Response struct {
	Model   string
	Answers map[string]Answer
	// Bad marks a response with faults: it is not evaluated.
	Bad bool
}

// Answer is one field's answer, with only the verified System One fields
// evaluation reads (docs/jev-api.md of jevcheck).
type Answer struct {
	Kind       Kind
	Choice     string  // choice: the winning label
	Confidence float64 // choice and score: the API confidence
	Noul       float64 // noul: the probability of yes
	Score      float64 // score: the probability-weighted expected score
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
func LoadReplay(file string, text []byte) (*Replay, []diag.Result) {
	s := &source{file: file, text: text}
	r := &Replay{File: file, src: s}
	s.splitJSON()
	s.decode(false, func(code, msg string) diag.Result {
		return replayFault("replay_invalid", msg)
	})
	u := s.units[0]
	if u.ok {
		k := &keyScan{fieldDepth: -1}
		if err := k.run(u.text); err != nil {
			s.add(&fault{at: atFirst, res: replayFault("replay_invalid", "invalid JSON: nested too deeply")})
			u.ok = false
		}
		for _, d := range k.dups {
			f := &fault{at: atOffset, off: d.keyOff, res: replayFault("replay_invalid",
				fmt.Sprintf("duplicate key %s in %s", strconv.Quote(d.key), objectName(d.path)))}
			f.res.CaseID = d.key // a case id twice
			if len(d.path) > 0 {
				f.res.CaseID = d.path[0]
			}
			s.add(f)
		}
	}
	if u.ok {
		root, isObj := u.root.(map[string]any)
		if !isObj {
			s.add(&fault{at: atValue, res: replayFault("replay_invalid",
				fmt.Sprintf("a replay must be an object keyed by case id, got %s", typeName(u.root)))})
		} else {
			r.Responses = make(map[string]*Response, len(root))
			rv := &replayValidator{s: s}
			for id, x := range root {
				r.Responses[id] = rv.response(id, x)
			}
		}
	}
	// Duplicate keys make their case's response unreliable.
	for _, f := range s.faults {
		if resp := r.Responses[f.res.CaseID]; resp != nil {
			resp.Bad = true
		}
	}
	rs := s.resolve()
	diag.Sort(rs)
	s.release()
	if r.Responses == nil {
		return nil, rs
	}
	return r, rs
}

// replayValidator checks the entries of a replay.
type replayValidator struct {
	s  *source
	id string // the case being checked
	n  int    // faults before the case
}

func (rv *replayValidator) fault(p *pth, at where, format string, args ...any) {
	r := replayFault("replay_invalid", strconv.Quote(rv.id)+": "+fmt.Sprintf(format, args...))
	r.CaseID = rv.id
	rv.s.add(&fault{path: p.slice(), at: at, res: r})
}

// responseKeys are the fields of a System One response.
var responseKeys = []string{"model", "usage", "answers"}

// response checks one case's response: {model, usage?, answers}.
func (rv *replayValidator) response(id string, x any) *Response {
	rv.id, rv.n = id, len(rv.s.faults)
	p := pth{key: id}
	resp := &Response{}
	obj, ok := x.(map[string]any)
	if !ok {
		rv.fault(&p, atValue, "a response must be an object with model and answers, got %s", typeName(x))
		resp.Bad = true
		return resp
	}
	if !closed(obj, responseKeys) {
		for k := range obj {
			if !slices.Contains(responseKeys, k) {
				kp := p.to(k)
				rv.fault(&kp, atKey, "unknown key %s in a response (allowed: model, usage, answers)", strconv.Quote(k))
			}
		}
	}
	// model: never null, never the string "None" (a null stringified by an
	// old recorder), never empty (spec-origins §3.6).
	m, hasModel := obj["model"]
	s, isStr := m.(string)
	mp := p.to("model")
	switch {
	case !hasModel:
		rv.fault(&p, atValue, "the response has no model")
	case m == nil:
		rv.fault(&mp, atValue, "model is null: a replay must name the model that answered")
	case !isStr:
		rv.fault(&mp, atValue, "model must be a string, got %s", show(m))
	case s == "None":
		rv.fault(&mp, atValue, `model is the string "None", a null model written by an old recorder`)
	case blank(s):
		rv.fault(&mp, atValue, "model must name the model that answered, got %s", strconv.Quote(s))
	default:
		resp.Model = s
	}
	if u, ok := obj["usage"]; ok && u != nil {
		up := p.to("usage")
		rv.usage(u, &up)
	}
	a, hasAnswers := obj["answers"]
	ap := p.to("answers")
	switch am, isObj := a.(map[string]any); {
	case !hasAnswers:
		rv.fault(&p, atValue, "the response has no answers")
	case !isObj:
		rv.fault(&ap, atValue, "answers must be an object keyed by field, got %s", typeName(a))
	default:
		resp.Answers = make(map[string]Answer, len(am))
		for name, x := range am {
			np := ap.to(name)
			if ans, ok := rv.answer(name, x, &np); ok {
				resp.Answers[name] = ans
			}
		}
	}
	resp.Bad = len(rv.s.faults) != rv.n
	return resp
}

// usage checks {input_tokens?, output_tokens?}: counts or null.
func (rv *replayValidator) usage(x any, p *pth) {
	m, ok := x.(map[string]any)
	if !ok {
		rv.fault(p, atValue, "usage must be an object, got %s", typeName(x))
		return
	}
	for k, v := range m {
		kp := p.to(k)
		if k != "input_tokens" && k != "output_tokens" {
			rv.fault(&kp, atKey, "unknown key %s in usage (allowed: input_tokens, output_tokens)", strconv.Quote(k))
			continue
		}
		if v == nil {
			continue
		}
		n, isNum, finite := toNumber(v)
		if !isNum || !finite || n < 0 || n != math.Trunc(n) {
			rv.fault(&kp, atValue, "usage.%s must be a token count, got %s", k, show(v))
		}
	}
}

// answerKeys are the fields of each answer type.
var answerKeys = [...][]string{
	KindChoice: {"type", "choice", "confidence", "probabilities"},
	KindNoul:   {"type", "noul"},
	KindScore:  {"type", "score", "confidence", "legend", "probabilities"},
}

// answer checks one answer at p: its type (given, or told by which of noul,
// choice and score it holds), and only that type's fields.
func (rv *replayValidator) answer(name string, x any, p *pth) (Answer, bool) {
	before := len(rv.s.faults)
	var a Answer
	obj, ok := x.(map[string]any)
	if !ok {
		rv.fault(p, atValue, "answer %s must be an object, got %s", strconv.Quote(name), typeName(x))
		return a, false
	}
	if t, ok := obj["type"]; ok {
		s, _ := t.(string)
		a.Kind = parseKind(s)
		if a.Kind == KindNone {
			tp := p.to("type")
			rv.fault(&tp, atValue, "answer type must be noul, choice or score, got %s", show(t))
			return a, false
		}
	} else {
		var kinds []Kind
		for _, k := range []Kind{KindNoul, KindChoice, KindScore} {
			if _, ok := obj[k.String()]; ok {
				kinds = append(kinds, k)
			}
		}
		if len(kinds) != 1 {
			rv.fault(p, atValue, "answer %s has no type and holds %s: give type noul, choice or score", strconv.Quote(name), kindsHeld(kinds))
			return a, false
		}
		a.Kind = kinds[0]
	}
	if !closed(obj, answerKeys[a.Kind]) {
		for k := range obj {
			if !slices.Contains(answerKeys[a.Kind], k) {
				hint := ""
				if k == "confidence" && a.Kind == KindNoul {
					hint = "; a noul answer has no API confidence: its scalar is noul itself"
				}
				kp := p.to(k)
				rv.fault(&kp, atKey, "unknown key %s in %s answer (allowed: %s)%s", strconv.Quote(k), article(a.Kind), strings.Join(answerKeys[a.Kind], ", "), hint)
			}
		}
	}
	switch a.Kind {
	case KindChoice:
		a.Choice, _ = rv.str(obj, p, "choice")
		a.Confidence, _ = rv.num(obj, p, "confidence", true)
		rv.probabilities(obj, p)
	case KindNoul:
		a.Noul, _ = rv.num(obj, p, "noul", true)
	case KindScore:
		a.Score, _ = rv.num(obj, p, "score", false)
		a.Confidence, _ = rv.num(obj, p, "confidence", true)
		rv.legend(obj, p)
		rv.probabilities(obj, p)
	}
	return a, len(rv.s.faults) == before
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

// str reads the answer's (at p) required string key.
func (rv *replayValidator) str(obj map[string]any, p *pth, key string) (string, bool) {
	x, ok := obj[key]
	if !ok {
		rv.fault(p, atValue, "the answer has no %s", key)
		return "", false
	}
	s, isStr := x.(string)
	if !isStr {
		kp := p.to(key)
		rv.fault(&kp, atValue, "%s must be a string, got %s", key, show(x))
		return "", false
	}
	return s, true
}

// num reads the answer's (at p) required finite number; unit bounds it to
// [0, 1].
func (rv *replayValidator) num(obj map[string]any, p *pth, key string, unit bool) (float64, bool) {
	x, ok := obj[key]
	if !ok {
		rv.fault(p, atValue, "the answer has no %s", key)
		return 0, false
	}
	n, isNum, finite := toNumber(x)
	if isNum && finite && (!unit || n >= 0 && n <= 1) {
		return n, true
	}
	kp := p.to(key)
	switch {
	case !isNum:
		rv.fault(&kp, atValue, "%s must be a number, got %s", key, show(x))
	case !finite:
		rv.fault(&kp, atValue, "%s is out of range", key)
	default:
		rv.fault(&kp, atValue, "%s must be a number from 0 to 1, got %s", key, fmtNum(n))
	}
	return 0, false
}

// probabilities checks the answer's (at ap) probability map: present, an
// object, non-empty, every value a finite number >= 0, summing to 1 within
// 1e-6 (never renormalised). JSON keys are strings already: the integer keys
// of the SDK's score maps arrive stringified.
func (rv *replayValidator) probabilities(obj map[string]any, ap *pth) {
	x, ok := obj["probabilities"]
	if !ok || x == nil {
		rv.fault(ap, atValue, "the answer has no probabilities (a non-empty map of label to probability)")
		return
	}
	p := ap.to("probabilities")
	m, isObj := x.(map[string]any)
	if !isObj {
		rv.fault(&p, atValue, "probabilities must be an object of label to probability, got %s", typeName(x))
		return
	}
	if len(m) == 0 {
		rv.fault(&p, atValue, "probabilities is empty")
		return
	}
	var sum, c float64 // Neumaier's compensated sum
	for k, v := range m {
		n, isNum, finite := toNumber(v)
		if !isNum || !finite || n < 0 {
			kp := p.to(k)
			if !isNum {
				rv.fault(&kp, atValue, "probability %s must be a number, got %s", strconv.Quote(k), show(v))
			} else {
				rv.fault(&kp, atValue, "probability %s must be a finite number of 0 or more, got %s", strconv.Quote(k), show(v))
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
		rv.fault(&p, atValue, "probabilities sum to %s, not 1 (within 1e-6)", strconv.FormatFloat(total, 'g', 10, 64))
	}
}

// legend checks a score answer's (at ap) legend: a non-empty map of level
// (its key, a stringified integer in JSON) to description.
func (rv *replayValidator) legend(obj map[string]any, ap *pth) {
	x, ok := obj["legend"]
	if !ok || x == nil {
		rv.fault(ap, atValue, "the score answer has no legend")
		return
	}
	p := ap.to("legend")
	m, isObj := x.(map[string]any)
	if !isObj {
		rv.fault(&p, atValue, "legend must be an object of level to description, got %s", typeName(x))
		return
	}
	if len(m) == 0 {
		rv.fault(&p, atValue, "legend is empty")
		return
	}
	for k, v := range m {
		if !content(v) {
			kp := p.to(k)
			rv.fault(&kp, atValue, "a legend entry must be text, an object or an array, got %s", typeName(v))
		}
	}
}
