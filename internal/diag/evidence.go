package diag

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Bounds of a result's evidence (README "Results", bounded evidence): one
// hostile input cannot make a report larger than itself.
const (
	// MaxEvidenceItems is the most items a list of evidence keeps.
	MaxEvidenceItems = 100
	// MaxEvidenceString is the longest string of evidence, in bytes of
	// UTF-8, the closing "…" included.
	MaxEvidenceString = 4 << 10
	// MaxEvidenceBytes is the most bytes the whole evidence takes as
	// compact JSON (encoding/json's Marshal, HTML escaping included).
	MaxEvidenceBytes = 64 << 10
)

// Keys that BoundEvidence adds.
const (
	// TotalSuffix: a list under key X that lost items has its full count
	// under X + TotalSuffix in the same object.
	TotalSuffix = "_total"
	// TruncatedKey holds true in the top-level evidence when anything was
	// cut or dropped.
	TruncatedKey = "truncated"
)

// ellipsis ends a cut string.
const ellipsis = "…"

// BoundEvidence returns ev within the evidence bounds:
//   - a list of more than MaxEvidenceItems items keeps the first ones, and
//     its key X gains a sibling X_total with the full count (a list inside a
//     list has no key: it is cut without a count);
//   - a string longer than MaxEvidenceString bytes is cut at a UTF-8
//     boundary and ends with "…" (map keys too);
//   - when the whole is still larger than MaxEvidenceBytes as JSON, the
//     largest values are cut (lists lose items, strings characters, objects
//     entries) or dropped, the smaller ones first kept whole;
//   - whenever anything was cut, the top level has "truncated": true.
//
// Evidence already within the bounds is returned as it is, so that bounding
// twice is bounding once. Otherwise ev is not modified: the result is a
// copy. Values are those of Result.Evidence; a value of another type whose
// JSON is longer than MaxEvidenceString becomes that JSON, cut, as a
// string.
func BoundEvidence(ev map[string]any) map[string]any {
	if ev == nil || fitsAtOnce(ev) || (within(ev) && jsonSize(ev) <= MaxEvidenceBytes) {
		return ev
	}
	b := &bounder{}
	capped := b.object(ev)
	limit := MaxEvidenceBytes - (jsonSize(TruncatedKey) + len(":true,"))
	out := capped
	if jsonSize(capped) > limit {
		b.cut = true
		out = map[string]any{}
		// fitObject's sizes are upper bounds, so one round is enough; the
		// rounds after it are a safety net.
		for budget, round := limit, 0; budget > 2 && round < 8; round++ {
			fitted := fitObject(capped, budget)
			over := jsonSize(fitted) - limit
			if over <= 0 {
				out = fitted
				break
			}
			budget -= over
		}
	}
	if b.cut {
		out[TruncatedKey] = true
	}
	return out
}

// fitsAtOnce reports, in one walk that stops as soon as it can tell, that ev keeps every bound by a
// cruder measure than within and jsonSize: each string counted as if every byte were escaped to six.
// Most evidence is far inside the bounds, and this is all it costs; evidence this cannot vouch for
// is measured exactly.
func fitsAtOnce(ev map[string]any) bool {
	w := evidenceWalk{room: MaxEvidenceBytes}
	return w.walk(ev)
}

// ScanEvidence walks ev once, as a report takes in each result (README "Evidence"): fits says that
// BoundEvidence returns it as it is; valid that every string of it, keys included, is valid UTF-8;
// size estimates the memory it holds. A walk that finds it does not fit still measures the rest.
func ScanEvidence(ev map[string]any) (fits, valid bool, size int) {
	if ev == nil {
		return true, true, 0
	}
	w := evidenceWalk{room: MaxEvidenceBytes, whole: true, valid: true}
	fits = w.walk(ev)
	return fits, w.valid, w.size
}

// evidenceWalk is one walk over evidence. It takes room down by fitsAtOnce's measure; a whole walk
// goes on where that measure fails, checks UTF-8 and adds up size.
type evidenceWalk struct {
	room, size int
	whole      bool
	valid      bool
}

