package evalcase

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

// Fuzz targets: the JSONL reader with the schema and the
// assertions behind it, and each placeholder tokenizer. Invariants: no
// panic, positions inside the input, tokens are substrings of it.

var tokenizerSeeds = []string{
	"", "%", "%%", "%s", "%1$s %2$d", "%-+#0'*.*hhd", "%(name)s %(n)-5.2f", "%%(x)s", "100% sure", "％s % s",
	"{", "}", "{}", "{{}}", "{name}", "{0}", "{n:>5}", "{n!r}", "{n!r:^{w}}", "{a.b[c]}", "{{{x}}}", "{:{}}",
	"{n, number}", "{d, date, short}", "{n, plural, one {# {a}} other {# {b}}}", "{g, select, m {x} other {y}}",
	"{n, plural, offset:1 =0 {'{'} other {'#'}}}", "'{x}' '' '", "{n, selectordinal, one {#st} other {#th}}",
	"{a, select, x {{b, plural, other {{c, select, y {{d}} other {}}}}} other {}}",
	strings.Repeat("{a, plural, other {", 100) + strings.Repeat("}}", 100),
	"\xff{\xfe}%\x80s", "{名前} %ｓ ｛x｝",
}

// checkSkipSound asserts what tokenize's skipping rests on: no placeholder
// of syntax starts at a byte outside placeholderStarts, so jumping to the
// next of those bytes passes over none.
func checkSkipSound(t *testing.T, s, syntax string) {
	for i := range len(s) {
		if strings.IndexByte(placeholderStarts, s[i]) >= 0 {
			continue
		}
		if tok, ok := scanAt(s, i, syntax); ok {
			t.Fatalf("%s: %q holds placeholder %q at %d, a byte tokenize skips", syntax, s, tok.Text, i)
		}
	}
}

// checkTokens asserts the tokenizer invariants for one syntax.
func checkTokens(t *testing.T, s, syntax string) []token {
	checkSkipSound(t, s, syntax)
	toks := tokenize(s, syntax, nil)
	end := 0
	for _, tok := range toks {
		if tok.Off < end || tok.Off+len(tok.Text) > len(s) || len(tok.Text) == 0 {
			t.Fatalf("%s: token %q at %d overlaps or leaves %q", syntax, tok.Text, tok.Off, s)
		}
		if s[tok.Off:tok.Off+len(tok.Text)] != tok.Text {
			t.Fatalf("%s: token %q is not the input at %d", syntax, tok.Text, tok.Off)
		}
		if tok.ID == "" || tok.Base == "" {
			t.Fatalf("%s: token %q has no identity", syntax, tok.Text)
		}
		end = tok.Off + len(tok.Text)
	}
	// A text always keeps its own placeholders.
	if v := comparePlaceholders(toks, toks, s, false); len(v.faults) != 0 {
		t.Fatalf("%s: %q compared with itself: %+v", syntax, s, v.faults)
	}
	return toks
}

func fuzzTokenizer(f *testing.F, syntax string) {
	for _, s := range tokenizerSeeds {
		f.Add(s, "")
	}
	f.Add("%s and %s", "%s")
	f.Add("{a} {b}", "{b} { a }")
	f.Fuzz(func(t *testing.T, source, candidate string) {
		exp := checkTokens(t, source, syntax)
		act := checkTokens(t, candidate, syntax)
		// Comparing two texts never panics, and every fault has a code of
		// the assertion.
		v := comparePlaceholders(exp, act, candidate, true)
		for _, f := range v.faults {
			if codeRank(f.code) >= len(codeOrder) {
				t.Fatalf("unknown code %q", f.code)
			}
		}
	})
}

func FuzzPrintf(f *testing.F) { fuzzTokenizer(f, SyntaxPrintf) }
func FuzzPython(f *testing.F) { fuzzTokenizer(f, SyntaxPython) }

func FuzzICU(f *testing.F) {
	fuzzTokenizer(f, SyntaxICU)
}

// FuzzAuto covers the union (and runs with the others in the fuzz budget
// only when asked for).
func FuzzAuto(f *testing.F) { fuzzTokenizer(f, SyntaxAuto) }

