package jev

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/jsonpos"
	"github.com/evalgate/evalgate/internal/shape"
)

// validator checks the decoded units of a contract and fills the contract.
type validator struct {
	s      *source
	c      *Contract
	unit   int    // the unit being checked
	caseID string // the case being checked, for the faults' CaseID
	// fieldKeys holds, for each case (by its index in the JSON cases array,
	// or its unit in JSONL), its expect keys and their offsets in text order.
	fieldKeys [][]fieldKey
}

type fieldKey struct {
	name string
	off  int // in the unit
}

func (v *validator) fault(p *pth, at where, code, format string, args ...any) {
	r := definition(code, fmt.Sprintf(format, args...))
	r.CaseID = v.caseID
	v.s.add(&fault{unit: v.unit, path: p.slice(), at: at, res: r})
}

// scan runs the key scan of a decoded unit: duplicate keys become faults,
// and the keys of expect objects (members at fieldDepth whose parent is an
// expect) are recorded for their case: the unit's index for JSONL, the index
// in the cases array for JSON (byCasesIndex).
func (v *validator) scan(ui int, fieldDepth int, byCasesIndex bool) {
	u := v.s.units[ui]
	k := &keyScan{fieldDepth: fieldDepth, field: func(m *jsonpos.Member) {
		if m.Path[fieldDepth-2] != "expect" || m.KeyOff < 0 {
			return
		}
		ci := ui
		if byCasesIndex {
			n, err := strconv.Atoi(m.Path[1])
			if m.Path[0] != "cases" || err != nil {
				return
			}
			ci = n
		}
		if ci >= len(v.fieldKeys) {
			v.fieldKeys = slices.Grow(v.fieldKeys, ci+1-len(v.fieldKeys))[:ci+1]
		}
		v.fieldKeys[ci] = append(v.fieldKeys[ci], fieldKey{m.Key, m.KeyOff})
	}}
	if err := k.run(u.text); err != nil {
		v.s.add(&fault{unit: ui, at: atLine, res: definition("syntax_error",
			fmt.Sprintf("nested deeper than %d levels", jsonpos.MaxDepth))})
		u.ok = false
		return
	}
	for _, d := range k.dups {
		v.s.add(&fault{unit: ui, at: atOffset, off: d.keyOff, res: definition("duplicate_key",
			fmt.Sprintf("duplicate key %s in %s (the last one would count)", strconv.Quote(d.key), objectName(d.path)))})
	}
}

// keys are the expect keys the key scan found for case i.
func (v *validator) keys(i int) []fieldKey {
	if i < len(v.fieldKeys) {
		return v.fieldKeys[i]
	}
	return nil
}

// objectName names an object by its jsonpos path in messages.
func objectName(p []string) string {
	if len(p) == 0 {
		return "the root object"
	}
	q := make([]string, len(p))
	for i, s := range p {
		q[i] = s
		if _, err := strconv.Atoi(s); err == nil && i > 0 {
			q[i] = "\x00" + s
		}
	}
	return pathString(q)
}

// json validates a JSON contract: one object.
func (v *validator) json() {
	u := v.s.units[0]
	if !u.ok {
		return
	}
	v.scan(0, 4, true)
	if !u.ok {
		return
	}
	root, ok := u.root.(map[string]any)
	if !ok {
		v.fault(nil, atValue, "wrong_type", "a JSON contract must be an object, got %s", typeName(u.root))
		return
	}
	v.meta(root, false)
	cases, ok := v.field(root, nil, "cases", true)
	if !ok {
		return
	}
	cp := pth{key: "cases"}
	items, isList := cases.([]any)
	if !isList {
		v.fault(&cp, atValue, "wrong_type", "cases must be an array of cases, got %s", typeName(cases))
		return
	}
	if len(items) == 0 {
		v.fault(&cp, atValue, "invalid_value", "cases is empty: a contract needs at least one case")
		return
	}
	seen := make(map[string]bool, len(items))
	v.c.Cases = make([]Case, 0, len(items))
	for i, it := range items {
		ip := cp.item(i)
		if c, ok := v.kase(it, &ip, v.keys(i), seen); ok {
			v.c.Cases = append(v.c.Cases, c)
		}
	}
	v.caseID = ""
}