// walk reports whether v fits by the crude measure; a walk that is not whole stops at the first
// value that does not.
func (w *evidenceWalk) walk(v any) bool {
	fits := true
	switch x := v.(type) {
	case nil, bool:
		w.room -= 5
		w.size += 16
	case int, int64:
		w.room -= 20
		w.size += 16
	case float64:
		w.room -= 28
		w.size += 16
	case string:
		w.room -= 6*len(x) + 2
		fits = len(x) <= MaxEvidenceString
		if w.whole {
			w.size += 16 + len(x)
			w.valid = w.valid && utf8.ValidString(x)
		}
	case []any:
		w.room -= 2 + len(x)
		w.size += 24
		fits = len(x) <= MaxEvidenceItems
		for _, e := range x {
			if !fits && !w.whole {
				return false
			}
			fits = w.walk(e) && fits
		}
	case map[string]any:
		w.room -= 2 + len(x)
		w.size += 48
		for k, e := range x {
			if !fits && !w.whole {
				return false
			}
			w.room -= 6*len(k) + 3
			fits = len(k) <= MaxEvidenceString && fits
			if w.whole {
				w.size += 16 + len(k)
				w.valid = w.valid && utf8.ValidString(k)
			}
			fits = w.walk(e) && fits
		}
	default:
		fits = false // other types are normalized by a copy
		w.size += 16
	}
	return fits && w.room >= 0
}

// within reports whether v keeps the per-list and per-string bounds.
func within(v any) bool {
	switch x := v.(type) {
	case nil, bool, int, int64, float64:
		return true
	case string:
		return len(x) <= MaxEvidenceString
	case []any:
		if len(x) > MaxEvidenceItems {
			return false
		}
		for _, e := range x {
			if !within(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for k, e := range x {
			if len(k) > MaxEvidenceString || !within(e) {
				return false
			}
		}
		return true
	}
	return false // other types are normalized by a copy
}

// bounder copies evidence within the per-list and per-string bounds; cut
// says whether it had to cut anything.
type bounder struct{ cut bool }

func (b *bounder) value(v any) any {
	switch x := v.(type) {
	case nil, bool, int, int64, float64:
		return x
	case string:
		return b.str(x)
	case []any:
		n := min(len(x), MaxEvidenceItems)
		b.cut = b.cut || n < len(x)
		out := make([]any, n)
		for i := range n {
			out[i] = b.value(x[i])
		}
		return out
	case map[string]any:
		return b.object(x)
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			break // []byte and json.RawMessage: JSON scalars
		}
		n := min(rv.Len(), MaxEvidenceItems)
		b.cut = b.cut || n < rv.Len()
		out := make([]any, n)
		for i := range n {
			out[i] = b.value(rv.Index(i).Interface())
		}
		return out
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			break
		}
		m := make(map[string]any, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			m[it.Key().String()] = it.Value().Interface()
		}
		return b.object(m)
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return v
	}
	js, err := json.Marshal(v)
	if err != nil {
		b.cut = true
		return b.str(err.Error())
	}
	if len(js) <= MaxEvidenceString {
		return v
	}
	return b.str(string(js))
}

func (b *bounder) str(s string) string {
	if len(s) <= MaxEvidenceString {
		return s
	}
	b.cut = true
	return cutString(s, MaxEvidenceString)
}

// object copies an object. A list under key X that lost items gains X_total,
// its full count, unless the object already has a larger X_total (the
// count of a producer that stopped collecting). Keys are visited in order,
// so that a clash of cut keys keeps the first.
func (b *bounder) object(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		key := b.str(k)
		if _, dup := out[key]; dup {
			continue
		}
		out[key] = b.value(m[k])
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if n := listLen(m[k]); n > MaxEvidenceItems {
			total := b.str(k) + TotalSuffix
			if t, ok := out[total].(int); !ok || t < n {
				out[total] = n
			}
		}
	}
	return out
}

// listLen is the length of v when it is a list (not []byte), else -1.
func listLen(v any) int {
	if x, ok := v.([]any); ok {
		return len(x)
	}
	rv := reflect.ValueOf(v)
	if (rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array) && rv.Type().Elem().Kind() != reflect.Uint8 {
		return rv.Len()
	}
	return -1
}

// ClipRunes cuts s to its first n code points (an invalid byte counts as one) and marks the cut with
// "…": for text quoted in a message or evidence at a length a reader can take in, where cutString
// bounds bytes.
func ClipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for range n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + ellipsis
}

// BoundMessage cuts a result's message to MaxEvidenceString bytes, as an evidence string is, and marks
// the cut with "…": a message that quotes what it found (a 200 KB link) cannot make an annotation or a
// report line of that size.
func BoundMessage(s string) string { return cutString(s, MaxEvidenceString) }

// cutString cuts s to at most n bytes, "…" included, at a UTF-8 boundary.
func cutString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := max(0, n-len(ellipsis))
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + ellipsis
}

