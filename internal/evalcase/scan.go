package evalcase

import (
	"bytes"
	"strconv"

	"github.com/evalgate/evalgate/internal/jsonstr"
)

// scanCandidate is scanCase for a candidate line: it reads {case_id, text, raw_response} into w as
// encoding/json and scanKeys would, present being scanKeys', or says it is not sure. text must be
// valid UTF-8; a null may stand for raw_response. Unless keep, the texts are checked but not decoded:
// Text and RawResponse then point at noText, which only says that they are there.
func scanCandidate(text []byte, w *candidateWire, keep bool) (present uint32, ok bool) {
	s := scanner{b: text}
	ok = s.object(CandidateFields, func(k int, name []byte) bool {
		present |= 1 << k
		var to **string
		switch string(name) {
		case "case_id":
			return s.plainString(&w.CaseID)
		case "text":
			to = &w.Text
		case "raw_response":
			to = &w.RawResponse
		default:
			return false
		}
		if s.peek() == 'n' {
			// null: raw_response stays absent, as encoding/json leaves it; a null text is a fault,
			// which is not the scanner's to find.
			return to == &w.RawResponse && s.literal("null")
		}
		if !keep {
			*to = &noText
			return s.checkString()
		}
		var v string
		*to = &v
		return s.plainString(&v)
	})
	s.space()
	if !ok || s.i != len(text) {
		return 0, false
	}
	return present, true
}

// noText stands for a text scanCandidate checked and did not keep.
var noText string

// checkString passes a string plainString would read, without decoding it but for its escapes.
func (s *scanner) checkString() bool {
	tok, escaped, ok := s.stringToken()
	if !ok || !escaped {
		return ok
	}
	return jsonstr.Valid(tok)
}

// stringToken passes a string: its token, quotes included, and whether it has escapes.
func (s *scanner) stringToken() (tok []byte, escaped, ok bool) {
	if s.peek() != '"' {
		return nil, false, false
	}
	start := s.i
	if !s.skipString() {
		return nil, false, false
	}
	tok = s.b[start:s.i]
	return tok, bytes.IndexByte(tok, '\\') >= 0, true
}

// scanCase reads a case line of the usual shape into a caseWire without encoding/json (README "Results,
// scope and memory": fixtures at parse speed). It is the fast path's fast path: ok only when it is sure
// to read the line as encoding/json and scanKeys together would, and present then says which
// top-level keys the line has. Anything it does not follow (an escape in a string it keeps, a key it
// does not know, a repeated key, deep nesting, text that may not be JSON) is !ok, and the line goes
// to encoding/json as before; the scanner never decides that a line is invalid. text must be valid
// UTF-8 without a null (fastCase's precondition). FuzzScanCase checks that it agrees with
// encoding/json on every line it accepts.
func scanCase(text []byte, w *caseWire) (present uint32, ok bool) {
	s := scanner{b: text, recur: &w.recur}
	ok = s.object(caseKeys.allowed, func(k int, name []byte) bool {
		if present&(1<<k) != 0 {
			return false // repeated: scanKeys reports it
		}
		present |= 1 << k
		switch string(name) {
		case "schema_version":
			f, ok := s.number()
			w.SchemaVersion = f
			return ok
		case "id":
			return s.plainString(&w.ID)
		case "source_locale":
			return s.recurringString(&w.SourceLocale)
		case "target_locale":
			return s.recurringString(&w.TargetLocale)
		case "domain":
			return s.recurringString(&w.Domain)
		case "difficulty":
			return s.recurringString(&w.Difficulty)
		case "source":
			tok, _, ok := s.stringToken()
			w.Source = rawString(tok)
			return ok
		case "context":
			return s.peek() == '{' && s.value()
		case "references":
			return s.array(func() bool { return s.peek() == '"' && s.value() })
		case "required_tokens":
			return s.strings(&w.RequiredTokens)
		case "tags":
			return s.strings(&w.Tags)
		case "provenance":
			var seen uint32
			return s.object(ProvenanceFields, func(k int, name []byte) bool {
				if seen&(1<<k) != 0 {
					return false
				}
				seen |= 1 << k
				switch string(name) {
				case "kind":
					return s.recurringString(&w.Provenance.Kind)
				case "license":
					return s.recurringString(&w.Provenance.License)
				case "source":
					var src string
					ok := s.plainString(&src)
					w.Provenance.Source = &src
					return ok
				case "transformation":
					return s.recurringString(&w.Provenance.Transformation)
				}
				return false
			})
		case "assertions":
			w.Assertions = w.Assertions[:0] // the room a reused wire has kept
			if w.Assertions == nil {
				w.Assertions = []assertionWire{} // [] is empty, not absent, as encoding/json reads it
			}
			return s.array(func() bool {
				w.Assertions = append(w.Assertions, assertionWire{})
				a := &w.Assertions[len(w.Assertions)-1]
				var seen uint32
				ok := s.object(AssertionFields, func(k int, name []byte) bool {
					if seen&(1<<k) != 0 {
						return false
					}
					seen |= 1 << k
					switch string(name) {
					case "name":
						return s.recurringString(&a.Name)
					case "severity":
						return s.recurringString(&a.Severity)
					case "params":
						s.space()
						start := s.i
						if !s.value() {
							return false
						}
						a.Params = rawJSON(text[start:s.i])
						return true
					}
					return false
				})
				return ok
			})
		}
		return false
	})
	if !ok {
		return 0, false
	}
	s.space()
	if s.i != len(text) {
		return 0, false
	}
	return present, true
}