const seedCase = `{"schema_version": 1, "id": "placeholder.printf.001", "source_locale": "en-US", "target_locale": "zh-Hans", "domain": "game-ui", "source": "Welcome, %s! You have %d coins: 1,000.5", "required_tokens": ["%s"], "references": [], "assertions": [{"name": "placeholder_integrity", "severity": "hard", "params": {"syntax": "printf", "allow_reorder": true}}, {"name": "protocol_complete", "severity": "report", "params": {"expected_items": 2, "terminator": "END"}}, {"name": "number_fidelity", "severity": "hard"}, {"name": "required_tokens", "severity": "hard"}, {"name": "forbidden_renderings", "severity": "hard", "params": {"patterns": ["TODO"]}}, {"name": "max_chars", "severity": "hard", "params": {"max": 20, "unit": "graphemes"}}], "provenance": {"kind": "synthetic", "license": "MIT"}, "context": {"a": [1, {"b": null}]}, "difficulty": "basic", "tags": ["printf"]}`

const seedCandidate = `{"case_id": "placeholder.printf.001", "text": "欢迎，%s！你有%d枚金币：1.000,5", "raw_response": "[1] a\n[2] b\nEND"}`

// FuzzReadCases runs the whole check over a fixture and a candidates file.
func FuzzReadCases(f *testing.F) {
	f.Add([]byte(seedCase+"\n"), []byte(seedCandidate+"\n"))
	f.Add([]byte(seedCase+"\n\n"+seedCase+"\r\n{\"id\": 1}\n[1]\n\"x\"\n"), []byte(seedCandidate+"\n{}\n"+seedCandidate))
	f.Add([]byte("\xef\xbb\xbf"+seedCase), []byte("\xff\n"+seedCandidate))
	f.Add([]byte(`{"schema_version": 1, "id": "a.b", "id": "a.c"}`), []byte(`{"case_id": "a.b", "case_id": "a.b", "text": ""}`))
	f.Add([]byte(strings.Repeat("x", 5000)+"\n"+seedCase), []byte(seedCandidate))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, fixture, candidates []byte) {
		if err := os.WriteFile(filepath.Join(dir, "f.jsonl"), fixture, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "c.jsonl"), candidates, 0o644); err != nil {
			t.Fatal(err)
		}
		var rs []diag.Result
		c := newChecker(Request{
			Root: dir, Fixtures: []string{"f.jsonl"}, Candidates: []string{"c.jsonl"},
			ReadCandidates: true, CandidatesConfigured: true,
		}, func(r diag.Result) { rs = append(rs, r) })
		c.limit = 4096 // reach too_large cheaply
		if err := c.run(context.Background()); err != nil {
			t.Fatal(err)
		}
		c.close()
		lines := map[string][][]byte{"f.jsonl": splitLines(fixture), "c.jsonl": splitLines(candidates)}
		for _, r := range rs {
			if r.Code == "internal_error" {
				t.Fatalf("internal error: %s\n%v", r.Message, r.Evidence["stack"])
			}
			if _, ok := diag.LookupCode(r.Code); !ok {
				t.Fatalf("unregistered code %q", r.Code)
			}
			ls := lines[r.File]
			if r.Pos.Line < 1 || r.Pos.Line > len(ls) {
				t.Fatalf("%s: line %d outside 1..%d", r.File, r.Pos.Line, len(ls))
			}
			if n := utf8.RuneCount(ls[r.Pos.Line-1]); r.Pos.Col < 1 || r.Pos.Col > n+1 {
				t.Fatalf("%s:%d: column %d outside 1..%d", r.File, r.Pos.Line, r.Pos.Col, n+1)
			}
		}
		// The fast path accepts no line the authoritative validation rejects,
		// and reads a valid line as it does; a graded case reads as
		// encoding/json reads it, from the fast path's wire or, when the fast
		// path doubted it, from its line.
		for _, ln := range splitLines(fixture) {
			fs, info := validateCase(ln, 1)
			if fs.total == 0 {
				var want caseDoc
				json.Unmarshal(ln, &want)
				// Without a table, then twice through one: first filling it, then reading from it.
				var recur recurring
				for _, r := range []*recurring{nil, &recur, &recur} {
					var got caseDoc
					if err := decodeCase(ln, &got, r); err != nil {
						t.Fatalf("decodeCase(%q): %v", ln, err)
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("decodeCase(%q) = %+v, encoding/json gives %+v", ln, got, want)
					}
				}
			}
			if w, ok := fastCase(ln); ok {
				if fs.total > 0 {
					t.Fatalf("fast path accepts %q, validation finds %+v", ln, fs.list)
				}
				if a, r := w.mask(); info.id != w.ID || info.asserts != a || info.report != r {
					t.Fatalf("%q: the fast path reads %q %b %b, validation %q %b %b", ln, w.ID, a, r, info.id, info.asserts, info.report)
				}
				var want, got caseDoc
				json.Unmarshal(ln, &want)
				if err := got.fill(w, nil); err != nil || !reflect.DeepEqual(got, want) {
					t.Fatalf("%q: the fast path's wire fills %+v (%v), encoding/json gives %+v", ln, got, err, want)
				}
			}
			cfs, cw, _ := validateCandidate(ln, 1)
			if w, ok := fastCandidate(ln); ok {
				if cfs.total > 0 {
					t.Fatalf("fast path accepts candidate %q, validation finds %+v", ln, cfs.list)
				}
				if !reflect.DeepEqual(*w, cw) {
					t.Fatalf("%q: the fast path reads %+v, validation %+v", ln, *w, cw)
				}
			}
		}
	})
}

