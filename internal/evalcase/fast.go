package evalcase

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/jsonstr"
)

// The fast path decodes a line into typed structs, by the hand scanner of scan.go when the line has
// the usual shape and by encoding/json when it does not, and accepts it when every rule holds. It
// never produces a fault: whenever it has a doubt (a decode error, a null, a rule that fails, a
// nesting deeper than it follows), the line goes to validateCase or validateCandidate, which parse it
// once with positions and find every fault. FuzzReadCases checks that the fast path accepts no line
// that the authoritative validation rejects, and reads a valid line as it does.

// caseWire is a case as the fast path decodes it. Which top-level fields
// are present comes from scanKeys (present), so fields need no pointers; a
// JSON null never reaches it (see fastCase).
type caseWire struct {
	SchemaVersion  float64         `json:"schema_version"`
	ID             string          `json:"id"`
	SourceLocale   string          `json:"source_locale"`
	TargetLocale   string          `json:"target_locale"`
	Domain         string          `json:"domain"`
	Source         rawString       `json:"source"` // any text, decoded only when the case is graded
	Assertions     []assertionWire `json:"assertions"`
	Provenance     provenanceWire  `json:"provenance"`
	Context        objectCheck     `json:"context"`
	RequiredTokens []string        `json:"required_tokens"`
	References     stringsCheck    `json:"references"`
	Difficulty     string          `json:"difficulty"`
	Tags           []string        `json:"tags"`

	recur recurring // kept from line to line by reset (see recurring)
}

// assertionWire is an assertion; an absent name or severity decodes as "",
// which no rule accepts.
type assertionWire struct {
	Name     string  `json:"name"`
	Severity string  `json:"severity"`
	Params   rawJSON `json:"params"`
}

type provenanceWire struct {
	Kind           string  `json:"kind"`
	License        string  `json:"license"`
	Source         *string `json:"source"` // present but blank is a fault
	Transformation string  `json:"transformation"`
}

// objectCheck accepts a JSON object without keeping it (context is open).
type objectCheck struct{}

func (*objectCheck) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] != '{' {
		return errors.New("not an object")
	}
	return nil
}

// rawString accepts a JSON string and keeps its text undecoded: it points into the line, as rawJSON
// does.
type rawString []byte

func (r *rawString) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] != '"' {
		return errors.New("not a string")
	}
	*r = b
	return nil
}

// stringsCheck accepts an array of strings without decoding it. The line
// is valid JSON (encoding/json has checked it), so each item is a string
// exactly when it starts with a quote.
type stringsCheck struct{}

