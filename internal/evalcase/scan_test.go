package evalcase

import (
	"bytes"
	"reflect"
	"strconv"
	"testing"
	"unicode/utf8"
)

// scanSeeds are case lines of the shapes fixtures have, and near misses.
var scanSeeds = []string{
	seedCase,
	`{"schema_version": 1, "id": "a.b", "source_locale": "en-US", "target_locale": "fr-FR", "domain": "ui", "source": "Hi \"you\"\n", "assertions": [{"name": "max_chars", "severity": "report", "params": {"max": 80, "unit": "graphemes"}}], "provenance": {"kind": "synthetic", "license": "MIT", "source": "s"}, "context": {"a": [1, 2.5e3, true, false, {"b": "c"}]}, "references": ["r"], "required_tokens": ["<b>"], "difficulty": "basic", "tags": []}`,
	`{"schema_version": 1.0, "id": "a.b"}`,
	`{"schema_version": 01, "id": "a.b"}`,
	`{"id": "a\u0062"}`,
	`{"ID": "a"}`,
	`{"context": {"a": 1, "a": 2}}`,
	`{"tags": ["x"], "tags": ["y"]}`,
	` {"references": []}  `,
	`{"source": "\x"}`,
	`{"assertions": [{"name": "a", "name": "b"}]}`,
	`{"provenance": {"kind": "k", "other": 1}}`,
}

// threeAssertions is a case line with three assertions, to leave room in a wire.
const threeAssertions = `{"assertions": [{"name": "a", "severity": "report", "params": {"x": 1}}, {"name": "b"}, {"name": "c", "params": [2]}], "required_tokens": ["x", "y"], "tags": ["t"]}`

// TestScanCaseAgrees: on the seeds, the scanner either declines or reads the line as encoding/json
// and scanKeys do.
func TestScanCaseAgrees(t *testing.T) {
	accepted := 0
	for _, s := range scanSeeds {
		if scanAgrees(t, []byte(s)) {
			accepted++
		}
	}
	if accepted < 3 {
		t.Errorf("the scanner read only %d seed lines; the usual shapes must not all fall back", accepted)
	}
}

// FuzzScanCase: whatever the line, a line the scanner reads is one encoding/json reads the same,
// with the same keys present and none repeated or unknown.
func FuzzScanCase(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) { scanAgrees(t, line) })
}

// scanAgrees fails t when scanCase reads line otherwise than jsonCase; it reports whether the scanner
// read it.
func scanAgrees(t *testing.T, line []byte) bool {
	t.Helper()
	if bytes.Contains(line, nullLit) {
		return false // fastCase sends such lines elsewhere before any scan
	}
	scan := func(b []byte) (*caseWire, uint32, bool) {
		w := new(caseWire)
		present, ok := scanCase(b, w)
		// A wire used again, with room from a line of three assertions, two required tokens and a
		// tag, reads the same.
		again := new(caseWire)
		scanCase([]byte(threeAssertions), again)
		again.reset()
		presentAgain, okAgain := scanCase(b, again)
		if len(again.Assertions) == 0 && w.Assertions == nil {
			again.Assertions = nil // the room, empty, where a fresh wire has none
		}
		for _, room := range []struct{ again, fresh *[]string }{{&again.RequiredTokens, &w.RequiredTokens}, {&again.Tags, &w.Tags}} {
			if len(*room.again) == 0 && *room.fresh == nil {
				*room.again = nil
			}
		}
		// The texts each wire keeps to read again are not what it read: the values read through
		// them, compared, are.
		w.recur, again.recur = nil, nil
		if presentAgain != present || okAgain != ok || ok && !reflect.DeepEqual(again, w) {
			t.Fatalf("a reused wire read\n%+v\na fresh one\n%+v\nfrom %q", again, w, b)
		}
		return w, present, ok
	}
	decode := func(b []byte) (*caseWire, keyScan, error) {
		w := new(caseWire)
		ks, err := jsonCase(b, w)
		return w, ks, err
	}
	return agrees(t, line, scan, decode)
}

