package evalcase

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/shape"
)

// Fields of a case (contract §3.1, §3.2), required ones first.
var (
	RequiredFields = []string{"schema_version", "id", "source_locale", "target_locale", "domain", "source", "assertions", "provenance"}
	OptionalFields = []string{"context", "required_tokens", "references", "difficulty", "tags"}
	// ProvenanceFields are the keys of provenance; kind and license are
	// required.
	ProvenanceFields = []string{"kind", "license", "source", "transformation"}
	// AssertionFields are the keys of an assertion object; name and
	// severity are required.
	AssertionFields = []string{"name", "severity", "params"}
	// CandidateFields are the keys of a candidate (contract §5); case_id and
	// text are required, raw_response may be null.
	CandidateFields = []string{"case_id", "text", "raw_response"}
)

// anchor says what a fault points at (README "Results, outcomes and blocking"): a fault about a
// value points at the value, one about a key's presence or name at the key,
// and missing_field at the object (the entry) that lacks the field.
type anchor int

const (
	atValue anchor = iota
	atKey
	atEntry
)

// fault is one definition fault of a line, before it has a position: the
// position is looked up lazily, from path, only when it is reported.
type fault struct {
	path []string // keys and decimal array indexes from the line's root
	at   anchor
	off  int // a byte offset already known (syntax errors, duplicate keys); -1 when path locates it
	code string
	msg  string
}

// faults collects the faults of one line.
type faults []fault

func (fs *faults) add(path []string, at anchor, code, format string, args ...any) {
	*fs = append(*fs, fault{path: path, at: at, off: -1, code: code, msg: fmt.Sprintf(format, args...)})
}

func (fs *faults) addProblem(path []string, at anchor, p *problem) {
	*fs = append(*fs, fault{path: path, at: at, off: -1, code: p.code, msg: p.msg})
}

