package evalcase

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/shape"
)

// The authoritative validation of a line the fast path doubted (fast.go). The line is parsed once, with
// positions, by frontmatter.ParseJSON; the fixed shapes of EvalCase v1 (README "EvalCase v1 fixtures") are
// tables of the checking kit (README "Development"), which holds the keys of each object and the kinds of
// their values and words their faults ("WHAT must be …, got VALUE"); what a table cannot say, and the checks
// whose own message says more (an id's or a locale's fix, the M8 draft's hints, the assertion vocabulary,
// the enums with their values, patterns, the number of assertions), is code after the table check. Every
// fault is at the position of the node it is about: its value, its key (unknown_key) or the object that
// lacks a field (missing_field). A list's items are held one by one, so that each fault names its own
// field (assertions[1].params.patterns[0]).

// required is a required field whose absence the case, the candidate, an assertion and provenance all say
// the same way: "the case has no source (required)".
func required(name string, t *shape.Type) shape.Field {
	return shape.Field{Name: name, Type: t, Required: true, Missing: "has no " + name + " (required)"}
}

// anyList is a list whose items are held one by one after the table check.
var anyList = &shape.Type{Kind: shape.List}

// caseShape is a case (contract §3.1, §3.2), required fields first. schema_version and assertions are
// checked by code only: their messages say what to write ("the integer 1", the assertion object).
// provenance is then held against provenanceShape, and the lists' items one by one.
var caseShape = &shape.Object{Name: "the case", Fields: []shape.Field{
	required("schema_version", &shape.Type{Doc: "exactly the integer 1 (1.0 is 1)"}),
	required("id", &shape.Type{Kind: shape.String, Doc: "matches IDPattern"}),
	required("source_locale", &shape.Type{Kind: shape.String, Doc: "a known BCP-47 tag in canonical case"}),
	required("target_locale", &shape.Type{Kind: shape.String, Doc: "a known BCP-47 tag in canonical case"}),
	required("domain", &shape.Type{Kind: shape.String, NonBlank: true}),
	required("source", shape.AnyString),
	required("assertions", &shape.Type{Doc: "a list of at least one assertion object, each name at most once"}),
	required("provenance", shape.AnyMap),
	{Name: "context", Type: shape.AnyMap},
	{Name: "required_tokens", Type: anyList},
	{Name: "references", Type: anyList},
	{Name: "difficulty", Type: &shape.Type{Kind: shape.String, Doc: "one of Difficulties"}},
	{Name: "tags", Type: anyList},
}}

// assertionShape is an assertion object (contract §4); its params are held against paramShapes.
var assertionShape = &shape.Object{Fields: []shape.Field{
	required("name", &shape.Type{Kind: shape.String, Doc: "an assertion of Vocabulary"}),
	{Name: "severity", Type: &shape.Type{Kind: shape.String, Doc: "hard or report"}, Required: true,
		Missing: "has no severity (required: hard or report)"},
	{Name: "params", Type: shape.AnyMap},
}}

// provenanceShape is a case's provenance (contract §3.4).
var provenanceShape = &shape.Object{Name: "provenance", Fields: []shape.Field{
	required("kind", &shape.Type{Kind: shape.String, Doc: "one of ProvenanceKinds"}),
	required("license", &shape.Type{Kind: shape.String, Doc: "an SPDX expression; not blank, unknown or fair-use"}),
	{Name: "source", Type: shape.AnyString},
	{Name: "transformation", Type: shape.AnyString},
}}

// candidateShape is a candidate (contract §5); raw_response, a string or null, is checked by code.
var candidateShape = &shape.Object{Name: "the candidate", Fields: []shape.Field{
	required("case_id", shape.NonEmptyString),
	required("text", shape.AnyString),
	{Name: "raw_response", Type: &shape.Type{Doc: "a string or null"}},
}}

