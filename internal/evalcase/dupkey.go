package evalcase

import (
	"bytes"

	"github.com/evalgate/evalgate/internal/jsonstr"
)

// maxFastKeys is how many keys one object may have before scanKeys doubts
// the line instead of comparing keys pairwise.
const maxFastKeys = 64

// maxFastDepth is the deepest nesting scanKeys follows (the root is level
// 1); a deeper line is doubted. It is below frontmatter.ParseJSON's limit of
// 1,000 levels, which the authoritative validation applies, and far above
// any real case.
const maxFastDepth = 512

// keySchema says which keys an object may have: the fast path's stand-in
// for json.Decoder.DisallowUnknownFields, found in the same walk as
// duplicate keys.
type keySchema struct {
	allowed []string              // nil: any key (an open object)
	child   map[string]*keySchema // the schema of an object or array under a key
	items   *keySchema            // the schema of an array's items
}

var (
	caseKeys = &keySchema{
		allowed: append(append([]string(nil), RequiredFields...), OptionalFields...),
		child: map[string]*keySchema{
			"provenance": {allowed: ProvenanceFields},
			"assertions": {items: &keySchema{allowed: AssertionFields}},
		},
	}
	candidateKeys = &keySchema{allowed: CandidateFields}
)

// keyScan is what scanKeys found.
type keyScan struct {
	dup     bool // a key repeats inside one object
	unknown bool // a key schema does not allow, or a line scanKeys cannot judge
	// present has bit i set when the root object has the key
	// schema.allowed[i] (the first 32).
	present uint32
}

// scanKeys walks text, which must be valid JSON (encoding/json has accepted
// it), for the first key that repeats inside one object (encoding/json
// silently keeps the last of two) and for keys schema does not allow. Keys
// are compared as raw bytes; a line whose keys hold escapes, with a very
// large object or nested deeper than maxFastDepth counts as holding an
// unknown key: the fast path doubts it, and the authoritative validation,
// which compares decoded keys, decides.
func scanKeys(text []byte, schema *keySchema) keyScan {
	type frame struct {
		object    bool
		expectKey bool
		first     int        // index in keys of this object's first key
		schema    *keySchema // nil: nothing to check
		pending   *keySchema // the schema of the current member's value
	}
	var (
		stackBuf [16]frame
		keysBuf  [64][2]int
		ks       keyScan
	)
	doubt := keyScan{unknown: true}
	stack := stackBuf[:0]
	keys := keysBuf[:0] // [start, end) of each key of the open objects, quotes excluded
	for i := 0; i < len(text); {
		switch c := text[i]; c {
		case '"':
			end := jsonstr.End(text, i)
			if end < 0 {
				return ks // not valid JSON: nothing to say
			}
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].expectKey {
				top := &stack[n-1]
				k := text[i+1 : end-1]
				if bytes.IndexByte(k, '\\') >= 0 || len(keys)-top.first >= maxFastKeys {
					return doubt
				}
				for _, prev := range keys[top.first:] {
					if bytes.Equal(text[prev[0]:prev[1]], k) {
						return keyScan{dup: true}
					}
				}
				keys = append(keys, [2]int{i + 1, end - 1})
				top.expectKey, top.pending = false, nil
				if s := top.schema; s != nil {
					if s.allowed != nil {
						i := keyAt(s.allowed, k)
						switch {
						case i < 0:
							ks.unknown = true
						case n == 1 && i < 32:
							ks.present |= 1 << i
						}
					}
					top.pending = s.child[string(k)]
				}
			}
			i = end
		case '{', '[':
			var s *keySchema
			switch n := len(stack); {
			case n == 0:
				s = schema
			case stack[n-1].object:
				s = stack[n-1].pending
			case stack[n-1].schema != nil:
				s = stack[n-1].schema.items
			}
			if len(stack) >= maxFastDepth {
				return doubt
			}
			stack = append(stack, frame{object: c == '{', expectKey: c == '{', first: len(keys), schema: s})
			i++
		case '}', ']':
			if n := len(stack); n > 0 {
				if stack[n-1].object {
					keys = keys[:stack[n-1].first]
				}
				stack = stack[:n-1]
			}
			i++
		case ',':
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].expectKey = true
			}
			i++
		default:
			i++
		}
	}
	return ks
}

// keyAt returns k's index in keys, or -1, without allocating.
func keyAt(keys []string, k []byte) int {
	for i, a := range keys {
		if a == string(k) {
			return i
		}
	}
	return -1
}