// scanner walks one line of JSON. Its methods return false where the line is not of the shape the fast
// path follows, not only where it is not JSON.
type scanner struct {
	b     []byte
	i     int
	depth int
	recur *recurring // the texts recurringString keeps from line to line; nil keeps none
}

// recurring holds texts that recur from case to case, each under itself: locales, domains, licenses,
// the values of enums, tags. A text it holds costs no allocation when read again. It takes the first
// maxRecurring texts of at most maxRecurringLen bytes its wire reads (from any file: a wire is used
// again), so texts that never recur cost what they did without it.
type recurring map[string]string

const (
	maxRecurring    = 64
	maxRecurringLen = 64
)

// of returns b as a string, the one r holds if it holds it; a nil r holds none.
func (r *recurring) of(b []byte) string {
	if r == nil {
		return string(b)
	}
	if s, ok := (*r)[string(b)]; ok {
		return s
	}
	s := string(b)
	r.hold(s, s)
	return s
}

// hold keeps v under key, within the table's bounds (maxRecurring texts, keys of at most
// maxRecurringLen bytes).
func (r *recurring) hold(key, v string) {
	if len(key) <= maxRecurringLen && len(*r) < maxRecurring {
		if *r == nil {
			*r = make(recurring, maxRecurring)
		}
		(*r)[key] = v
	}
}

// unquoted returns the JSON string tok (its quotes and escapes included) decoded, as jsonstr.Unquote
// decodes it, the one r holds if it holds it; false when tok is not one jsonstr.Unquote reads. A
// text with escapes is held under its token, quotes and all, which no text without escapes can be
// (it holds no quote).
func (r *recurring) unquoted(tok []byte) (string, bool) {
	if r != nil {
		if s, ok := (*r)[string(tok)]; ok {
			return s, true
		}
	}
	v, ok := jsonstr.Unquote(tok)
	if ok && r != nil {
		r.hold(string(tok), v)
	}
	return v, ok
}

// maxScanDepth and maxScanKeys are scanKeys' limits: past them, encoding/json decides.
const (
	maxScanDepth = 16
	maxScanKeys  = maxFastKeys
	maxAnyKeys   = 16 // in an object of any keys (params, context), which is small
)

func (s *scanner) space() { s.i = skipSpace(s.b, s.i) }