// fitObject returns a copy of m (already within the per-list and per-string
// bounds) whose JSON takes about budget bytes at most. Entries are visited
// from the smallest to the largest; each gets at most an equal share of
// what is left, and what a smaller one does not use goes to the larger
// ones. A value over its share is cut; one that cannot be cut is dropped.
func fitObject(m map[string]any, budget int) map[string]any {
	type entry struct {
		key  string
		size int // of "key":value,
	}
	entries := make([]entry, 0, len(m))
	for k, v := range m {
		entries = append(entries, entry{k, jsonSize(k) + 2 + jsonSize(v)})
	}
	slices.SortFunc(entries, func(a, b entry) int {
		if a.size != b.size {
			return a.size - b.size
		}
		if a.key < b.key {
			return -1
		}
		return 1
	})
	out := make(map[string]any, len(m))
	left := budget - 2 // the braces
	for i, e := range entries {
		if _, done := out[e.key]; done {
			continue // an X_total written with its list
		}
		share := left / (len(entries) - i)
		if e.size <= share {
			out[e.key] = m[e.key]
			left -= e.size
			continue
		}
		keyCost := jsonSize(e.key) + 2
		v := m[e.key]
		total := ""
		if n := listLen(v); n >= 0 {
			total = e.key + TotalSuffix
			if _, has := m[total]; !has {
				keyCost += jsonSize(total) + 2 + 20 // the count, at most 20 digits
			}
		}
		cut, ok := fitValue(v, share-keyCost)
		if !ok {
			continue
		}
		out[e.key] = cut
		if total != "" {
			if t, has := m[total]; has {
				out[total] = t
			} else {
				out[total] = listLen(v)
			}
		}
		left -= jsonSize(e.key) + 2 + jsonSize(cut)
		if total != "" {
			if _, has := m[total]; !has {
				left -= jsonSize(total) + 2 + jsonSize(out[total])
			}
		}
	}
	return out
}

// fitValue cuts v to at most room bytes of JSON; false when it cannot.
func fitValue(v any, room int) (any, bool) {
	if jsonSize(v) <= room {
		return v, true
	}
	switch x := v.(type) {
	case string:
		// The quotes and the ellipsis, then as many bytes as fit.
		if room < 2+len(ellipsis) {
			return nil, false
		}
		avail, end := room-2-len(ellipsis), 0
		for end < len(x) {
			r, size := utf8.DecodeRuneInString(x[end:])
			c := runeJSONSize(r, size)
			if c > avail {
				break
			}
			avail -= c
			end += size
		}
		return x[:end] + ellipsis, true
	case []any:
		if room < 2 {
			return nil, false
		}
		left, out := room-2, []any{}
		for _, e := range x {
			s := jsonSize(e) + 1
			if s > left {
				if len(out) == 0 {
					if c, ok := fitValue(e, left-1); ok {
						out = append(out, c)
					}
				}
				break
			}
			out = append(out, e)
			left -= s
		}
		return out, true
	case map[string]any:
		if room < 2 {
			return nil, false
		}
		return fitObject(x, room), true
	}
	return nil, false
}

// jsonSize is an upper bound of the bytes of v as compact JSON: exact but
// for strings, where every character that encoding/json may escape counts
// as its longest escape.
func jsonSize(v any) int {
	switch x := v.(type) {
	case nil:
		return 4
	case bool:
		if x {
			return 4
		}
		return 5
	case int:
		return len(strconv.Itoa(x))
	case int64:
		return len(strconv.FormatInt(x, 10))
	case float64:
		return len(strconv.FormatFloat(x, 'g', -1, 64)) + 4 // exponent forms may differ
	case string:
		n := 2
		for i := 0; i < len(x); {
			r, size := utf8.DecodeRuneInString(x[i:])
			n += runeJSONSize(r, size)
			i += size
		}
		return n
	case []any:
		n := 2 + max(0, len(x)-1)
		for _, e := range x {
			n += jsonSize(e)
		}
		return n
	case map[string]any:
		n := 2 + max(0, len(x)-1)
		for k, e := range x {
			n += jsonSize(k) + 1 + jsonSize(e)
		}
		return n
	}
	js, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return len(js)
}

// runeJSONSize is the most bytes encoding/json writes for one rune of a
// string: \u00XX for controls, HTML characters, U+2028/U+2029 and invalid
// bytes (as \ufffd).
func runeJSONSize(r rune, size int) int {
	switch {
	case r == utf8.RuneError && size == 1:
		return 6
	case r < 0x20, r == '<', r == '>', r == '&', r == '\u2028', r == '\u2029':
		return 6
	case r == '"', r == '\\':
		return 2
	}
	return size
}

// PutList stores a list of n items in ev[key] the way BoundEvidence would
// keep it, for producers that stop collecting at the bound: item(i) is
// called only for the first MaxEvidenceItems indexes, and a longer list
// adds key+TotalSuffix (n) and TruncatedKey.
func PutList(ev map[string]any, key string, n int, item func(i int) any) {
	k := min(n, MaxEvidenceItems)
	list := make([]any, k)
	for i := range k {
		list[i] = item(i)
	}
	ev[key] = list
	if n > k {
		ev[key+TotalSuffix] = n
		ev[TruncatedKey] = true
	}
}