// jsonl validates a JSONL contract: an optional first _meta line, then one
// case a line.
func (v *validator) jsonl() {
	seen := map[string]bool{}
	hasMeta, cases := false, 0
	for ui, u := range v.s.units {
		v.unit, v.caseID = ui, ""
		if !u.ok {
			cases++
			continue
		}
		v.scan(ui, 2, false)
		if !u.ok {
			cases++
			continue
		}
		obj, ok := u.root.(map[string]any)
		if !ok {
			v.fault(nil, atValue, "wrong_type", "each line of a JSONL contract must be an object, got %s", typeName(u.root))
			cases++
			continue
		}
		if m, isMeta := obj["_meta"]; isMeta {
			mp := pth{key: "_meta"}
			if ui > 0 {
				v.fault(&mp, atKey, "invalid_value", "a _meta line must be the first line, before every case")
				continue
			}
			hasMeta = true
			if m != true {
				v.fault(&mp, atValue, "invalid_value", "_meta must be true, got %s", show(m))
			}
			v.meta(obj, true)
			continue
		}
		cases++
		if c, ok := v.kase(obj, nil, v.keys(ui), seen); ok {
			v.c.Cases = append(v.c.Cases, c)
		}
	}
	v.unit, v.caseID = 0, ""
	if !hasMeta {
		// Without _meta: version "0.1", the implicit defaults, and the
		// baseline from the run alone.
		v.baseline(nil, "")
		if v.c.opts.BaselineModel == "" {
			v.s.add(&fault{at: atFirst, res: definition("missing_field",
				"a JSONL contract without a _meta line needs --baseline-model (config: baseline-model)")})
		}
	}
	if cases == 0 {
		v.s.add(&fault{at: atFirst, res: definition("invalid_value", "the contract has no cases: a JSONL contract needs at least one case line")})
	}
}

// contractKeys are the keys of a JSON contract; metaKeys those of a JSONL
// _meta line.
var (
	contractKeys = []string{"version", "name", "baseline_model", "allow_unpinned", "defaults", "cases"}
	metaKeys     = []string{"_meta", "version", "name", "baseline_model", "allow_unpinned", "defaults"}
)

// meta checks the contract's own keys: the JSON object's, or those of a
// JSONL _meta line (where version is optional and defaults to "0.1", and
// baseline_model may come from Options.BaselineModel alone: README "jevcheck v0.1 contracts").
func (v *validator) meta(obj map[string]any, jsonl bool) {
	allowed := contractKeys
	if jsonl {
		allowed = metaKeys
	}
	if !closed(obj, allowed) {
		for k := range obj {
			if !slices.Contains(allowed, k) {
				hint := ""
				if jsonl && k == "cases" {
					hint = "the cases of a JSONL contract are its lines"
				}
				kp := pth{key: k}
				where := "the contract"
				if jsonl {
					where = "the _meta line"
				}
				v.fault(&kp, atKey, "unknown_key", "%s", shape.UnknownKeyOf(k, where, allowed, hint, false))
			}
		}
	}
	v.c.Version = Version
	if ver, ok := v.field(obj, nil, "version", !jsonl); ok {
		s, isStr := ver.(string)
		kp := pth{key: "version"}
		switch {
		case !isStr:
			v.fault(&kp, atValue, "wrong_type", "version must be the string %q, got %s", Version, show(ver))
		case s != Version:
			v.fault(&kp, atValue, "invalid_value", "unsupported contract version %s: evalgate reads %q", strconv.Quote(s), Version)
		}
	}
	if name, ok := v.field(obj, nil, "name", false); ok {
		if s, isStr := name.(string); isStr {
			v.c.Name = s
		} else {
			kp := pth{key: "name"}
			v.fault(&kp, atValue, "wrong_type", "name must be a string, got %s", typeName(name))
		}
	}
	if au, ok := v.field(obj, nil, "allow_unpinned", false); ok {
		if b, isBool := au.(bool); isBool {
			v.c.AllowUnpinned = b
		} else {
			kp := pth{key: "allow_unpinned"}
			v.fault(&kp, atValue, "wrong_type", "allow_unpinned must be true or false, got %s", show(au))
		}
	}
	v.defaults(obj)
	bm, ok := obj["baseline_model"]
	kp := pth{key: "baseline_model"}
	switch {
	case ok:
		s, isStr := bm.(string)
		if !isStr {
			v.fault(&kp, atValue, "wrong_type", "baseline_model must be a string, got %s", show(bm))
			return
		}
		v.baseline(&kp, s)
	case !jsonl:
		v.fault(nil, atValue, "missing_field", "the contract needs baseline_model, the pinned production model")
	default:
		v.baseline(nil, "")
		if v.c.opts.BaselineModel == "" {
			v.fault(nil, atValue, "missing_field", "a JSONL contract without a baseline_model in its _meta line needs --baseline-model (config: baseline-model)")
		}
	}
}