// agrees fails t when scan reads line otherwise than decode (encoding/json and scanKeys) does: a line
// decode refuses or doubts, other keys present, another value. It reports whether scan read the line.
func agrees[W any](t *testing.T, line []byte, scan func([]byte) (W, uint32, bool), decode func([]byte) (W, keyScan, error)) bool {
	t.Helper()
	if !utf8.Valid(line) {
		return false // the fast path's precondition
	}
	w, present, ok := scan(line)
	if !ok {
		return false
	}
	want, ks, err := decode(line)
	switch {
	case err != nil:
		t.Fatalf("the scanner read a line encoding/json refuses (%v): %q", err, line)
	case ks.dup || ks.unknown:
		t.Fatalf("the scanner read a line scanKeys doubts (%+v): %q", ks, line)
	case present != ks.present:
		t.Fatalf("present %b, scanKeys %b: %q", present, ks.present, line)
	case !reflect.DeepEqual(w, want):
		t.Fatalf("the scanner read\n%+v\nencoding/json\n%+v\nfrom %q", w, want, line)
	}
	return true
}

// candidateSeeds are candidate lines, and near misses.
var candidateSeeds = []string{
	seedCandidate,
	`{"case_id": "a.b", "text": "x", "raw_response": null}`,
	`{"case_id": "a.b", "text": null}`,
	`{"case_id": "a.b", "text": "\u00e9\ud800", "text": "y"}`,
	`{"case_id": "a.b", "text": "x", "extra": 1}`,
	`{"case_id": "a\"b", "text": "x\ny"}`,
}

// FuzzScanCandidate: a candidate line the scanner reads is one encoding/json reads the same, with
// the same keys present and none repeated or unknown; scanning it without keeping its texts reads
// the same lines, the same id and the same keys, and the fast path's case id for pass 1 is the fast
// path's.
func FuzzScanCandidate(f *testing.F) {
	for _, s := range candidateSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		scan := func(b []byte) (*candidateWire, uint32, bool) {
			w := new(candidateWire)
			present, ok := scanCandidate(b, w, true)
			var checked candidateWire
			presentChecked, okChecked := scanCandidate(b, &checked, false)
			if okChecked != ok || ok && (presentChecked != present || checked.CaseID != w.CaseID ||
				(checked.Text != nil) != (w.Text != nil) || (checked.RawResponse != nil) != (w.RawResponse != nil)) {
				t.Fatalf("scanning without the texts reads %+v %b %v, with them %+v %b %v: %q", checked, presentChecked, okChecked, w, present, ok, b)
			}
			return w, present, ok
		}
		agrees(t, line, scan, jsonCandidate)
		w, ok := fastCandidate(line)
		id, idOK := fastCandidateID(line)
		if idOK != ok || ok && id != w.CaseID {
			t.Fatalf("fastCandidateID reads %q %v, fastCandidate %+v %v: %q", id, idOK, w, ok, line)
		}
	})
}

// TestRecurring: a text read again through the table is the same text and costs no allocation; the
// table takes no text longer than maxRecurringLen and no more than maxRecurring texts.
func TestRecurring(t *testing.T) {
	var none *recurring
	if got := none.of([]byte("en")); got != "en" {
		t.Fatalf("a nil table reads %q", got)
	}
	var r recurring
	if got := r.of([]byte("fr-FR")); got != "fr-FR" {
		t.Fatalf("of = %q", got)
	}
	if n := testing.AllocsPerRun(100, func() { _ = r.of([]byte("fr-FR")) }); n != 0 {
		t.Errorf("a held text costs %v allocations", n)
	}
	long := bytes.Repeat([]byte("a"), maxRecurringLen+1)
	if got := r.of(long); got != string(long) || len(r) != 1 {
		t.Errorf("a long text: %d held", len(r))
	}
	for i := range 2 * maxRecurring {
		if got, want := r.of([]byte(strconv.Itoa(i))), strconv.Itoa(i); got != want {
			t.Fatalf("of(%q) = %q", want, got)
		}
	}
	if len(r) != maxRecurring {
		t.Errorf("%d texts held, want %d", len(r), maxRecurring)
	}

	// Texts with escapes are held under their tokens, apart from the same text without them.
	var e recurring
	if got := e.of([]byte("<b>")); got != "<b>" {
		t.Fatalf("of = %q", got)
	}
	for range 2 {
		if got, ok := e.unquoted([]byte(`"\u003cb\u003e"`)); !ok || got != "<b>" {
			t.Fatalf("unquoted = %q, %v", got, ok)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = e.unquoted([]byte(`"\u003cb\u003e"`)) }); n != 0 {
		t.Errorf("a held text with escapes costs %v allocations", n)
	}
	if got, ok := e.unquoted([]byte(`"\x"`)); ok || len(e) != 2 {
		t.Errorf("an invalid escape reads %q, %v; %d held", got, ok, len(e))
	}
	if got, ok := none.unquoted([]byte(`"a\nb"`)); !ok || got != "a\nb" {
		t.Errorf("a nil table unquotes %q, %v", got, ok)
	}
}
