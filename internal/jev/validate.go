package jev

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/shape"
)

// validator checks the parsed units of a contract and fills the contract.
type validator struct {
	s      *source
	c      *Contract
	caseID string      // the case being checked, for the faults' CaseID
	qs     questionSet // the questions of the case being checked, reused
	// waiting are the fields whose expectation is a constraint only if the defaults make it one; a
	// JSON contract's defaults may follow its cases, so they wait for the defaults (settle).
	waiting []waitingField
}

// waitingField is a field expecting baseline_confidence, with neither confidence_tolerance nor
// min_confidence of its own.
type waitingField struct {
	caseID, key, name string // key: the field's path, for the fault's Key
	pos               diag.Pos
}

// settle faults the waiting fields, once the defaults are known: each is a constraint if the defaults
// give a confidence_tolerance or a min_confidence, and no constraint otherwise.
func (v *validator) settle() {
	if d := v.c.Defaults; d.ConfidenceTolerance.Set || d.MinConfidence.Set {
		v.waiting = nil
		return
	}
	for _, w := range v.waiting {
		r := definition("missing_field", fmt.Sprintf("expect %s: baseline_confidence is no constraint without a confidence_tolerance or min_confidence (in the field or in defaults)", strconv.Quote(w.name)))
		r.CaseID, r.Key = w.caseID, w.key
		v.s.add(r, w.pos, nil)
	}
	v.waiting = nil
}

// fault records a contract fault at pos, a position of the unit being
// checked: a value's, or for a fault of a key its entry's KeyPos.
func (v *validator) fault(p *pth, pos diag.Pos, code, format string, args ...any) {
	r := definition(code, fmt.Sprintf(format, args...))
	r.CaseID = v.caseID
	v.s.add(r, pos, p)
}

// dup is the fault of a duplicate key that ParseJSON found.
func (v *validator) dup(key string, object []frontmatter.JSONStep) diag.Result {
	return definition("duplicate_key", fmt.Sprintf("duplicate key %s in %s (the last one would count)", strconv.Quote(key), objectName(object)))
}

// json validates a JSON contract: one object. Each case is checked as soon as it is parsed, and its
// nodes are then reused for the next (frontmatter.JSONOptions.Each): only the cases are kept, so a
// contract of any size is read in little memory. The contract's own keys are checked after its cases
// (the faults are sorted), and a case's check that needs the defaults waits for them (settle).
func (v *validator) json(text []byte) {
	seen := map[string]bool{}
	streamed := 0
	var caseFaults []diag.Result // dropped if the parse stops: a text that is not JSON has only that fault
	cases := pth{key: "cases"}
	each := frontmatter.JSONOptions{EachDepth: 2, Each: func(path []frontmatter.JSONStep, x *node) bool {
		if path[0].Index >= 0 || path[0].Key != "cases" || path[1].Index < 0 {
			return false
		}
		n := len(v.s.faults)
		ip := cases.item(path[1].Index)
		if c, ok := v.kase(x, &ip, seen); ok {
			v.c.Cases = append(v.c.Cases, c)
		}
		caseFaults = append(caseFaults, v.s.faults[n:]...)
		v.s.faults = v.s.faults[:n]
		streamed++
		return true
	}}
	root := v.s.parse(unit{line: 1, text: text}, false, definition, v.dup, each)
	v.caseID = ""
	if root == nil {
		v.s.stopped()
		return
	}
	if !isObj(root) {
		v.fault(nil, root.Pos, "wrong_type", "a JSON contract must be an object, got %s", typeName(root))
		return
	}
	v.meta(root, false)
	if streamed == 0 { // no case was read: cases is missing, not an array, or empty
		v.collection(root, nil, "cases", true, "cases", "a contract needs at least one case")
	}
	v.s.faults = append(v.s.faults, caseFaults...)
	v.settle()
}