// sub returns path extended by keys, as a new slice.
func sub(path []string, keys ...string) []string {
	return append(slices.Clip(path), keys...)
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

// preflight checks what must hold before a line is decoded: valid UTF-8
// (encoding/json would silently replace bad bytes) and JSON syntax. It
// returns the fault, or nil.
func preflight(text []byte) *fault {
	if !utf8.Valid(text) {
		off := 0
		for off < len(text) {
			r, size := utf8.DecodeRune(text[off:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			off += size
		}
		return &fault{off: off, code: "invalid_utf8", msg: fmt.Sprintf("invalid UTF-8 (byte 0x%02x); JSONL text must be UTF-8", text[off])}
	}
	var raw json.RawMessage
	err := json.Unmarshal(text, &raw)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off := int(se.Offset) - 1
		if strings.Contains(se.Error(), "unexpected end") {
			off = len(text)
		}
		return &fault{off: max(0, min(off, len(text))), code: "syntax_error", msg: "invalid JSON: " + strings.TrimPrefix(se.Error(), "json: ")}
	}
	if err != nil {
		return &fault{off: 0, code: "syntax_error", msg: "invalid JSON: " + err.Error()}
	}
	return nil
}

// decodeGeneric decodes a line that passed preflight into maps, slices,
// strings, bools, nil and json.Number.
func decodeGeneric(text []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// typeName names a decoded JSON value's type in messages.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// maxInt bounds integers: beyond 2^53 a JSON number no longer holds every
// integer exactly.
const maxInt = 1 << 53

// integer returns n as an integer when it is integral (3 and 3.0 count).
func integer(n json.Number) (int64, bool) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) || math.Abs(f) > maxInt {
		return 0, false
	}
	return int64(f), true
}

// sortedKeys returns m's keys in order, so that faults come out the same way
// on every run.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
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

// unknownKey reports key, which is not in allowed, in the kit's one wording (naming a close match).
func (fs *faults) unknownKey(path []string, what, key string, allowed []string) {
	hint := ""
	if what == "the case" && key == "glossary" {
		hint = "the M8 design doc's draft field is not part of v1; use required_tokens"
	}
	fs.add(sub(path, key), atKey, "unknown_key", "%s", shape.UnknownKeyOf(key, what, allowed, hint, false))
}

// validateCase is the authoritative validation of a case line that passed
// preflight. It returns every fault and the case's id, when the id is a
// valid one (the case is then indexed even if invalid, so that duplicate
// ids and candidates for it are recognised).
func validateCase(text []byte) (faults, string) {
	obj, fs := decodeLineObject(text, "a case is a JSON object")
	if obj == nil {
		return fs, ""
	}
	allowed := append(slices.Clip(RequiredFields), OptionalFields...)
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(allowed, k) {
			fs.unknownKey(nil, "the case", k, allowed)
		}
	}
	for _, k := range RequiredFields {
		if _, ok := obj[k]; !ok {
			fs.add(nil, atEntry, "missing_field", "the case has no %s (required)", k)
		}
	}
	id := ""
	if v, ok := obj["schema_version"]; ok {
		p := []string{"schema_version"}
		n, isNum := v.(json.Number)
		iv, isInt := integer(n)
		switch {
		case !isNum || !isInt:
			fs.add(p, atValue, "wrong_type", "schema_version must be the integer 1, got %s", typeName(v))
		case iv != 1:
			fs.add(p, atValue, "invalid_value", "schema_version must be 1 (this is EvalCase v1), got %s", n)
		}
	}
	if s, ok := fs.str(obj, nil, "id"); ok {
		if p := checkID(s); p != nil {
			fs.addProblem([]string{"id"}, atValue, p)
		} else {
			id = s
		}
	}
	for _, k := range []string{"source_locale", "target_locale"} {
		if s, ok := fs.str(obj, nil, k); ok {
			if p := checkLocale(k, s); p != nil {
				fs.addProblem([]string{k}, atValue, p)
			}
		}
	}
	if s, ok := fs.str(obj, nil, "domain"); ok && strings.TrimSpace(s) == "" {
		fs.add([]string{"domain"}, atValue, "invalid_value", "domain must not be blank")
	}
	fs.str(obj, nil, "source")
	names := fs.assertions(obj)
	fs.provenance(obj)
	if v, ok := obj["context"]; ok {
		if _, isObj := v.(map[string]any); !isObj {
			fs.add([]string{"context"}, atValue, "wrong_type", "context must be an object, got %s", typeName(v))
		}
	}
	tokens, hasTokens := fs.strings(obj, "required_tokens", func(s string) *problem {
		if s == "" {
			return problemf("invalid_value", "a required token must not be empty")
		}
		return nil
	})
	fs.strings(obj, "references", nil)
	if s, ok := fs.str(obj, nil, "difficulty"); ok {
		if p := checkEnum("difficulty", s, Difficulties); p != nil {
			fs.addProblem([]string{"difficulty"}, atValue, p)
		}
	}
	fs.strings(obj, "tags", checkTag)
	if i := slices.Index(names, "required_tokens"); i >= 0 {
		switch {
		case !hasTokens:
			if _, present := obj["required_tokens"]; !present {
				fs.add([]string{"assertions", strconv.Itoa(i)}, atEntry, "missing_field", "the required_tokens assertion needs the case's required_tokens")
			}
		case len(tokens) == 0:
			fs.add([]string{"required_tokens"}, atValue, "invalid_value", "required_tokens is empty, but the required_tokens assertion checks it")
		}
	}
	return fs, id
}

// str returns obj[key] when it is a string; a value of another type is
// wrong_type. ok is false when the key is absent or ill-typed.
func (fs *faults) str(obj map[string]any, path []string, key string) (string, bool) {
	v, present := obj[key]
	if !present {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		fs.add(sub(path, key), atValue, "wrong_type", "%s must be a string, got %s", pathString(sub(path, key)), typeName(v))
	}
	return s, ok
}

