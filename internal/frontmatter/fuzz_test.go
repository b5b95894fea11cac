package frontmatter

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/diag"
)

// fuzzSeeds are inputs that reach the corners of Split and the parsers.
func fuzzSeeds() []string {
	return []string{
		"",
		"---",
		"---\n",
		"---\n---\n",
		"---\na: 1\n---\nbody\n",
		"\ufeff---\r\na: 1\r\n...\r\nbody",
		"--- \t\na: [1, {b: c}]\n---  \n",
		"+++\na = 1\n[t]\nb = [1, {c = 2}]\n[[arr]]\nx = 1\n+++\n",
		"+++\nnotes = \"\"\"\nfake = 1\n\"\"\"\nd = 1979-05-27T07:32:00Z\n+++\n",
		"+++\na = 1\na = 2\n+++\n",
		"+++\n[a.b]\n[[a.c]]\n[a]\n'q.k' = { x = [1, 2], y = \"\\u00e9\" }\n+++\n",
		"---\né: ü\nk: [é, 日本]\n---\n",
		"---\na: \"x\u2028y\"\nb: 'p\rq'\nc: \u0085\n---\n",
		"---\na: &x [1, *x]\nb: *x\nc: *nope\n---\n",
		"---\nl0: &a [x, x, x]\nl1: &b [*a, *a, *a]\nl2: [*b, *b, *b]\n---\n",
		"---\n? [a]\n: 1\na: 1\na: 2\n<<: {}\n---\n",
		"---\nv: !!int abc\nw: !!str 1\nx: !custom 2\ny: !!map [1]\n---\n",
		"---\na: 1\n--- b\n---\n",
		"---\na: \x01\n---\n",
		"---\na: \xff\n---\n",
		"---\n" + strings.Repeat("[", 1100) + "\n---\n",
		"---\n" + strings.Repeat("- ", 1100) + "x\n---\n",
		"+++\na = " + strings.Repeat("[", 1100) + "\n+++\n",
		"\x00\x01\x02---\n\xfe\xff",
		"---\n\x00\n---\n",
		aliasBomb(),
		benchPage(),
	}
}

// addSeeds adds each seed to f's corpus.
func addSeeds(f *testing.F, seeds []string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
}

// watchdog starts a timer that panics, naming src, unless it is stopped
// within 10s: the fuzzer has no per-input timeout, and a hang must crash the
// worker so that the input is kept as a crasher.
func watchdog(src []byte) *time.Timer {
	return time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("parsing %q takes more than 10s", src)) })
}

func FuzzSplit(f *testing.F) {
	addSeeds(f, fuzzSeeds())
	f.Fuzz(func(t *testing.T, src []byte) {
		d := Split(src)
		checkSplit(t, src, d)
		if d.Format == FormatNone {
			if !sameSlice(d.Body, src) || d.BodyLine != 1 {
				t.Fatalf("FormatNone: Body is not the whole file")
			}
			return
		}
		// The text lies between an opening fence on line 1 and a closing one.
		open, _, _ := nextLine(src, 0)
		open = bytes.TrimPrefix(open, utf8BOM)
		fence := byte('-')
		if d.Format == FormatTOML {
			fence = '+'
		}
		if !isFence(open, fence) {
			t.Errorf("line 1 %q is not a %v fence", open, d.Format)
		}
		end := textOffset(src, d.Text) + len(d.Text)
		closing, next, _ := nextLine(src, end)
		if !closes(d.Format, closing) || next != d.BodyOffset {
			t.Errorf("line %q after the text does not close it before the body", closing)
		}
		for i := 0; i < len(d.Text); {
			line, next, _ := nextLine(d.Text, i)
			if closes(d.Format, line) {
				t.Errorf("the text holds a closing fence %q at byte %d", line, i)
			}
			i = next
		}
	})
}