// paramShapes are the params of each assertion of Vocabulary, by name (README "EvalCase v1 fixtures",
// Params): a closed object each, an assertion without params saying so instead of listing none.
var paramShapes = func() map[string]*shape.Object {
	m := make(map[string]*shape.Object, len(Vocabulary))
	for _, a := range Vocabulary {
		o := &shape.Object{Name: a.Name + " params"}
		for _, p := range a.Params {
			o.Fields = append(o.Fields, shape.Field{Name: p.Name, Type: paramType(p), Required: p.Required})
		}
		if len(o.Fields) == 0 {
			o.Hint = a.Name + " takes no params"
		}
		m[a.Name] = o
	}
	return m
}()

// paramType is the kit's type of a parameter; an enum's values and the patterns are checked by param.
func paramType(p Param) *shape.Type {
	switch p.Kind {
	case ParamPositiveInt:
		return &shape.Type{Kind: shape.Int, Min: shape.Ptr(1), Doc: p.Doc}
	case ParamNonEmptyString:
		return &shape.Type{Kind: shape.String, NonEmpty: true, Doc: p.Doc}
	case ParamBool:
		return &shape.Type{Kind: shape.Bool, Doc: p.Doc}
	case ParamEnum:
		return &shape.Type{Kind: shape.String, Doc: p.Doc}
	case ParamPatterns:
		return &shape.Type{Kind: shape.List, Doc: p.Doc}
	}
	panic("evalcase: param " + p.Name + " has no kind")
}

// fieldNames returns the names of o's required fields, or of its optional ones, in order.
func fieldNames(o *shape.Object, req bool) []string {
	var names []string
	for _, f := range o.Fields {
		if f.Required == req {
			names = append(names, f.Name)
		}
	}
	return names
}

// Fields of a case (contract §3.1, §3.2), required ones first, from the tables.
var (
	RequiredFields = fieldNames(caseShape, true)
	OptionalFields = fieldNames(caseShape, false)
	// ProvenanceFields are the keys of provenance; kind and license are
	// required.
	ProvenanceFields = provenanceShape.Names()
	// AssertionFields are the keys of an assertion object; name and
	// severity are required.
	AssertionFields = assertionShape.Names()
	// CandidateFields are the keys of a candidate (contract §5); case_id and
	// text are required, raw_response may be null.
	CandidateFields = candidateShape.Names()
)

// fault is one definition fault of a line.
type fault struct {
	pos diag.Pos
	// key names the field it is about as messages do (assertions[0].params; "" for the line itself): the
	// result's Key, which SARIF fingerprints.
	key  string
	code string
	msg  string
}

// faults collects the definition faults of one line: the first maxLineFaults, in the order found, the
// first one past them (unworded), and how many there are in all.
type faults struct {
	list  []fault
	past  fault
	total int
}

// put records a fault about the field at path.
func (fs *faults) put(pos diag.Pos, path []string, code, msg string) {
	if len(fs.list) >= maxLineFaults {
		fs.count(pos, path, code)
		return
	}
	fs.total++
	fs.list = append(fs.list, fault{pos: pos, key: pathString(path), code: code, msg: msg})
}

// count counts a fault past maxLineFaults, keeping the first one's place and code.
func (fs *faults) count(pos diag.Pos, path []string, code string) {
	if fs.total == maxLineFaults {
		fs.past = fault{pos: pos, key: pathString(path), code: code}
	}
	fs.total++
}

// add records a fault worded by format; past maxLineFaults it is only counted, not worded.
func (fs *faults) add(pos diag.Pos, path []string, code, format string, args ...any) {
	if len(fs.list) >= maxLineFaults {
		fs.count(pos, path, code)
		return
	}
	fs.put(pos, path, code, fmt.Sprintf(format, args...))
}

func (fs *faults) addProblem(pos diag.Pos, path []string, p *problem) {
	fs.put(pos, path, p.code, p.msg)
}

// sub returns path extended by keys, as a new slice.
func sub(path []string, keys ...string) []string {
	out := make([]string, 0, len(path)+len(keys))
	return append(append(out, path...), keys...)
}