// baseline checks the contract's baseline_model (p is nil when the contract
// has none) and settles the run's baseline.
func (v *validator) baseline(p *pth, model string) {
	v.c.ContractBaselineModel = model
	v.c.BaselineModel = model
	if v.c.opts.BaselineModel != "" {
		v.c.BaselineModel = v.c.opts.BaselineModel
	}
	switch {
	case p == nil:
		// A JSONL contract without one: the caller reports it unless the
		// run names the baseline.
	case blank(model):
		v.fault(p, atValue, "invalid_value", "baseline_model must name the pinned production model, got %s", strconv.Quote(model))
	case Floating(model) && !v.c.optIn():
		v.fault(p, atValue, "invalid_value", "baseline_model %s is a floating alias: pin a version (jev-1.13.0, say) or set allow_unpinned", strconv.Quote(model))
	}
}

// defaultKeys are the keys of defaults.
var defaultKeys = []string{"min_confidence", "confidence_tolerance", "noul_true_threshold", "noul_tolerance", "score_tolerance"}

// defaults checks and reads the defaults object.
func (v *validator) defaults(obj map[string]any) {
	d := Defaults{ScoreTolerance: some(DefaultScoreTolerance), NoulTrueThreshold: DefaultNoulTrueThreshold}
	defer func() { v.c.Defaults = d }()
	raw, ok := v.field(obj, nil, "defaults", false)
	if !ok {
		return
	}
	dp := pth{key: "defaults"}
	m, isObj := raw.(map[string]any)
	if !isObj {
		v.fault(&dp, atValue, "wrong_type", "defaults must be an object, got %s", typeName(raw))
		return
	}
	for k, x := range m {
		p := dp.to(k)
		if !slices.Contains(defaultKeys, k) {
			v.fault(&p, atKey, "unknown_key", "%s", shape.UnknownKeyOf(k, "defaults", defaultKeys, "", false))
			continue
		}
		n, ok := v.number(x, &p, k, k != "score_tolerance")
		if !ok {
			continue
		}
		switch k {
		case "min_confidence":
			d.MinConfidence = some(n)
		case "confidence_tolerance":
			d.ConfidenceTolerance = some(n)
		case "noul_true_threshold":
			d.NoulTrueThreshold = n
		case "noul_tolerance":
			d.NoulTolerance = some(n)
		case "score_tolerance":
			d.ScoreTolerance = some(n)
		}
	}
}

// field returns obj[key]; a missing required key is missing_field at obj.
func (v *validator) field(obj map[string]any, base *pth, key string, required bool) (any, bool) {
	x, ok := obj[key]
	if !ok && required {
		v.fault(base, atValue, "missing_field", "%s needs %s", objectLabel(base), key)
	}
	return x, ok
}

func objectLabel(base *pth) string {
	if base == nil {
		return "the contract"
	}
	return pathString(base.slice())
}