// strings checks that obj[key], when present, is an array of strings, each
// passing rule (when not nil).
func (fs *faults) strings(obj map[string]any, key string, rule func(string) *problem) ([]string, bool) {
	v, present := obj[key]
	if !present {
		return nil, false
	}
	arr, ok := v.([]any)
	if !ok {
		fs.add([]string{key}, atValue, "wrong_type", "%s must be an array of strings, got %s", key, typeName(v))
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for i, item := range arr {
		p := []string{key, strconv.Itoa(i)}
		s, ok := item.(string)
		if !ok {
			fs.add(p, atValue, "wrong_type", "%s must be a string, got %s", pathString(p), typeName(item))
			continue
		}
		if rule != nil {
			if pr := rule(s); pr != nil {
				fs.add(p, atValue, pr.code, "%s: %s", pathString(p), pr.msg)
				continue
			}
		}
		out = append(out, s)
	}
	return out, true
}

// assertions validates the assertions array and returns the assertion
// names by index ("" where an entry has no valid name).
func (fs *faults) assertions(obj map[string]any) []string {
	v, present := obj["assertions"]
	if !present {
		return nil
	}
	path := []string{"assertions"}
	arr, ok := v.([]any)
	if !ok {
		fs.add(path, atValue, "wrong_type", "assertions must be an array of assertion objects {\"name\", \"severity\", \"params\"}, got %s", typeName(v))
		return nil
	}
	if len(arr) == 0 {
		fs.add(path, atValue, "invalid_value", "assertions must hold at least one assertion")
	}
	names := make([]string, len(arr))
	first := map[string]int{} // name → index of its first assertion
	for i, item := range arr {
		p := sub(path, strconv.Itoa(i))
		switch a := item.(type) {
		case string:
			hint := ""
			if n, ok := oldAssertionNames[a]; ok {
				hint = fmt.Sprintf("; write {\"name\": %q, \"severity\": \"hard\"}", n)
			}
			fs.add(p, atValue, "wrong_type", "%s is the bare string %s: v1 assertions are objects {\"name\", \"severity\", \"params\"}, not the bare strings of the M8 design doc's draft%s", pathString(p), quote(a), hint)
		case map[string]any:
			names[i] = fs.assertion(p, a)
			if names[i] != "" {
				if j, dup := first[names[i]]; dup {
					fs.add(sub(p, "name"), atValue, "invalid_value", "assertion %s appears twice (assertions[%d] and [%d]); a case has one result per assertion, so combine them", names[i], j, i)
					names[i] = ""
				} else {
					first[names[i]] = i
				}
			}
		default:
			fs.add(p, atValue, "wrong_type", "%s must be an assertion object {\"name\", \"severity\", \"params\"}, got %s", pathString(p), typeName(item))
		}
	}
	return names
}

// assertion validates one assertion object and returns its name when it is
// a name of the vocabulary.
func (fs *faults) assertion(path []string, obj map[string]any) string {
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(AssertionFields, k) {
			fs.unknownKey(path, pathString(path), k, AssertionFields)
		}
	}
	var spec *Assertion
	name, ok := fs.str(obj, path, "name")
	switch {
	case !ok:
		if _, present := obj["name"]; !present {
			fs.add(path, atEntry, "missing_field", "%s has no name (required)", pathString(path))
		}
	case lookupAssertion(name) == nil:
		hint := ""
		if n, ok := oldAssertionNames[name]; ok {
			hint = "; the v1 name is " + n
		} else {
			for _, a := range Vocabulary {
				if squash(a.Name) == squash(name) {
					hint = "; write " + a.Name
				}
			}
		}
		fs.add(sub(path, "name"), atValue, "invalid_value", "%s is not an assertion of the v1 vocabulary (%s)%s", quote(name), strings.Join(assertionNames(), ", "), hint)
	default:
		spec = lookupAssertion(name)
	}
	sev, ok := fs.str(obj, path, "severity")
	switch {
	case !ok:
		if _, present := obj["severity"]; !present {
			fs.add(path, atEntry, "missing_field", "%s has no severity (required: hard or report)", pathString(path))
		}
	case sev != SeverityHard && sev != SeverityReport:
		hint := ""
		switch strings.ToLower(sev) {
		case "error", "hard":
			hint = "; write hard"
		case "warning", "info", "report", "soft":
			hint = "; write report"
		}
		fs.add(sub(path, "severity"), atValue, "invalid_value", "severity must be hard or report, got %s%s", quote(sev), hint)
	}
	var params map[string]any
	if v, present := obj["params"]; present {
		m, isObj := v.(map[string]any)
		if !isObj {
			fs.add(sub(path, "params"), atValue, "wrong_type", "%s.params must be an object, got %s", pathString(path), typeName(v))
			return nameIf(spec)
		}
		params = m
	}
	if spec != nil {
		fs.params(spec, path, params)
	}
	return nameIf(spec)
}

func nameIf(a *Assertion) string {
	if a == nil {
		return ""
	}
	return a.Name
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
	key  string // the param it is about; "" for the params object itself
	at   anchor
	code string
	msg  string
}