// pathString renders a path as messages name fields: assertions[0].params,
// with 0-based indexes.
func pathString(path []string) string {
	var b strings.Builder
	for _, p := range path {
		if p != "" && strings.Trim(p, "0123456789") == "" {
			b.WriteString("[" + p + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// parse parses one line, the line-th of its file, with the positioned JSON parser: its syntax_error,
// invalid_utf8 and duplicate_key problems (README "Lines, files and candidates") are faults at their
// positions. It returns nil when the line holds no JSON value; after a duplicate key the first entry counts.
func (fs *faults) parse(text []byte, line int) *frontmatter.Node {
	root, probs := frontmatter.ParseJSON(text, line)
	for _, p := range probs {
		msg := p.Message
		if p.Code == "syntax_error" {
			msg = "invalid JSON: " + strings.TrimPrefix(msg, "JSON: ")
		}
		fs.put(p.Pos, nil, p.Code, msg)
	}
	return root
}

// hold holds n against t with the kit. t is a scalar's type or a collection's kind, so every fault the kit
// finds is about n, the field at path.
func (fs *faults) hold(n *frontmatter.Node, t *shape.Type, path []string) bool {
	var k shape.Checker
	if k.Value(n, t, pathString(path)) {
		return true
	}
	for _, p := range k.Problems() {
		fs.put(p.Pos, path, p.Code, p.Message)
	}
	return false
}

// fields are the entries of an object whose values passed the kit.
type fields []*frontmatter.Entry

// get returns the value of the field named name when it passed, or nil.
func (fs fields) get(name string) *frontmatter.Node {
	for _, e := range fs {
		if e.Key == name {
			return e.Value
		}
	}
	return nil
}

// object holds n, a mapping at path, against o with the kit: unknown keys, the kinds of the fields'
// values, the required fields. hint, when not nil, gives the hint an unknown key's fault says instead of
// the allowed keys (the M8 draft's fields). It returns the fields that passed. The kit's faults carry the
// position of a key (unknown_key), of a value or of n itself (missing_field); the entry at a fault's
// position names the field it is about.
func (fs *faults) object(n *frontmatter.Node, o *shape.Object, path []string, hint func(key string) string) fields {
	var (
		k    shape.Checker
		good fields
	)
	what := pathString(path)
	k.Object(n, o, what, func(_ *shape.Field, e *frontmatter.Entry, ok bool) {
		if ok {
			good = append(good, e)
		}
	})
	if what == "" {
		what = o.Name
	}
	for _, p := range k.Problems() {
		e := entryAt(n, p.Pos)
		switch {
		case e == nil:
			fs.put(p.Pos, path, p.Code, p.Message)
		case p.Code == "unknown_key" && hint != nil && hint(e.Key) != "":
			fs.put(p.Pos, sub(path, e.Key), p.Code, shape.UnknownKeyOf(e.Key, what, o.Names(), hint(e.Key), o.NoList))
		default:
			fs.put(p.Pos, sub(path, e.Key), p.Code, p.Message)
		}
	}
	return good
}

// entryAt returns the entry of the mapping n whose key or value starts at pos, or nil. Entries are in
// source order, so it is found by position.
func entryAt(n *frontmatter.Node, pos diag.Pos) *frontmatter.Entry {
	i := sort.Search(len(n.Entries), func(i int) bool { return pos.Before(n.Entries[i].KeyPos) }) - 1
	if i < 0 {
		return nil
	}
	if e := &n.Entries[i]; e.KeyPos == pos || e.Value.Pos == pos {
		return e
	}
	return nil
}

// strs holds each item of the list n, the field at path, against t, then rule (when not nil); it returns
// the items that passed.
func (fs *faults) strs(n *frontmatter.Node, path []string, t *shape.Type, rule func(string) *problem) []string {
	out := make([]string, 0, len(n.Items))
	for i, it := range n.Items {
		p := sub(path, strconv.Itoa(i))
		if !fs.hold(it, t, p) {
			continue
		}
		if rule != nil {
			if pr := rule(it.Text); pr != nil {
				fs.add(it.Pos, p, pr.code, "%s: %s", pathString(p), pr.msg)
				continue
			}
		}
		out = append(out, it.Text)
	}
	return out
}

// squash folds a key for near-miss hints: lowercase, without _ and -.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == ' ' {
			return -1
		}
		return r
	}, strings.ToLower(s))
}