func FuzzParse(f *testing.F) {
	addSeeds(f, fuzzSeeds())
	f.Fuzz(func(t *testing.T, src []byte) {
		defer watchdog(src).Stop()
		widths := lineWidths(src)
		d := Split(src)
		n, problems := Parse(d)
		checkParse(t, "Parse", widths, n, problems)
		if d.Format == FormatNone && (n != nil || problems != nil) {
			t.Fatalf("FormatNone parsed to %v, %v", n, problems)
		}
		// The whole file, as a config file is read.
		n, problems = ParseYAML(src, 1)
		checkParse(t, "ParseYAML", widths, n, problems)
		n, problems = ParseTOML(src, 1)
		checkParse(t, "ParseTOML", widths, n, problems)
	})
}

// checkParse asserts what holds for every parse: registered codes, one-line
// messages, positions inside the file, and a tree that MarshalYAML writes so
// that ParseYAML reads it back unchanged.
func checkParse(t *testing.T, what string, widths []int, n *Node, problems []diag.Problem) {
	t.Helper()
	for _, p := range problems {
		if _, ok := diag.LookupCode(p.Code); !ok {
			t.Errorf("%s: unregistered code %q", what, p.Code)
		}
		if p.Message == "" || strings.ContainsAny(p.Message, "\r\n") {
			t.Errorf("%s: message %q is not one line", what, p.Message)
		}
		if err := checkPos(widths, p.Pos); err != nil {
			t.Errorf("%s: %s at %v: %v", what, p.Code, p.Pos, err)
		}
	}
	count := 0
	if err := checkTree(widths, n, &count); err != nil {
		t.Errorf("%s: %v", what, err)
	}
	if n == nil {
		return
	}
	out := MarshalYAML(n)
	back, backProblems := ParseYAML(out, 1)
	if len(backProblems) > 0 || !sameValue(n, back) {
		t.Errorf("%s: MarshalYAML does not round-trip (%v):\n%s", what, backProblems, out)
	}
}

// tomlSeeds are TOML documents that reach the corners of ParseTOML: every kind of key, string, number,
// date and table, and the faults TOML defines (redefinitions, mixed arrays of tables, bad escapes).
func tomlSeeds() []string {
	return []string{
		"a = 1\nb = 'lit'\nc = \"\\u00e9\\t\"\nd = \"\"\"\nmulti\n\"\"\"\ne = '''\nraw\\n\n'''\n",
		"int = +0x_ff\nbad = 0x\nf = 6.02e+23\ng = -inf\nh = nan\ni = 1_000\nj = 0o17\nk = 0b101\n",
		"d1 = 1979-05-27T07:32:00Z\nd2 = 1979-05-27T00:32:00.999999-07:00\nd3 = 1979-05-27\nt = 07:32:00\n",
		"[a]\nx = 1\n[a.b]\ny = 2\n[a]\nz = 3\n",
		"[[p]]\nn = 1\n[[p]]\nn = 2\n[p.q]\nm = 3\n[p]\n",
		"a.b.c = 1\na.b = 2\n\"quoted key\" = 3\n'lit key' = 4\n\"\" = 5\n",
		"t = { a = 1, b = { c = [1, 2, { d = 3 }] } }\nt.e = 4\n",
		"arr = [\n  1,\n  2, # comment\n]\nmixed = [1, 'a', [2], {x = 1}]\n",
		"s = \"\\q\"\nu = \"\\uD800\"\nv = \"\\U0010FFFF\"\nw = \"unterminated\n",
		"k = 1 # c\u2028\nk2 = \"x\ty\"\n\ufeffk3 = 1\n",
		"[x]\n[x]\n",
		"a = [" + strings.Repeat("[", 1100) + "\n",
		"a = " + strings.Repeat("{b = ", 300) + "1" + strings.Repeat("}", 300) + "\n",
		"\x00 = 1\n",
		"a = \xff\n",
	}
}

// FuzzParseTOML fuzzes the TOML reader on its own, from TOML seeds (FuzzParse starts from YAML pages).
func FuzzParseTOML(f *testing.F) {
	addSeeds(f, tomlSeeds())
	f.Fuzz(func(t *testing.T, src []byte) {
		defer watchdog(src).Stop()
		n, problems := ParseTOML(src, 1)
		checkParse(t, "ParseTOML", lineWidths(src), n, problems)
	})
}