// number reads a number: from 0 to 1 when unit, else any non-negative one
// (the reference tool's ranges: all [0, 1] but score_tolerance >= 0).
func (v *validator) number(x any, p *pth, key string, unit bool) (float64, bool) {
	n, isNum, finite := toNumber(x)
	switch {
	case !isNum:
		v.fault(p, atValue, "wrong_type", "%s must be a number, got %s", key, show(x))
	case !finite:
		v.fault(p, atValue, "invalid_value", "%s is out of range", key)
	case unit && (n < 0 || n > 1):
		v.fault(p, atValue, "invalid_value", "%s must be a number from 0 to 1, got %s", key, fmtNum(n))
	case !unit && n < 0:
		v.fault(p, atValue, "invalid_value", "%s must be 0 or more, got %s", key, fmtNum(n))
	default:
		return n, true
	}
	return 0, false
}

// kase validates one case object at p and returns it; keys are its expect
// keys in text order.
func (v *validator) kase(x any, p *pth, keys []fieldKey, seen map[string]bool) (Case, bool) {
	v.caseID = ""
	obj, ok := x.(map[string]any)
	if !ok {
		v.fault(p, atValue, "wrong_type", "a case must be an object, got %s", typeName(x))
		return Case{}, false
	}
	before := len(v.s.faults)
	if !closed(obj, caseKeys) {
		for k := range obj {
			if !slices.Contains(caseKeys, k) {
				kp := p.to(k)
				v.fault(&kp, atKey, "unknown_key", "%s", shape.UnknownKeyOf(k, "a case", caseKeys, "", false))
			}
		}
	}
	var c Case
	if id, ok := v.field(obj, p, "id", true); ok {
		s, isStr := id.(string)
		ip := p.to("id")
		switch {
		case !isStr:
			v.fault(&ip, atValue, "wrong_type", "id must be a string, got %s", show(id))
		case s == "":
			v.fault(&ip, atValue, "invalid_id", "a case id must not be empty")
		case seen[s]:
			v.fault(&ip, atValue, "duplicate_id", "duplicate case id %s", strconv.Quote(s))
		default:
			seen[s] = true
			c.ID = s
			v.caseID = s
		}
	}
	if st, ok := v.field(obj, p, "state", true); ok && !content(st) {
		sp := p.to("state")
		v.fault(&sp, atValue, "wrong_type", "state must be text, an object or an array, got %s", typeName(st))
	}
	questions := v.questions(obj, p)
	v.expect(obj, p, questions, keys, &c)
	return c, len(v.s.faults) == before
}

// caseKeys are the keys of a case.
var caseKeys = []string{"id", "state", "questions", "expect"}

// question is what validation keeps of a question.
type question struct {
	kind   Kind
	labels map[string]any // a choice question's criteria
}

// questions checks a case's questions and returns them (nil when they are
// not an object).
func (v *validator) questions(obj map[string]any, base *pth) map[string]question {
	raw, ok := v.field(obj, base, "questions", true)
	if !ok {
		return nil
	}
	p := base.to("questions")
	m, isObj := raw.(map[string]any)
	if !isObj {
		v.fault(&p, atValue, "wrong_type", "questions must be an object of named questions, got %s", typeName(raw))
		return nil
	}
	if len(m) == 0 {
		v.fault(&p, atValue, "invalid_value", "questions is empty: a case needs at least one question")
	}
	out := make(map[string]question, len(m))
	for name, q := range m {
		qp := p.to(name)
		out[name] = v.question(q, &qp, name)
	}
	return out
}

// questionKeys are the official fields of every question type (the spec:
// "only those official fields"; spec-origins §3.2: noul {instructions?,
// criteria? {true?, false?}}, choice {instructions?, criteria}, score
// {instructions?, criteria}).
var questionKeys = []string{"type", "instructions", "criteria"}