// caseKeyHint is what an unknown key of the case says instead of the allowed keys: glossary is the M8
// design doc's draft field, before v1.
func caseKeyHint(key string) string {
	if key == "glossary" {
		return "the M8 design doc's draft field is not part of v1; use required_tokens"
	}
	return ""
}

// caseInfo is what pass 2 keeps of a case line that the authoritative validation read.
type caseInfo struct {
	id    string   // the case's id when it is a valid one, else ""
	idPos diag.Pos // where the id's value is
	// asserts and report are caseWire.mask's, for a valid case.
	asserts, report uint8
}

// validateCase is the authoritative validation of a case line, the line-th of its file. It returns every
// fault and the case's id, when the id is a valid one (the case is then indexed even if invalid, so that
// duplicate ids and candidates for it are recognised).
func validateCase(text []byte, line int) (faults, caseInfo) {
	var (
		fs   faults
		info caseInfo
	)
	root := fs.parse(text, line)
	if root == nil {
		return fs, info
	}
	if root.Kind != frontmatter.Map {
		fs.add(root.Pos, nil, "wrong_type", "a case is a JSON object, got %s", shape.Describe(root))
		return fs, info
	}
	c := fs.object(root, caseShape, nil, caseKeyHint)
	if n := c.get("schema_version"); n != nil {
		switch {
		case !n.IsInt() || math.Abs(n.Num) > maxInt:
			fs.add(n.Pos, []string{"schema_version"}, "wrong_type", "schema_version must be the integer 1, got %s", shape.Describe(n))
		case n.Num != 1:
			fs.add(n.Pos, []string{"schema_version"}, "invalid_value", "schema_version must be 1 (this is EvalCase v1), got %s", shape.Describe(n))
		}
	}
	if n := c.get("id"); n != nil {
		// An id that breaks the pattern is still the case's id: its candidate answers it (no
		// unknown_case beside the invalid_id), and its faults carry it as their case id.
		if p := checkID(n.Text); p != nil {
			fs.addProblem(n.Pos, []string{"id"}, p)
		}
		info.id, info.idPos = n.Text, n.Pos
	}
	for _, k := range []string{"source_locale", "target_locale"} {
		if n := c.get(k); n != nil {
			if p := checkLocale(k, n.Text); p != nil {
				fs.addProblem(n.Pos, []string{k}, p)
			}
		}
	}
	as := root.Get("assertions")
	asserts, report := fs.assertions(as)
	if n := c.get("provenance"); n != nil {
		fs.provenance(n)
	}
	if n := c.get("required_tokens"); n != nil {
		fs.strs(n, []string{"required_tokens"}, shape.NonEmptyString, nil)
	}
	if n := c.get("references"); n != nil {
		fs.strs(n, []string{"references"}, shape.AnyString, nil)
	}
	if n := c.get("difficulty"); n != nil {
		if p := checkEnum("difficulty", n.Text, Difficulties); p != nil {
			fs.addProblem(n.Pos, []string{"difficulty"}, p)
		}
	}
	if n := c.get("tags"); n != nil {
		fs.strs(n, []string{"tags"}, shape.NonEmptyString, checkTag)
	}
	if fs.total == 0 {
		info.asserts, info.report = asserts, report
	}
	return fs, info
}

// maxInt bounds integers: beyond 2^53 a JSON number no longer holds every
// integer exactly.
const maxInt = 1 << 53