func (*stringsCheck) UnmarshalJSON(b []byte) error {
	bad := errors.New("not an array of strings")
	if len(b) == 0 || b[0] != '[' {
		return bad
	}
	i := skipSpace(b, 1)
	if i < len(b) && b[i] == ']' {
		return nil
	}
	for i < len(b) {
		if b[i] != '"' {
			return bad
		}
		if i = jsonstr.End(b, i); i < 0 {
			return bad
		}
		i = skipSpace(b, i)
		if i >= len(b) || b[i] == ']' {
			return nil
		}
		i = skipSpace(b, i+1) // ','
	}
	return bad
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// rawJSON keeps a value's text without copying it: it points into the line,
// which outlives the decoded struct while the line is checked.
type rawJSON []byte

func (r *rawJSON) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

var nullLit = []byte("null")

// presence bits of scanKeys for the case's top-level keys: bit i is
// caseKeys.allowed[i], RequiredFields first.
var (
	requiredMask   = uint32(1)<<len(RequiredFields) - 1
	difficultyBit  = uint32(1) << keyIndex(caseKeys.allowed, "difficulty")
	caseIDBit      = uint32(1) << keyIndex(CandidateFields, "case_id")
	candidateText  = uint32(1) << keyIndex(CandidateFields, "text")
	candidateNeeds = caseIDBit | candidateText
)

func keyIndex(keys []string, k string) int {
	for i, x := range keys {
		if x == k {
			return i
		}
	}
	panic("evalcase: no key " + k)
}

// fastCase returns the case when the line is certainly a valid case.
// Invalid UTF-8 is left to the authoritative validation: encoding/json would
// repair it.
func fastCase(text []byte) (*caseWire, bool) {
	w := new(caseWire)
	return w, fastCaseInto(text, w)
}

// fastCaseInto is fastCase decoding into w, which must be zero but for the room its empty Assertions
// may have: pass 2 reuses one per line (caseWires).
func fastCaseInto(text []byte, w *caseWire) bool {
	// A null anywhere (even inside a string) sends the line to the
	// authoritative validation: a null would decode as an absent field.
	if !utf8.Valid(text) || bytes.Contains(text, nullLit) {
		return false
	}
	if present, ok := scanCase(text, w); ok {
		return w.clean(present)
	}
	*w = caseWire{recur: w.recur}
	ks, err := jsonCase(text, w)
	return err == nil && !ks.dup && !ks.unknown && w.clean(ks.present)
}

// reset makes w zero for the next line but for the room of its Assertions, RequiredTokens and Tags,
// kept (empty) for the next line's: nothing holds them past their line's grading.
func (w *caseWire) reset() {
	clear(w.Assertions)
	clear(w.RequiredTokens)
	clear(w.Tags)
	*w = caseWire{Assertions: w.Assertions[:0], RequiredTokens: w.RequiredTokens[:0], Tags: w.Tags[:0], recur: w.recur}
}

// caseWires are the caseWires pass 2 decodes lines into: the id and the assertions' mask are kept of
// each, and a graded case is read from it while its line is checked.
var caseWires = sync.Pool{New: func() any { return new(caseWire) }}

// jsonCase decodes a case line with encoding/json, and scans its keys.
func jsonCase(text []byte, w *caseWire) (keyScan, error) {
	if err := json.Unmarshal(text, w); err != nil {
		return keyScan{}, err
	}
	return scanKeys(text, caseKeys), nil
}

// clean applies every rule of validateCase to the typed case; present says
// which top-level keys the line has.
func (w *caseWire) clean(present uint32) bool {
	if present&requiredMask != requiredMask || w.SchemaVersion != 1 || len(w.Assertions) == 0 {
		return false
	}
	if checkID(w.ID) != nil || checkLocale("", w.SourceLocale) != nil || checkLocale("", w.TargetLocale) != nil ||
		strings.TrimSpace(w.Domain) == "" {
		return false
	}
	for _, t := range w.RequiredTokens {
		if t == "" {
			return false
		}
	}
	if present&difficultyBit != 0 && checkEnum("", w.Difficulty, Difficulties) != nil {
		return false
	}
	for _, t := range w.Tags {
		if checkTag(t) != nil {
			return false
		}
	}
	p := &w.Provenance
	if checkEnum("", p.Kind, ProvenanceKinds) != nil || checkLicense(p.License) != nil {
		return false
	}
	if p.Source != nil && strings.TrimSpace(*p.Source) == "" {
		return false
	}
	var seen uint8
	for _, a := range w.Assertions {
		if a.Severity != SeverityHard && a.Severity != SeverityReport {
			return false
		}
		i := assertionIndex(a.Name)
		if i < 0 || seen&(1<<i) != 0 {
			return false
		}
		seen |= 1 << i
		if !cleanParams(&Vocabulary[i], a.Params) {
			return false
		}
	}
	return true
}

// assertionIndex is name's index in Vocabulary, or -1.
func assertionIndex(name string) int {
	for i := range Vocabulary {
		if Vocabulary[i].Name == name {
			return i
		}
	}
	return -1
}

// mask says which assertions a valid case has (bit i: Vocabulary[i]) and
// which of them have severity report.
func (w *caseWire) mask() (asserts, report uint8) {
	for _, a := range w.Assertions {
		if i := assertionIndex(a.Name); i >= 0 {
			asserts |= 1 << i
			if a.Severity == SeverityReport {
				report |= 1 << i
			}
		}
	}
	return asserts, report
}

// cleanParams validates params with the authoritative rules. Params are
// small and fixtures repeat the same few, so results are remembered per
// assertion and params text.
func cleanParams(spec *Assertion, raw []byte) bool {
	return paramsValid[spec.Name].getBytes(raw)
}

// paramsValid remembers validParams for each assertion; "" stands for no params (a params text is
// never empty).
var paramsValid = func() map[string]*memo[bool] {
	m := make(map[string]*memo[bool], len(Vocabulary))
	for i := range Vocabulary {
		spec := &Vocabulary[i]
		m[spec.Name] = newMemo(1024, func(s string) bool {
			if s == "" {
				return validParams(spec, nil)
			}
			return validParams(spec, []byte(s))
		})
	}
	return m
}()

// validParams holds params with the authoritative rules (validateCase's), faults unsaid.
func validParams(spec *Assertion, raw []byte) bool {
	var params *frontmatter.Node
	if raw != nil {
		root, probs := frontmatter.ParseJSON(raw, 1)
		if len(probs) > 0 || root.Kind != frontmatter.Map {
			return false
		}
		params = root
	}
	var fs faults
	fs.params(spec, diag.Pos{Line: 1, Col: 1}, params, nil)
	return fs.total == 0
}

// candidateWire is a candidate as both paths read it (contract §5).
type candidateWire struct {
	CaseID      string  `json:"case_id"`
	Text        *string `json:"text"`         // nil for null, which is a fault
	RawResponse *string `json:"raw_response"` // nil when absent or null
}

// fastCandidate decodes a certainly valid candidate line.
func fastCandidate(text []byte) (*candidateWire, bool) {
	w := new(candidateWire)
	return w, fastCandidateInto(text, w, true)
}

// fastCandidateID is fastCandidate for pass 1, which needs only the case id of a valid candidate:
// the texts are checked, not kept.
func fastCandidateID(text []byte) (string, bool) {
	var w candidateWire
	ok := fastCandidateInto(text, &w, false)
	return w.CaseID, ok
}

// fastCandidateInto decodes a certainly valid candidate line into w, its texts only when keep.
func fastCandidateInto(text []byte, w *candidateWire, keep bool) bool {
	if !utf8.Valid(text) {
		return false
	}
	if present, ok := scanCandidate(text, w, keep); ok {
		return w.CaseID != "" && w.Text != nil && present&candidateNeeds == candidateNeeds
	}
	jw, ks, err := jsonCandidate(text)
	if err != nil || jw.CaseID == "" || jw.Text == nil || ks.dup || ks.unknown || ks.present&candidateNeeds != candidateNeeds {
		return false
	}
	*w = *jw
	return true
}

// jsonCandidate decodes a candidate line with encoding/json, and scans its keys.
func jsonCandidate(text []byte) (*candidateWire, keyScan, error) {
	w := new(candidateWire)
	if err := json.Unmarshal(text, w); err != nil {
		return nil, keyScan{}, err
	}
	return w, scanKeys(text, candidateKeys), nil
}