// question checks one question at p: a type of noul, choice or score and
// only its official fields. Its kind is KindNone when the type is unusable.
func (v *validator) question(x any, p *pth, name string) question {
	obj, ok := x.(map[string]any)
	if !ok {
		v.fault(p, atValue, "wrong_type", "question %s must be an object, got %s", strconv.Quote(name), typeName(x))
		return question{}
	}
	if !closed(obj, questionKeys) {
		for k := range obj {
			if !slices.Contains(questionKeys, k) {
				kp := p.to(k)
				v.fault(&kp, atKey, "unknown_key", "%s", shape.UnknownKeyOf(k, "question "+strconv.Quote(name), questionKeys, "", false))
			}
		}
	}
	var q question
	if t, ok := v.field(obj, p, "type", true); ok {
		s, isStr := t.(string)
		q.kind = parseKind(s)
		if !isStr || q.kind == KindNone {
			tp := p.to("type")
			v.fault(&tp, atValue, "invalid_value", "question type must be noul, choice or score, got %s", show(t))
		}
	}
	if ins, ok := obj["instructions"]; ok && ins != nil && !content(ins) {
		ip := p.to("instructions")
		v.fault(&ip, atValue, "wrong_type", "instructions must be text, an object or an array, got %s", typeName(ins))
	}
	crit, hasCrit := obj["criteria"]
	cp := p.to("criteria")
	switch q.kind {
	case KindNoul:
		// criteria? {true?, false?}: descriptions of yes and no.
		if !hasCrit || crit == nil {
			break
		}
		m, isObj := crit.(map[string]any)
		if !isObj {
			v.fault(&cp, atValue, "wrong_type", "a noul question's criteria must be an object with true and false descriptions, got %s", typeName(crit))
			break
		}
		for k, d := range m {
			kp := cp.to(k)
			if k != "true" && k != "false" {
				v.fault(&kp, atKey, "unknown_key", "%s", shape.UnknownKeyOf(k, "a noul question's criteria", []string{"true", "false"}, "", false))
			} else if d != nil && !content(d) {
				v.fault(&kp, atValue, "wrong_type", "a criterion must be text, an object, an array or null, got %s", typeName(d))
			}
		}
	case KindChoice:
		// criteria: a non-empty mapping of labels to descriptions or null.
		if !hasCrit {
			v.fault(p, atValue, "missing_field", "choice question %s needs criteria (its labels)", strconv.Quote(name))
			break
		}
		m, isObj := crit.(map[string]any)
		if !isObj {
			v.fault(&cp, atValue, "wrong_type", "a choice question's criteria must be an object of labels, got %s", typeName(crit))
			break
		}
		if len(m) == 0 {
			v.fault(&cp, atValue, "invalid_value", "a choice question's criteria must name at least one label")
		}
		for k, d := range m {
			if d != nil && !content(d) {
				kp := cp.to(k)
				v.fault(&kp, atValue, "wrong_type", "a criterion must be text, an object, an array or null, got %s", typeName(d))
			}
		}
		q.labels = m
	case KindScore:
		// criteria: a non-empty ordered list of levels, counted from 0.
		if !hasCrit {
			v.fault(p, atValue, "missing_field", "score question %s needs criteria (its levels)", strconv.Quote(name))
			break
		}
		l, isList := crit.([]any)
		if !isList {
			v.fault(&cp, atValue, "wrong_type", "a score question's criteria must be an array of levels, got %s", typeName(crit))
			break
		}
		if len(l) == 0 {
			v.fault(&cp, atValue, "invalid_value", "a score question's criteria must list at least one level")
		}
		for i, d := range l {
			if !content(d) {
				ip := cp.item(i)
				v.fault(&ip, atValue, "wrong_type", "a level must be text, an object or an array, got %s", typeName(d))
			}
		}
	}
	return q
}

// expectKeys are the keys of a field expectation and the kind each applies
// to (KindNone: every kind; the spec's "Field expectations").
var expectKeys = []struct {
	key  string
	kind Kind
}{
	{"choice", KindChoice},
	{"noul_true", KindNoul},
	{"noul", KindNoul},
	{"min_noul", KindNoul},
	{"noul_tolerance", KindNoul},
	{"score", KindScore},
	{"score_tolerance", KindScore},
	{"min_confidence", KindNone},
	{"baseline_confidence", KindNone},
	{"confidence_tolerance", KindNone},
}