// assertions validates the case's assertions entry (nil when absent) and returns the vocabulary bits of
// the assertions it names, each once, and of those with severity report (as caseWire.mask).
func (fs *faults) assertions(e *frontmatter.Entry) (asserts, report uint8) {
	if e == nil {
		return 0, 0
	}
	n, path := e.Value, []string{"assertions"}
	if n.Kind != frontmatter.List {
		fs.add(n.Pos, path, "wrong_type", "assertions must be an array of assertion objects {\"name\", \"severity\", \"params\"}, got %s", shape.Describe(n))
		return 0, 0
	}
	if len(n.Items) == 0 {
		fs.add(n.Pos, path, "invalid_value", "assertions must hold at least one assertion")
	}
	first := map[string]int{} // name → index of its first assertion
	for i, item := range n.Items {
		p := sub(path, strconv.Itoa(i))
		switch item.Kind {
		case frontmatter.String:
			hint := ""
			if n, ok := oldAssertionNames[item.Text]; ok {
				hint = fmt.Sprintf("; write {\"name\": %q, \"severity\": \"hard\"}", n)
			}
			fs.add(item.Pos, p, "wrong_type", "%s is the bare string %s: v1 assertions are objects {\"name\", \"severity\", \"params\"}, not the bare strings of the M8 design doc's draft%s", pathString(p), quote(item.Text), hint)
		case frontmatter.Map:
			spec, nameNode, sev := fs.assertion(item, p)
			if spec == nil {
				continue
			}
			if j, dup := first[spec.Name]; dup {
				fs.add(nameNode.Pos, sub(p, "name"), "invalid_value", "assertion %s appears twice (assertions[%d] and [%d]); a case has one result per assertion, so combine them", spec.Name, j, i)
				continue
			}
			first[spec.Name] = i
			bit := uint8(1) << assertionIndex(spec.Name)
			asserts |= bit
			if sev == SeverityReport {
				report |= bit
			}
		default:
			fs.add(item.Pos, p, "wrong_type", "%s must be an assertion object {\"name\", \"severity\", \"params\"}, got %s", pathString(p), shape.Describe(item))
		}
	}
	return asserts, report
}

// assertion validates one assertion object at path and returns its entry of the vocabulary when its name
// is one (with the name's node), and its severity when it is hard or report.
func (fs *faults) assertion(n *frontmatter.Node, path []string) (spec *Assertion, name *frontmatter.Node, sev string) {
	a := fs.object(n, assertionShape, path, nil)
	if name = a.get("name"); name != nil {
		if spec = lookupAssertion(name.Text); spec == nil {
			hint := ""
			if v1, ok := oldAssertionNames[name.Text]; ok {
				hint = "; the v1 name is " + v1
			} else {
				for _, x := range Vocabulary {
					if squash(x.Name) == squash(name.Text) {
						hint = "; write " + x.Name
					}
				}
			}
			fs.add(name.Pos, sub(path, "name"), "invalid_value", "%s is not an assertion of the v1 vocabulary (%s)%s", quote(name.Text), strings.Join(assertionNames(), ", "), hint)
		}
	}
	if s := a.get("severity"); s != nil {
		if s.Text == SeverityHard || s.Text == SeverityReport {
			sev = s.Text
		} else {
			hint := ""
			switch strings.ToLower(s.Text) {
			case "error", "hard":
				hint = "; write hard"
			case "warning", "info", "report", "soft":
				hint = "; write report"
			}
			spath := sub(path, "severity")
			fs.add(s.Pos, spath, "invalid_value", "%s must be hard or report, got %s%s", pathString(spath), quote(s.Text), hint)
		}
	}
	params := a.get("params")
	if params == nil && n.Get("params") != nil {
		return spec, name, sev // not a mapping: the kit said so
	}
	if spec != nil {
		fs.params(spec, n.Pos, params, path)
	}
	return spec, name, sev
}