// params validates an assertion's params (nil when absent) against its
// closed set (README "EvalCase v1 fixtures").
func (fs *faults) params(spec *Assertion, path []string, params map[string]any) {
	ppath := sub(path, "params")
	allowed := make([]string, len(spec.Params))
	for i, p := range spec.Params {
		allowed[i] = p.Name
	}
	for _, k := range sortedKeys(params) {
		if slices.Contains(allowed, k) {
			continue
		}
		if len(allowed) == 0 {
			fs.add(sub(ppath, k), atKey, "unknown_key", "%s takes no params, got %s", spec.Name, quote(k))
			continue
		}
		fs.unknownKey(ppath, spec.Name+" params", k, allowed)
	}
	for _, p := range spec.Params {
		v, present := params[p.Name]
		if !present {
			if p.Required {
				if params == nil {
					fs.add(path, atEntry, "missing_field", "%s needs params.%s", spec.Name, p.Name)
				} else {
					fs.add(ppath, atEntry, "missing_field", "%s needs params.%s", spec.Name, p.Name)
				}
			}
			continue
		}
		fs.param(sub(ppath, p.Name), p, v)
	}
	if spec.check != nil && params != nil {
		if pf := spec.check(params); pf != nil {
			p, at := ppath, pf.at
			if pf.key != "" {
				p = sub(ppath, pf.key)
			}
			fs.add(p, at, pf.code, "%s", pf.msg)
		}
	} else if spec.check != nil {
		if pf := spec.check(map[string]any{}); pf != nil {
			fs.add(path, atEntry, pf.code, "%s", pf.msg)
		}
	}
}

// param validates one parameter's value by its kind.
func (fs *faults) param(path []string, p Param, v any) {
	name := pathString(path)
	switch p.Kind {
	case ParamPositiveInt:
		n, isNum := v.(json.Number)
		iv, isInt := integer(n)
		switch {
		case !isNum || !isInt:
			fs.add(path, atValue, "wrong_type", "%s must be an integer, got %s", name, typeName(v))
		case iv < 1:
			fs.add(path, atValue, "invalid_value", "%s must be at least 1, got %s", name, n)
		}
	case ParamNonEmptyString:
		s, ok := v.(string)
		switch {
		case !ok:
			fs.add(path, atValue, "wrong_type", "%s must be a string, got %s", name, typeName(v))
		case s == "":
			fs.add(path, atValue, "invalid_value", "%s must not be empty", name)
		}
	case ParamBool:
		if _, ok := v.(bool); !ok {
			fs.add(path, atValue, "wrong_type", "%s must be true or false, got %s", name, typeName(v))
		}
	case ParamEnum:
		s, ok := v.(string)
		if !ok {
			fs.add(path, atValue, "wrong_type", "%s must be a string, got %s", name, typeName(v))
		} else if pr := checkEnum(name, s, p.Enum); pr != nil {
			fs.addProblem(path, atValue, pr)
		}
	case ParamPatterns:
		arr, ok := v.([]any)
		if !ok {
			fs.add(path, atValue, "wrong_type", "%s must be an array of RE2 patterns, got %s", name, typeName(v))
			return
		}
		if len(arr) == 0 {
			fs.add(path, atValue, "invalid_value", "%s must hold at least one pattern", name)
		}
		for i, item := range arr {
			ip := sub(path, strconv.Itoa(i))
			s, ok := item.(string)
			if !ok {
				fs.add(ip, atValue, "wrong_type", "%s must be a string, got %s", pathString(ip), typeName(item))
				continue
			}
			if pr := checkPattern(s); pr != nil {
				fs.add(ip, atValue, pr.code, "%s: %s", pathString(ip), pr.msg)
			}
		}
	}
}

// patternCache remembers compiled patterns: fixtures repeat the same few.
// It is bounded; an invalid pattern is remembered with its error.
var patternCache = struct {
	sync.Mutex
	m map[string]patternEntry
}{m: map[string]patternEntry{}}

type patternEntry struct {
	re  *regexp.Regexp
	err *problem
}