func expectKind(key string) (Kind, bool) {
	for _, k := range expectKeys {
		if k.key == key {
			return k.kind, true
		}
	}
	return KindNone, false
}

// keysFor lists the expect keys that apply to a kind.
func keysFor(kind Kind) string {
	var ks []string
	for _, k := range expectKeys {
		if kind == KindNone || k.kind == kind || k.kind == KindNone {
			ks = append(ks, k.key)
		}
	}
	return strings.Join(ks, ", ")
}

// expect checks a case's expect against its questions and fills c.Fields in
// the order of keys (the expect keys in text order, from the key scan).
func (v *validator) expect(obj map[string]any, base *pth, questions map[string]question, keys []fieldKey, c *Case) {
	raw, ok := v.field(obj, base, "expect", true)
	if !ok {
		return
	}
	p := base.to("expect")
	m, isObj := raw.(map[string]any)
	if !isObj {
		v.fault(&p, atValue, "wrong_type", "expect must be an object of expected fields, got %s", typeName(raw))
		return
	}
	if len(m) == 0 {
		v.fault(&p, atValue, "invalid_value", "expect is empty: a case needs at least one expected field")
		return
	}
	c.Fields = make([]Field, 0, len(m))
	for i, fk := range keys {
		x, ok := m[fk.name]
		if !ok || slices.ContainsFunc(keys[:i], func(k fieldKey) bool { return k.name == fk.name }) {
			continue // a later duplicate, reported by the key scan
		}
		fp := p.to(fk.name)
		q, known := questions[fk.name]
		if !known {
			if questions != nil {
				v.fault(&fp, atKey, "unknown_key", "expect names %s, which is not a question of the case (questions: %s)", strconv.Quote(fk.name), questionList(questions))
			}
			continue
		}
		e, ok := v.fieldExpect(x, &fp, fk.name, q)
		if ok && q.kind != KindNone {
			c.Fields = append(c.Fields, Field{Name: fk.name, Kind: q.kind, Expect: e, keyOff: v.s.units[v.unit].off + fk.off})
		}
	}
}