func (s *scanner) peek() byte {
	s.space()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// object reads an object whose keys are among allowed (nil: any), calling member with the key's
// index and name, its value next.
func (s *scanner) object(allowed []string, member func(k int, name []byte) bool) bool {
	empty, ok := s.enter('{', '}')
	if !ok || empty {
		return ok
	}
	defer func() { s.depth-- }()
	var seen uint32                // the allowed keys met
	var names [maxAnyKeys][2]int32 // where the keys met are in s.b, when any key is allowed
	for n := 0; ; n++ {
		if n >= maxScanKeys || allowed == nil && n >= maxAnyKeys || s.peek() != '"' {
			return false
		}
		start := s.i
		name, ok := s.plainBytes()
		if !ok || s.peek() != ':' {
			return false
		}
		s.i++
		k := -1
		if allowed != nil {
			if k = keyAt(allowed, name); k < 0 || k >= 32 || seen&(1<<k) != 0 {
				return false // unknown, or repeated: scanKeys reports it
			}
			seen |= 1 << k
		} else {
			for _, prev := range names[:n] {
				if bytes.Equal(s.b[prev[0]:prev[1]], name) {
					return false // repeated: scanKeys reports it
				}
			}
			names[n] = [2]int32{int32(start + 1), int32(start + 1 + len(name))} // after the quote
		}
		if !member(k, name) {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// enter passes the open bracket of an object or array and says whether the value is empty, which it
// then passes whole. A value it enters and does not pass adds to the depth, which the caller gives back
// once past the close bracket. Past maxScanDepth it says it is not sure.
func (s *scanner) enter(open, close byte) (empty, ok bool) {
	if s.peek() != open || s.depth >= maxScanDepth {
		return false, false
	}
	s.i++
	if s.peek() == close {
		s.i++
		return true, true
	}
	s.depth++
	return false, true
}

// array reads an array, calling item for each element.
func (s *scanner) array(item func() bool) bool {
	empty, ok := s.enter('[', ']')
	if !ok || empty {
		return ok
	}
	defer func() { s.depth-- }()
	for {
		if !item() {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return true
		default:
			return false
		}
	}
}

// plainBytes reads a string without escapes or control characters and returns its contents.
func (s *scanner) plainBytes() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, false
	}
	start := s.i + 1
	end := bytes.IndexByte(s.b[start:], '"')
	if end < 0 {
		return nil, false
	}
	body := s.b[start : start+end]
	for _, c := range body {
		if c < 0x20 || c == '\\' {
			return nil, false
		}
	}
	s.i = start + end + 1
	return body, true
}

// strings reads an array of plain strings into a slice that is empty, not nil, for []. Its items are
// the kind that recur (tags, tokens).
func (s *scanner) strings(to *[]string) bool {
	*to = (*to)[:0] // the room a reused wire has kept
	if *to == nil {
		*to = []string{} // [] is empty, not absent, as encoding/json reads it
	}
	return s.array(func() bool {
		var t string
		ok := s.recurringString(&t)
		*to = append(*to, t)
		return ok
	})
}

// plainString reads a string value into to: as it is without escapes, else decoded by encoding/json,
// which reads a string alone exactly as it reads it inside an object.
func (s *scanner) plainString(to *string) bool { return s.stringInto(to, nil) }

// recurringString is plainString for a value that recurs from line to line (see recurring): one
// without escapes is read through s.recur.
func (s *scanner) recurringString(to *string) bool { return s.stringInto(to, s.recur) }

func (s *scanner) stringInto(to *string, recur *recurring) bool {
	tok, escaped, ok := s.stringToken()
	if !ok {
		return false
	}
	if !escaped {
		*to = recur.of(tok[1 : len(tok)-1])
		return true
	}
	v, ok := recur.unquoted(tok) // as json.Unmarshal decodes it, several times faster
	*to = v
	return ok
}

// number reads a JSON number as encoding/json reads it into a float64.
func (s *scanner) number() (float64, bool) {
	s.space()
	start := s.i
	if !s.skipNumber() {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(s.b[start:s.i]), 64)
	return f, err == nil
}

// skipNumber passes a number of JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) skipNumber() bool {
	s.space()
	b, i := s.b, s.i
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	s.i = i
	return true
}

// skipString passes a string whose escapes are JSON's and which holds no control character.
func (s *scanner) skipString() bool {
	b, i := s.b, s.i+1
	for i < len(b) {
		switch c := b[i]; {
		case c == '"':
			s.i = i + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if i+1 >= len(b) {
				return false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return false
				}
				for _, h := range b[i+2 : i+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return false
					}
				}
				i += 6
			default:
				return false
			}
		default:
			i++
		}
	}
	return false
}

// value passes any JSON value but null (a null anywhere sends the line away before the scan).
func (s *scanner) value() bool {
	switch s.peek() {
	case '"':
		return s.skipString()
	case '{':
		return s.object(nil, func(int, []byte) bool { return s.value() })
	case '[':
		return s.array(func() bool { return s.value() })
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	}
	return s.skipNumber()
}

func (s *scanner) literal(word string) bool {
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		return false
	}
	s.i += len(word)
	return true
}