// compilePattern compiles an RE2 pattern of params.patterns.
func compilePattern(s string) (*regexp.Regexp, *problem) {
	patternCache.Lock()
	e, ok := patternCache.m[s]
	patternCache.Unlock()
	if ok {
		return e.re, e.err
	}
	re, err := regexp.Compile(s)
	switch {
	case err != nil:
		e.err = problemf("invalid_value", "not a valid RE2 pattern: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	case re.MatchString(""):
		e.err = problemf("invalid_value", "pattern %s matches the empty string, so it matches everywhere", quote(s))
	default:
		e.re = re
	}
	patternCache.Lock()
	if len(patternCache.m) > 1024 {
		clear(patternCache.m)
	}
	patternCache.m[s] = e
	patternCache.Unlock()
	return e.re, e.err
}

func checkPattern(s string) *problem {
	_, p := compilePattern(s)
	return p
}

// checkPlaceholderParams: patterns are required for syntax custom and read
// only by custom and auto (README "EvalCase v1 fixtures").
func checkPlaceholderParams(params map[string]any) *paramFault {
	syntax, _ := params["syntax"].(string)
	if syntax == "" {
		syntax = SyntaxAuto
	}
	_, hasPatterns := params["patterns"]
	switch {
	case syntax == SyntaxCustom && !hasPatterns:
		return &paramFault{at: atEntry, code: "missing_field", msg: "placeholder_integrity with syntax custom needs params.patterns"}
	case hasPatterns && (syntax == SyntaxPrintf || syntax == SyntaxPython || syntax == SyntaxICU):
		return &paramFault{key: "patterns", at: atKey, code: "invalid_value", msg: fmt.Sprintf("params.patterns is read only with syntax custom or auto, not %s", syntax)}
	}
	return nil
}

// validateCandidate is the authoritative validation of a candidate line
// that passed preflight; caseID is its case_id when that is a string.
func validateCandidate(text []byte) (faults, string) {
	obj, fs := decodeLineObject(text, `a candidate is a JSON object {"case_id", "text", "raw_response"}`)
	if obj == nil {
		return fs, ""
	}
	for _, k := range sortedKeys(obj) {
		if !slices.Contains(CandidateFields, k) {
			fs.unknownKey(nil, "the candidate", k, CandidateFields)
		}
	}
	for _, k := range []string{"case_id", "text"} {
		if _, ok := obj[k]; !ok {
			fs.add(nil, atEntry, "missing_field", "the candidate has no %s (required)", k)
		}
	}
	id, _ := fs.str(obj, nil, "case_id")
	if _, ok := obj["case_id"].(string); ok && id == "" {
		fs.add([]string{"case_id"}, atValue, "invalid_value", "case_id must not be empty")
	}
	fs.str(obj, nil, "text")
	if v, ok := obj["raw_response"]; ok && v != nil {
		if _, isStr := v.(string); !isStr {
			fs.add([]string{"raw_response"}, atValue, "wrong_type", "raw_response must be a string or null, got %s", typeName(v))
		}
	}
	return fs, id
}

// provenance validates the provenance object (contract §3.4).
func (fs *faults) provenance(obj map[string]any) {
	v, present := obj["provenance"]
	if !present {
		return
	}
	path := []string{"provenance"}
	m, ok := v.(map[string]any)
	if !ok {
		fs.add(path, atValue, "wrong_type", "provenance must be an object {\"kind\", \"license\"}, got %s", typeName(v))
		return
	}
	for _, k := range sortedKeys(m) {
		if !slices.Contains(ProvenanceFields, k) {
			fs.unknownKey(path, "provenance", k, ProvenanceFields)
		}
	}
	for _, k := range []string{"kind", "license"} {
		if _, ok := m[k]; !ok {
			fs.add(path, atEntry, "missing_field", "provenance has no %s (required)", k)
		}
	}
	if s, ok := fs.str(m, path, "kind"); ok {
		if p := checkEnum("provenance.kind", s, ProvenanceKinds); p != nil {
			fs.addProblem(sub(path, "kind"), atValue, p)
		}
	}
	if s, ok := fs.str(m, path, "license"); ok {
		if p := checkLicense(s); p != nil {
			fs.addProblem(sub(path, "license"), atValue, p)
		}
	}
	if s, ok := fs.str(m, path, "source"); ok && strings.TrimSpace(s) == "" {
		fs.add(sub(path, "source"), atValue, "invalid_value", "provenance.source must not be blank; leave it out when there is none")
	}
	fs.str(m, path, "transformation")
}

// decodeLineObject decodes one JSONL line for the authoritative validators of
// cases and candidates: a syntax error, a duplicate key and a value that is
// not an object are faults; obj is nil when the line holds no object.
func decodeLineObject(text []byte, want string) (obj map[string]any, fs faults) {
	root, err := decodeGeneric(text)
	if err != nil {
		fs = append(fs, fault{off: 0, code: "syntax_error", msg: "invalid JSON: " + err.Error()})
		return nil, fs
	}
	if key, off, dup := dupKey(text); dup {
		fs = append(fs, fault{off: off, code: "duplicate_key", msg: fmt.Sprintf("duplicate key %s: encoding/json would keep the later value", quote(key))})
	}
	obj, ok := root.(map[string]any)
	if !ok {
		fs.add(nil, atValue, "wrong_type", "%s, got %s", want, typeName(root))
		return nil, fs
	}
	return obj, fs
}