func questionList(qs map[string]question) string {
	names := make([]string, 0, len(qs))
	for n := range qs {
		names = append(names, strconv.Quote(n))
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// fieldExpect checks one field's expectation at p against its question.
func (v *validator) fieldExpect(x any, p *pth, name string, q question) (Expect, bool) {
	var e Expect
	obj, ok := x.(map[string]any)
	if !ok {
		v.fault(p, atValue, "wrong_type", "expect %s must be an object, got %s", strconv.Quote(name), typeName(x))
		return e, false
	}
	if len(obj) == 0 {
		v.fault(p, atValue, "missing_field", "expect %s is empty: it needs at least one constraint (%s)", strconv.Quote(name), constraintKeys(q.kind))
		return e, false
	}
	before := len(v.s.faults)
	for k, val := range obj {
		kp := p.to(k)
		kind, known := expectKind(k)
		switch {
		case !known:
			v.fault(&kp, atKey, "unknown_key", "%s", shape.UnknownKeyOf(k, "expect "+strconv.Quote(name), strings.Split(keysFor(q.kind), ", "), "", false))
			continue
		case kind != KindNone && q.kind != KindNone && kind != q.kind:
			v.fault(&kp, atKey, "unknown_key", "%s does not apply to %s question (%s takes %s)", k, article(q.kind), strconv.Quote(name), keysFor(q.kind))
			continue
		}
		switch k {
		case "choice":
			s, isStr := val.(string)
			if !isStr {
				v.fault(&kp, atValue, "wrong_type", "choice must be a label (a string), got %s", show(val))
				continue
			}
			if _, isLabel := q.labels[s]; q.labels != nil && !isLabel {
				v.fault(&kp, atValue, "invalid_value", "choice %s is not a label of question %s (labels: %s)", strconv.Quote(s), strconv.Quote(name), labelList(q.labels))
				continue
			}
			e.Choice, e.HasChoice = s, true
		case "noul_true":
			b, isBool := val.(bool)
			if !isBool {
				v.fault(&kp, atValue, "wrong_type", "noul_true must be true or false, got %s", show(val))
				continue
			}
			e.NoulTrue, e.HasNoulTrue = b, true
		case "score":
			n, isNum, finite := toNumber(val)
			switch {
			case !isNum:
				v.fault(&kp, atValue, "wrong_type", "score must be a number, got %s", show(val))
			case !finite:
				v.fault(&kp, atValue, "invalid_value", "score is out of range")
			default:
				e.Score = some(n)
			}
		default:
			n, ok := v.number(val, &kp, k, k != "score_tolerance")
			if !ok {
				continue
			}
			switch k {
			case "noul":
				e.Noul = some(n)
			case "min_noul":
				e.MinNoul = some(n)
			case "noul_tolerance":
				e.NoulTolerance = some(n)
			case "score_tolerance":
				e.ScoreTolerance = some(n)
			case "min_confidence":
				e.MinConfidence = some(n)
			case "baseline_confidence":
				e.BaselineConfidence = some(n)
			case "confidence_tolerance":
				e.ConfidenceTolerance = some(n)
			}
		}
	}
	if len(v.s.faults) != before {
		return e, false
	}
	// At least one effective constraint: the kind's answer key, min_noul,
	// min_confidence, or baseline_confidence with a confidence_tolerance or
	// min_confidence resolved from the field or the defaults (the spec's
	// "Field expectations": no default confidence_tolerance is assumed, and
	// tolerance-only objects are rejected).
	r := e.resolve(v.c.Defaults)
	switch {
	case e.hasKindConstraint() || e.MinConfidence.Set:
	case e.BaselineConfidence.Set && (r.ConfidenceTolerance.Set || r.MinConfidence.Set):
	case e.BaselineConfidence.Set:
		v.fault(p, atValue, "missing_field", "expect %s: baseline_confidence is no constraint without a confidence_tolerance or min_confidence (in the field or in defaults)", strconv.Quote(name))
		return e, false
	default:
		v.fault(p, atValue, "missing_field", "expect %s states no effective constraint: a tolerance alone checks nothing (give %s)", strconv.Quote(name), constraintKeys(q.kind))
		return e, false
	}
	return e, true
}

func constraintKeys(k Kind) string {
	switch k {
	case KindChoice:
		return "choice, min_confidence or baseline_confidence"
	case KindNoul:
		return "noul_true, noul, min_noul, min_confidence or baseline_confidence"
	case KindScore:
		return "score, min_confidence or baseline_confidence"
	}
	return "min_confidence or baseline_confidence"
}

func article(k Kind) string {
	if k == KindNone {
		return "this"
	}
	return "a " + k.String()
}

func labelList(m map[string]any) string {
	ls := make([]string, 0, len(m))
	for l := range m {
		ls = append(ls, strconv.Quote(l))
	}
	slices.Sort(ls)
	return strings.Join(ls, ", ")
}

// content reports whether x is JSON content as System One takes it: text,
// an object or an array (nested values may be anything, null included).
func content(x any) bool {
	switch x.(type) {
	case string, map[string]any, []any:
		return true
	}
	return false
}

// toNumber reads a decoded JSON number; finite is false for one beyond
// float64.
func toNumber(x any) (n float64, isNum, finite bool) {
	switch t := x.(type) {
	case float64:
		return t, true, true
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return 0, true, false
		}
		return f, true, true
	}
	return 0, false, false
}

// typeName names a decoded JSON value's type for messages.
func typeName(x any) string {
	switch x.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64, json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", x)
}

// show writes a decoded value for messages: scalars as JSON text (long
// strings cut), others by their type.
func show(x any) string {
	switch t := x.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(t)
	case float64:
		return fmtNum(t)
	case json.Number:
		return string(t)
	case string:
		if len(t) > 60 {
			t = strings.ToValidUTF8(t[:60], "") + "..."
		}
		return strconv.Quote(t)
	}
	return typeName(x)
}

// fmtNum writes a number as briefly as it reads back.
func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