func assertionNames() []string {
	names := make([]string, len(Vocabulary))
	for i, a := range Vocabulary {
		names[i] = a.Name
	}
	return names
}

// paramFault is a fault an assertion's own check finds in its params.
type paramFault struct {
	key  *frontmatter.Entry // the param it is about, pointed at by its key; nil for the params object itself
	code string
	msg  string
}

// params validates the params (nil when absent) of the assertion spec at path, whose object starts at at:
// each key against the assertion's table in paramShapes (an unknown key in the kit's words, naming the
// assertion: "unknown key \"units\" in max_chars params"), each value with the kit and then its own rule,
// then the assertion's check. A missing required param is said the same way whether params is absent or
// lacks it ("assertions[0]: max_chars needs params.max"), at the params object, or at the assertion when it has none.
func (fs *faults) params(spec *Assertion, at diag.Pos, params *frontmatter.Node, path []string) {
	o := paramShapes[spec.Name]
	ppath := sub(path, "params")
	where, wpath := at, path
	if params != nil {
		where, wpath = params.Pos, ppath
		for i := range params.Entries {
			e := &params.Entries[i]
			p := sub(ppath, e.Key)
			f := o.Field(e.Key)
			if f == nil {
				fs.put(e.KeyPos, p, "unknown_key", shape.UnknownKey(e.Key, o.Name, o))
				continue
			}
			if fs.hold(e.Value, f.Type, p) {
				fs.param(spec.param(e.Key), e.Value, p)
			}
		}
	}
	for _, f := range o.Fields {
		if f.Required && params.Get(f.Name) == nil {
			fs.add(where, wpath, "missing_field", "%s: %s needs params.%s", pathString(path), spec.Name, f.Name)
		}
	}
	if spec.check != nil {
		if pf := spec.check(params); pf != nil {
			// The check's message names the params relative to the assertion ("params.patterns ..."):
			// the fault names the assertion too.
			if pf.key != nil {
				fs.put(pf.key.KeyPos, sub(ppath, pf.key.Key), pf.code, pathString(path)+"."+pf.msg)
			} else {
				fs.put(where, wpath, pf.code, pathString(path)+": "+pf.msg)
			}
		}
	}
}

// param checks what the kit cannot of the value n of the param p at path, which has p's kind: an enum's
// value, the patterns.
func (fs *faults) param(p *Param, n *frontmatter.Node, path []string) {
	name := pathString(path)
	switch p.Kind {
	case ParamEnum:
		if pr := checkEnum(name, n.Text, p.Enum); pr != nil {
			fs.addProblem(n.Pos, path, pr)
		}
	case ParamPatterns:
		if len(n.Items) == 0 {
			fs.add(n.Pos, path, "invalid_value", "%s must hold at least one pattern", name)
		}
		fs.strs(n, path, shape.AnyString, checkPattern)
	}
}

type patternEntry struct {
	re    *regexp.Regexp
	pre   prefilter // what a text must hold to match re
	err   *problem
	insts int // re's compiled instructions, what a match costs at worst per byte; 0 for a literal
}

// compilePattern compiles an RE2 pattern of params.patterns.
func compilePattern(s string) (*regexp.Regexp, *problem) {
	e := lookupPattern(s)
	return e.re, e.err
}

// lookupPattern compiles an RE2 pattern, once for many cases (fixtures repeat the same few); an
// invalid pattern is remembered with its error.
func lookupPattern(s string) patternEntry { return patterns.get(s) }