// FuzzValidateLine holds one line, as a case and as a candidate, with the authoritative validation and the
// fast path: no panic; every fault at a position inside the line (on its own line number, as
// frontmatter.ParseJSON positions it), with a registered code; at most maxLineFaults kept, the rest
// counted; the same faults on a second run; and the fast path accepts only what the validation accepts,
// reading it the same way.
func FuzzValidateLine(f *testing.F) {
	f.Add([]byte(seedCase))
	f.Add([]byte(seedCandidate))
	f.Add([]byte(baseCase))
	for _, dir := range []string{"definitions/cases", "assertions/cases", "assertions/candidates"} {
		files, _ := filepath.Glob(filepath.Join("testdata", "golden", dir, "*.jsonl"))
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			for _, ln := range splitLines(b) {
				f.Add(ln)
			}
		}
	}
	const line = 7
	f.Fuzz(func(t *testing.T, text []byte) {
		if bytes.IndexByte(text, '\n') >= 0 {
			return // one JSONL line holds no newline
		}
		width := utf8.RuneCount(text)
		check := func(what string, fs faults) {
			if len(fs.list) > maxLineFaults || fs.total < len(fs.list) || (fs.total > 0) != (len(fs.list) > 0) {
				t.Fatalf("%s %q: %d faults kept of %d", what, text, len(fs.list), fs.total)
			}
			for _, x := range fs.list {
				if x.pos.Line != line || x.pos.Col < 1 || x.pos.Col > width+1 {
					t.Fatalf("%s %q: %s at %v, outside line %d, columns 1..%d", what, text, x.code, x.pos, line, width+1)
				}
				if _, ok := diag.LookupCode(x.code); !ok {
					t.Fatalf("%s %q: unregistered code %q", what, text, x.code)
				}
			}
		}
		fs, info := validateCase(text, line)
		check("case", fs)
		if again, _ := validateCase(text, line); !reflect.DeepEqual(fs, again) {
			t.Fatalf("case %q: a second run finds %+v, the first %+v", text, again.list, fs.list)
		}
		if w, ok := fastCase(text); ok {
			if fs.total > 0 {
				t.Fatalf("fast path accepts %q, validation finds %+v", text, fs.list)
			}
			if a, r := w.mask(); info.id != w.ID || info.asserts != a || info.report != r {
				t.Fatalf("%q: the fast path reads %q %b %b, validation %q %b %b", text, w.ID, a, r, info.id, info.asserts, info.report)
			}
		}
		cfs, cw, _ := validateCandidate(text, line)
		check("candidate", cfs)
		if w, ok := fastCandidate(text); ok {
			if cfs.total > 0 {
				t.Fatalf("fast path accepts candidate %q, validation finds %+v", text, cfs.list)
			}
			if !reflect.DeepEqual(*w, cw) {
				t.Fatalf("%q: the fast path reads %+v, validation %+v", text, *w, cw)
			}
		}
	})
}

// splitLines splits a file as the line reader does: on "\n", a final line
// without one included, "\r" before it dropped, a BOM on line 1 dropped.
func splitLines(b []byte) [][]byte {
	var out [][]byte
	for i := 0; len(b) > 0; i++ {
		line, rest, _ := strings.Cut(string(b), "\n")
		b = []byte(rest)
		line = strings.TrimSuffix(line, "\r")
		if i == 0 {
			line = strings.TrimPrefix(line, "\xef\xbb\xbf")
		}
		out = append(out, []byte(line))
	}
	return out
}