// jsonl validates a JSONL contract: an optional first _meta line, then one
// case a line. Each line is parsed, validated and dropped before the next:
// only the cases are kept.
func (v *validator) jsonl(text []byte) {
	seen := map[string]bool{}
	hasMeta, cases := false, 0
	eachLine(text, func(ui int, u unit) {
		v.caseID = ""
		root := v.s.parse(u, true, definition, v.dup, frontmatter.JSONOptions{})
		if root == nil {
			cases++
			return
		}
		if !isObj(root) {
			v.fault(nil, root.Pos, "wrong_type", "each line of a JSONL contract must be an object, got %s", typeName(root))
			cases++
			return
		}
		if m := root.Get("_meta"); m != nil {
			mp := pth{key: "_meta"}
			if ui > 0 {
				v.fault(&mp, m.KeyPos, "invalid_value", "a _meta line must be the first line, before every case")
				return
			}
			hasMeta = true
			if m.Value.Kind != frontmatter.Bool || !m.Value.Bool {
				v.fault(&mp, m.Value.Pos, "invalid_value", "_meta must be true, got %s", show(m.Value))
			}
			v.meta(root, true)
			return
		}
		cases++
		if c, ok := v.kase(root, nil, seen); ok {
			v.c.Cases = append(v.c.Cases, c)
		}
	})
	v.caseID = ""
	v.settle()
	line1 := diag.Pos{Line: 1}
	if !hasMeta {
		// Without _meta: version "0.1", the implicit defaults, and the
		// baseline from the run alone.
		v.baseline(nil, diag.Pos{}, "")
		if v.c.opts.BaselineModel == "" {
			v.s.add(definition("missing_field", "a JSONL contract without a _meta line needs --baseline-model (config: baseline-model)"), line1, nil)
		}
	}
	if cases == 0 {
		v.s.add(definition("invalid_value", "the contract has no cases: a JSONL contract needs at least one case line"), line1, nil)
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
func (v *validator) meta(obj *node, jsonl bool) {
	allowed, where := contractKeys, "the contract"
	if jsonl {
		allowed, where = metaKeys, "the _meta line"
	}
	for _, e := range obj.Entries {
		if !slices.Contains(allowed, e.Key) {
			hint := ""
			if jsonl && e.Key == "cases" {
				hint = "the cases of a JSONL contract are its lines"
			}
			kp := pth{key: e.Key}
			v.fault(&kp, e.KeyPos, "unknown_key", "%s", shape.UnknownKeyOf(e.Key, where, allowed, hint, false))
		}
	}
	v.c.Version = Version
	if e := v.field(obj, nil, "version", !jsonl); e != nil {
		ver := e.Value
		kp := pth{key: "version"}
		switch {
		case !isStr(ver):
			v.fault(&kp, ver.Pos, "wrong_type", "version must be the string %q, got %s", Version, show(ver))
		case ver.Text != Version:
			v.fault(&kp, ver.Pos, "invalid_value", "unsupported contract version %s: evalgate reads %q", strconv.Quote(ver.Text), Version)
		}
	}
	if e := v.field(obj, nil, "name", false); e != nil {
		if isStr(e.Value) {
			v.c.Name = e.Value.Text
		} else {
			kp := pth{key: "name"}
			v.fault(&kp, e.Value.Pos, "wrong_type", "name must be a string, got %s", typeName(e.Value))
		}
	}
	if e := v.field(obj, nil, "allow_unpinned", false); e != nil {
		if e.Value.Kind == frontmatter.Bool {
			v.c.AllowUnpinned = e.Value.Bool
		} else {
			kp := pth{key: "allow_unpinned"}
			v.fault(&kp, e.Value.Pos, "wrong_type", "allow_unpinned must be true or false, got %s", show(e.Value))
		}
	}
	v.defaults(obj)
	kp := pth{key: "baseline_model"}
	switch bm := obj.Get("baseline_model"); {
	case bm != nil:
		if !isStr(bm.Value) {
			v.fault(&kp, bm.Value.Pos, "wrong_type", "baseline_model must be a string, got %s", show(bm.Value))
			return
		}
		v.baseline(&kp, bm.Value.Pos, bm.Value.Text)
	case !jsonl:
		v.fault(nil, obj.Pos, "missing_field", "the contract needs baseline_model, the pinned production model")
	default:
		v.baseline(nil, diag.Pos{}, "")
		if v.c.opts.BaselineModel == "" {
			v.fault(nil, obj.Pos, "missing_field", "a JSONL contract without a baseline_model in its _meta line needs --baseline-model (config: baseline-model)")
		}
	}
}

// baseline checks the contract's baseline_model at pos (p is nil when the
// contract has none) and settles the run's baseline.
func (v *validator) baseline(p *pth, pos diag.Pos, model string) {
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
		v.fault(p, pos, "invalid_value", "baseline_model must name the pinned production model, got %s", strconv.Quote(model))
	case Floating(model) && !v.c.optIn():
		v.fault(p, pos, "invalid_value", "baseline_model %s is a floating alias: pin a version (jev-1.13.0, say) or set allow_unpinned", strconv.Quote(model))
	}
}

// defaultKeys are the keys of defaults.
var defaultKeys = []string{"min_confidence", "confidence_tolerance", "noul_true_threshold", "noul_tolerance", "score_tolerance"}

// defaults checks and reads the defaults object.
func (v *validator) defaults(obj *node) {
	d := Defaults{Tolerances: Tolerances{ScoreTolerance: some(DefaultScoreTolerance)}, NoulTrueThreshold: DefaultNoulTrueThreshold}
	defer func() { v.c.Defaults = d }()
	e := v.field(obj, nil, "defaults", false)
	if e == nil {
		return
	}
	dp := pth{key: "defaults"}
	if !isObj(e.Value) {
		v.fault(&dp, e.Value.Pos, "wrong_type", "defaults must be an object, got %s", typeName(e.Value))
		return
	}
	for _, m := range e.Value.Entries {
		k := m.Key
		p := dp.to(k)
		if !slices.Contains(defaultKeys, k) {
			v.fault(&p, m.KeyPos, "unknown_key", "%s", shape.UnknownKeyOf(k, "defaults", defaultKeys, "", false))
			continue
		}
		n, ok := v.number(m.Value, &p, k, k != "score_tolerance")
		if !ok {
			continue
		}
		if !d.Tolerances.set(k, n) {
			d.NoulTrueThreshold = n // the one other key of defaultKeys
		}
	}
}

// field returns obj's entry for key; a missing required key is
// missing_field at obj (whose path is base).
func (v *validator) field(obj *node, base *pth, key string, required bool) *frontmatter.Entry {
	e := obj.Get(key)
	if e == nil && required {
		v.fault(base, obj.Pos, "missing_field", "%s needs %s", objectLabel(base), key)
	}
	return e
}

// collection reads obj's required key: a non-empty array (list) or object
// of what its entries are (of), which is what needs one says. It returns
// the value and its path, or nil after the fault of a missing key or the
// wrong type; an empty one is faulted and returned.
func (v *validator) collection(obj *node, base *pth, key string, list bool, of, needs string) (*node, pth) {
	// A fault's path is made where it is reported: taking the address of
	// the returned one would move it to the heap on every call.
	e := v.field(obj, base, key, true)
	if e == nil {
		return nil, pth{}
	}
	m, kind := e.Value, "an object"
	if list {
		kind = "an array"
	}
	if list && !isList(m) || !list && !isObj(m) {
		fp := base.to(key)
		v.fault(&fp, m.Pos, "wrong_type", "%s must be %s of %s, got %s", key, kind, of, typeName(m))
		return nil, pth{}
	}
	if len(m.Items) == 0 && len(m.Entries) == 0 {
		fp := base.to(key)
		v.fault(&fp, m.Pos, "invalid_value", "%s is empty: %s", key, needs)
	}
	return m, base.to(key)
}

func objectLabel(base *pth) string {
	if base == nil {
		return "the contract"
	}
	return base.String()
}

// number reads the number x at p: from 0 to 1 when unit, else any
// non-negative one (the reference tool's ranges: all [0, 1] but
// score_tolerance >= 0).
func (v *validator) number(x *node, p *pth, key string, unit bool) (float64, bool) {
	n, isNum, finite := toNumber(x)
	switch {
	case !isNum:
		v.fault(p, x.Pos, "wrong_type", "%s must be a number, got %s", key, show(x))
	case !finite:
		v.fault(p, x.Pos, "invalid_value", "%s is out of range", key)
	case unit && (n < 0 || n > 1):
		v.fault(p, x.Pos, "invalid_value", "%s must be a number from 0 to 1, got %s", key, fmtNum(n))
	case !unit && n < 0:
		v.fault(p, x.Pos, "invalid_value", "%s must be 0 or more, got %s", key, fmtNum(n))
	default:
		return n, true
	}
	return 0, false
}

// kase validates one case object x at p and returns it.
func (v *validator) kase(x *node, p *pth, seen map[string]bool) (Case, bool) {
	v.caseID = ""
	if !isObj(x) {
		v.fault(p, x.Pos, "wrong_type", "a case must be an object, got %s", typeName(x))
		return Case{}, false
	}
	before := v.s.found
	for _, e := range x.Entries {
		if !slices.Contains(caseKeys, e.Key) {
			kp := p.to(e.Key)
			v.fault(&kp, e.KeyPos, "unknown_key", "%s", shape.UnknownKeyOf(e.Key, "a case", caseKeys, "", false))
		}
	}
	var c Case
	if e := v.field(x, p, "id", true); e != nil {
		id := e.Value
		ip := p.to("id")
		switch {
		case !isStr(id):
			v.fault(&ip, id.Pos, "wrong_type", "id must be a string, got %s", show(id))
		case id.Text == "":
			v.fault(&ip, id.Pos, "invalid_id", "a case id must not be empty")
		case seen[id.Text]:
			v.fault(&ip, id.Pos, "duplicate_id", "duplicate case id %s", strconv.Quote(id.Text))
		default:
			seen[id.Text] = true
			c.ID = id.Text
			v.caseID = id.Text
		}
	}
	if e := v.field(x, p, "state", true); e != nil && !content(e.Value) {
		sp := p.to("state")
		v.fault(&sp, e.Value.Pos, "wrong_type", "state must be text, an object or an array, got %s", typeName(e.Value))
	}
	questions := v.questions(x, p)
	v.expect(x, p, questions, &c)
	v.qs.reset() // drop the case's nodes
	return c, v.s.found == before
}

// caseKeys are the keys of a case.
var caseKeys = []string{"id", "state", "questions", "expect"}

// question is what validation keeps of a question.
type question struct {
	name   string
	kind   Kind
	labels *node // a choice question's criteria: an object whose keys are the labels
}

// questionSet holds a case's questions by name: most cases have a few, found
// by a linear search; an index is built over many. The validator reuses one
// for every case.
type questionSet struct {
	list  []question
	index map[string]int // when list is longer than smallSet
}

// smallSet is the number of questions up to which a linear search finds one.
const smallSet = 16

func (qs *questionSet) reset() {
	clear(qs.list) // no node outlives its case
	qs.list = qs.list[:0]
	if qs.index != nil {
		clear(qs.index)
	}
}

func (qs *questionSet) add(q question) {
	qs.list = append(qs.list, q)
	switch n := len(qs.list); {
	case n > smallSet+1:
		qs.index[q.name] = n - 1
	case n == smallSet+1:
		if qs.index == nil {
			qs.index = make(map[string]int, 2*n)
		}
		for i, q := range qs.list {
			qs.index[q.name] = i
		}
	}
}

// get finds a question; the keys of questions are unique (ParseJSON keeps
// the first of a duplicate).
func (qs *questionSet) get(name string) (question, bool) {
	if len(qs.list) > smallSet {
		i, ok := qs.index[name]
		if !ok {
			return question{}, false
		}
		return qs.list[i], true
	}
	for _, q := range qs.list {
		if q.name == name {
			return q, true
		}
	}
	return question{}, false
}

// questions checks a case's questions and returns them (nil when they are
// not an object), valid until the next case.
func (v *validator) questions(obj *node, base *pth) *questionSet {
	m, p := v.collection(obj, base, "questions", false, "named questions", "a case needs at least one question")
	if m == nil {
		return nil
	}
	v.qs.reset()
	for _, q := range m.Entries {
		qp := p.to(q.Key)
		v.qs.add(v.question(q.Value, &qp, q.Key))
	}
	return &v.qs
}

// questionKeys are the official fields of every question type (the spec:
// "only those official fields"; jevcheck's questions.py: noul {instructions?,
// criteria? {true?, false?}}, choice {instructions?, criteria}, score
// {instructions?, criteria}).
var questionKeys = []string{"type", "instructions", "criteria"}

// question checks one question x at p: a type of noul, choice or score and
// only its official fields. Its kind is KindNone when the type is unusable.
func (v *validator) question(x *node, p *pth, name string) question {
	if !isObj(x) {
		v.fault(p, x.Pos, "wrong_type", "question %s must be an object, got %s", strconv.Quote(name), typeName(x))
		return question{name: name}
	}
	for _, e := range x.Entries {
		if !slices.Contains(questionKeys, e.Key) {
			kp := p.to(e.Key)
			v.fault(&kp, e.KeyPos, "unknown_key", "%s", shape.UnknownKeyOf(e.Key, "question "+strconv.Quote(name), questionKeys, "", false))
		}
	}
	q := question{name: name}
	if e := v.field(x, p, "type", true); e != nil {
		t := e.Value
		if isStr(t) {
			q.kind = parseKind(t.Text)
		}
		if q.kind == KindNone {
			tp := p.to("type")
			v.fault(&tp, t.Pos, "invalid_value", "question type must be noul, choice or score, got %s", show(t))
		}
	}
	if ins := x.Get("instructions"); ins != nil && !isNull(ins.Value) && !content(ins.Value) {
		ip := p.to("instructions")
		v.fault(&ip, ins.Value.Pos, "wrong_type", "instructions must be text, an object or an array, got %s", typeName(ins.Value))
	}
	ce := x.Get("criteria")
	var crit *node
	if ce != nil {
		crit = ce.Value
	}
	cp := p.to("criteria")
	switch q.kind {
	case KindNoul:
		// criteria? {true?, false?}: descriptions of yes and no.
		if crit == nil || isNull(crit) {
			break
		}
		if !isObj(crit) {
			v.fault(&cp, crit.Pos, "wrong_type", "a noul question's criteria must be an object with true and false descriptions, got %s", typeName(crit))
			break
		}
		for _, e := range crit.Entries {
			kp := cp.to(e.Key)
			if e.Key != "true" && e.Key != "false" {
				v.fault(&kp, e.KeyPos, "unknown_key", "%s", shape.UnknownKeyOf(e.Key, "a noul question's criteria", []string{"true", "false"}, "", false))
			} else if !isNull(e.Value) && !content(e.Value) {
				v.fault(&kp, e.Value.Pos, "wrong_type", "a criterion must be text, an object, an array or null, got %s", typeName(e.Value))
			}
		}
	case KindChoice, KindScore:
		// criteria: a choice's non-empty mapping of labels to descriptions
		// or null, a score's non-empty ordered list of levels, counted from 0.
		cs := criteriaShapes[q.kind]
		if crit == nil {
			v.fault(p, x.Pos, "missing_field", "%s question %s needs criteria (%s)", q.kind, strconv.Quote(name), cs.needs)
			break
		}
		if cs.list && !isList(crit) || !cs.list && !isObj(crit) {
			v.fault(&cp, crit.Pos, "wrong_type", "a %s question's criteria must be %s, got %s", q.kind, cs.is, typeName(crit))
			break
		}
		if len(crit.Items) == 0 && len(crit.Entries) == 0 {
			v.fault(&cp, crit.Pos, "invalid_value", "a %s question's criteria must %s", q.kind, cs.atLeast)
		}
		bad := func(d *node) bool { return !(cs.nullable && isNull(d)) && !content(d) }
		for i, d := range crit.Items {
			if bad(d) {
				ip := cp.item(i)
				v.fault(&ip, d.Pos, "wrong_type", "%s, got %s", cs.item, typeName(d))
			}
		}
		for _, e := range crit.Entries {
			if bad(e.Value) {
				kp := cp.to(e.Key)
				v.fault(&kp, e.Value.Pos, "wrong_type", "%s, got %s", cs.item, typeName(e.Value))
			}
		}
		if q.kind == KindChoice {
			q.labels = crit
		}
	}
	return q
}

// criteriaShapes are what the criteria of a choice and of a score question
// must be, in the words of their faults.
var criteriaShapes = map[Kind]struct {
	list, nullable           bool // an array (else an object); an entry may be null
	needs, is, atLeast, item string
}{
	KindChoice: {false, true, "its labels", "an object of labels", "name at least one label", "a criterion must be text, an object, an array or null"},
	KindScore:  {true, false, "its levels", "an array of levels", "list at least one level", "a level must be text, an object or an array"},
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
// the order of its keys in the text (the order of the Node's entries).
func (v *validator) expect(obj *node, base *pth, questions *questionSet, c *Case) {
	m, p := v.collection(obj, base, "expect", false, "expected fields", "a case needs at least one expected field")
	if m == nil || len(m.Entries) == 0 {
		return
	}
	if questions == nil {
		return // the questions' fault is reported; the fields cannot be checked
	}
	c.Fields = make([]Field, 0, len(m.Entries))
	for i := range m.Entries {
		fe := &m.Entries[i]
		fp := p.to(fe.Key)
		q, known := questions.get(fe.Key)
		if !known {
			v.fault(&fp, fe.KeyPos, "unknown_key", "expect names %s, which is not a question of the case (questions: %s)", strconv.Quote(fe.Key), quotedList(questions.list, func(q question) string { return q.name }))
			continue
		}
		ex, ok := v.fieldExpect(fe.Value, &fp, fe.Key, q)
		if ok && q.kind != KindNone {
			c.Fields = append(c.Fields, Field{Name: fe.Key, Kind: q.kind, Expect: ex, keyPos: v.s.at(fe.KeyPos)})
		}
	}
}

// quotedList is the names of items, each quoted, sorted and joined with ", ": what a message lists
// as the choices there were.
func quotedList[T any](items []T, name func(T) string) string {
	names := make([]string, 0, len(items))
	for _, it := range items {
		names = append(names, strconv.Quote(name(it)))
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// fieldExpect checks one field's expectation x at p against its question.
func (v *validator) fieldExpect(x *node, p *pth, name string, q question) (Expect, bool) {
	var e Expect
	if !isObj(x) {
		v.fault(p, x.Pos, "wrong_type", "expect %s must be an object, got %s", strconv.Quote(name), typeName(x))
		return e, false
	}
	if len(x.Entries) == 0 {
		v.fault(p, x.Pos, "missing_field", "expect %s is empty: it needs at least one constraint (%s)", strconv.Quote(name), constraintKeys(q.kind))
		return e, false
	}
	before := v.s.found
	for _, ke := range x.Entries {
		k, val := ke.Key, ke.Value
		kp := p.to(k)
		kind, known := expectKind(k)
		switch {
		case !known:
			v.fault(&kp, ke.KeyPos, "unknown_key", "%s", shape.UnknownKeyOf(k, "expect "+strconv.Quote(name), strings.Split(keysFor(q.kind), ", "), "", false))
			continue
		case kind != KindNone && q.kind != KindNone && kind != q.kind:
			v.fault(&kp, ke.KeyPos, "unknown_key", "%s does not apply to %s question (%s takes %s)", k, article(q.kind), strconv.Quote(name), keysFor(q.kind))
			continue
		}
		switch k {
		case "choice":
			if !isStr(val) {
				v.fault(&kp, val.Pos, "wrong_type", "choice must be a label (a string), got %s", show(val))
				continue
			}
			if q.labels != nil && q.labels.Get(val.Text) == nil {
				v.fault(&kp, val.Pos, "invalid_value", "choice %s is not a label of question %s (labels: %s)", strconv.Quote(val.Text), strconv.Quote(name), quotedList(q.labels.Entries, func(e frontmatter.Entry) string { return e.Key }))
				continue
			}
			e.Choice, e.HasChoice = val.Text, true
		case "noul_true":
			if val.Kind != frontmatter.Bool {
				v.fault(&kp, val.Pos, "wrong_type", "noul_true must be true or false, got %s", show(val))
				continue
			}
			e.NoulTrue, e.HasNoulTrue = val.Bool, true
		case "score":
			n, isNum, finite := toNumber(val)
			switch {
			case !isNum:
				v.fault(&kp, val.Pos, "wrong_type", "score must be a number, got %s", show(val))
			case !finite:
				v.fault(&kp, val.Pos, "invalid_value", "score is out of range")
			default:
				e.Score = some(n)
			}
		default:
			n, ok := v.number(val, &kp, k, k != "score_tolerance")
			if !ok {
				continue
			}
			switch {
			case e.Tolerances.set(k, n):
			case k == "noul":
				e.Noul = some(n)
			case k == "min_noul":
				e.MinNoul = some(n)
			case k == "baseline_confidence":
				e.BaselineConfidence = some(n)
			}
		}
	}
	if v.s.found != before {
		return e, false
	}
	// At least one effective constraint: the kind's answer key, min_noul,
	// min_confidence, or baseline_confidence with a confidence_tolerance or
	// min_confidence of the field or of the defaults (settle; the spec's
	// "Field expectations": no default confidence_tolerance is assumed, and
	// tolerance-only objects are rejected).
	switch {
	case e.hasKindConstraint() || e.MinConfidence.Set:
	case e.BaselineConfidence.Set && e.ConfidenceTolerance.Set:
	case e.BaselineConfidence.Set:
		v.waiting = append(v.waiting, waitingField{caseID: v.caseID, key: p.String(), name: name, pos: x.Pos})
	default:
		v.fault(p, x.Pos, "missing_field", "expect %s states no effective constraint: a tolerance alone checks nothing (give %s)", strconv.Quote(name), constraintKeys(q.kind))
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