var patterns = newMemo(1024, func(s string) (e patternEntry) {
	re, err := regexp.Compile(s)
	switch {
	case err != nil:
		e.err = problemf("invalid_value", "not a valid RE2 pattern: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	case matchesEmpty(s):
		e.err = problemf("invalid_value", "pattern %s can match the empty string, so it matches where there is no text", quote(s))
	default:
		e.re, e.pre = re, prefilterOf(s)
		if _, literal := re.LiteralPrefix(); !literal {
			e.insts = shape.Insts(re)
		}
	}
	return e
})

func checkPattern(s string) *problem {
	_, p := compilePattern(s)
	return p
}

// checkPlaceholderParams: patterns are required for syntax custom and read
// only by custom and auto (README "EvalCase v1 fixtures"). params is nil when
// the assertion has none.
func checkPlaceholderParams(params *frontmatter.Node) *paramFault {
	syntax := SyntaxAuto
	if e := params.Get("syntax"); e != nil && e.Value.Kind == frontmatter.String && e.Value.Text != "" {
		syntax = e.Value.Text
	}
	patterns := params.Get("patterns")
	switch {
	case syntax == SyntaxCustom && patterns == nil:
		return &paramFault{code: "missing_field", msg: "placeholder_integrity with syntax custom needs params.patterns"}
	case patterns != nil && (syntax == SyntaxPrintf || syntax == SyntaxPython || syntax == SyntaxICU):
		return &paramFault{key: patterns, code: "invalid_value", msg: fmt.Sprintf("params.patterns is read only with syntax custom or auto, not %s", syntax)}
	}
	return nil
}

// validateCandidate is the authoritative validation of a candidate line, the line-th of its file. It
// returns every fault and the candidate as far as it is valid: its case_id whenever that is a string (a
// faulty candidate still answers its case), with where that is (the zero Pos when it is not).
func validateCandidate(text []byte, line int) (faults, candidateWire, diag.Pos) {
	var (
		fs    faults
		w     candidateWire
		idPos diag.Pos
	)
	root := fs.parse(text, line)
	if root == nil {
		return fs, w, idPos
	}
	if root.Kind != frontmatter.Map {
		fs.add(root.Pos, nil, "wrong_type", `a candidate is a JSON object {"case_id", "text", "raw_response"}, got %s`, shape.Describe(root))
		return fs, w, idPos
	}
	c := fs.object(root, candidateShape, nil, nil)
	if e := root.Get("case_id"); e != nil && e.Value.Kind == frontmatter.String {
		w.CaseID, idPos = e.Value.Text, e.Value.Pos
	}
	if t := c.get("text"); t != nil {
		s := t.Text
		w.Text = &s
	}
	if e := root.Get("raw_response"); e != nil {
		switch v := e.Value; v.Kind {
		case frontmatter.Null:
		case frontmatter.String:
			s := v.Text
			w.RawResponse = &s
		default:
			fs.add(v.Pos, []string{"raw_response"}, "wrong_type", "raw_response must be a string or null, got %s", shape.Describe(v))
		}
	}
	return fs, w, idPos
}

// provenance validates the provenance object n (contract §3.4).
func (fs *faults) provenance(n *frontmatter.Node) {
	path := []string{"provenance"}
	p := fs.object(n, provenanceShape, path, nil)
	if k := p.get("kind"); k != nil {
		if pr := checkEnum("provenance.kind", k.Text, ProvenanceKinds); pr != nil {
			fs.addProblem(k.Pos, sub(path, "kind"), pr)
		}
	}
	if l := p.get("license"); l != nil {
		if pr := checkLicense(l.Text); pr != nil {
			fs.addProblem(l.Pos, sub(path, "license"), pr)
		}
	}
	if s := p.get("source"); s != nil && strings.TrimSpace(s.Text) == "" {
		fs.add(s.Pos, sub(path, "source"), "invalid_value", "provenance.source must not be blank; leave it out when there is none")
	}
}

// valuePos is where the value of a top-level key starts in a valid line (the start of the line when it
// has none), for the results about a line the fast path accepted, which has no positions: duplicate_id,
// unknown_case, duplicate_candidate. The line is parsed for it, as rarely as those results are.
func valuePos(text []byte, line int, key string) diag.Pos {
	root, _ := frontmatter.ParseJSON(text, line)
	if e := root.Get(key); e != nil {
		return e.Value.Pos
	}
	return diag.Pos{Line: line, Col: 1}
}
