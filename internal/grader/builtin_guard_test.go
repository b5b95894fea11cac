package grader

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBuiltinTooComplex: the texts goldmark takes quadratic time on are refused at their line, and
// the texts just within each bound, and their look-alikes, are not.
func TestBuiltinTooComplex(t *testing.T) {
	refs := func(n int) string { return strings.Repeat("[x]: /y\n", n) }
	notes := func(n int) string { // n references, then n definitions a blank line apart
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "x[^f%d]\n", i)
		}
		b.WriteString("\n")
		for i := range n {
			fmt.Fprintf(&b, "[^f%d]: note\n\n", i)
		}
		return b.String()
	}
	for _, c := range []struct {
		name, src string
		line      int // 0: not refused
	}{
		{"100 block quotes", strings.Repeat("> ", 100) + "x\n", 0},
		{"101 block quotes", "# T\n\n" + strings.Repeat(">", 101) + "x\n", 3},
		{"101 mixed markers", strings.Repeat("> - 1. ", 34) + "x", 1},
		{"101 ordered items", strings.Repeat("1) ", 101), 1},
		{"digits that are no marker", strings.Repeat("1.x ", 200), 0},
		{"a thematic break", strings.Repeat("- ", 500) + "\n", 0},
		{"a thematic break of stars", strings.Repeat("* ", 500), 0},
		{"a list of dashes with text", strings.Repeat("- ", 101) + "x", 1},
		{"10,000 definitions", refs(10_000), 0},
		{"10,001 definitions", "text\n\n" + refs(10_001), 3},
		{"definitions a blank line apart", refs(6_000) + "\n" + refs(6_000), 0},
		{"definitions in a block quote", strings.Repeat("> [x]: /y\n", 10_001), 1},
		{"links closed on a long line", strings.Repeat("[a](b) ", 20_000), 0},
		{"links left open on a long line", "x\n" + strings.Repeat("[a](", 16_384), 2},
		{"links left open, a line each", strings.Repeat("[a](\n", 100_000), 0},
		{"links a line each, one paragraph", strings.Repeat("[a](b.md)\n", 20_000), 0},
		{"destinations of open parentheses", strings.Repeat("[a](()", 12_000), 1},
		{"definitions with titles on their next lines", strings.Repeat("[x]: /y\n  \"t\"\n", 10_001), 1},
		// Footnotes: goldmark's time is quadratic in them (28,000 took 8 s).
		{"5,000 footnotes", notes(5_000), 0},
		{"5,001 footnotes", notes(5_001), 5_001 + 2 + 2*5_000}, // the 5,001st definition
	} {
		err := builtinTooComplex([]byte(c.src), 1)
		switch {
		case c.line == 0 && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.line != 0 && !errors.Is(err, ErrTooComplex):
			t.Errorf("%s: not refused (%v)", c.name, err)
		case c.line != 0 && !strings.Contains(err.Error(), "line "+itoa(c.line)+" "):
			t.Errorf("%s: %v, want line %d", c.name, err, c.line)
		}
	}
	// Lines count from the text's first line in its file.
	if err := builtinTooComplex([]byte("\n"+strings.Repeat(">", 101)), 6); err == nil || !strings.Contains(err.Error(), "line 7 ") {
		t.Errorf("from line 6: %v, want line 7", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestBuiltinParseGuarded: a parse that does not end is given up on after the limit, as too complex,
// and a run that stops stops the wait at once; a parse that ends is returned. While the parses given up
// on hold every core, a new one is refused at once; once they end, parses go ahead again.
func TestBuiltinParseGuarded(t *testing.T) {
	never := make(chan struct{})
	stuck := func() int { <-never; return 1 }
	quick := func() int { return 7 }
	old, oldMax := builtinParseLimit, builtinMaxRunaways
	defer func() { builtinParseLimit, builtinMaxRunaways = old, oldMax }()
	builtinParseLimit, builtinMaxRunaways = 10*time.Millisecond, 1

	if _, err := builtinParseGuarded(context.Background(), "the target", []byte("x"), 1, stuck); !errors.Is(err, ErrTooComplex) ||
		!strings.HasPrefix(err.Error(), "the target: ") {
		t.Errorf("a parse past the limit: %v", err)
	}
	builtinParseLimit = time.Hour
	if _, err := builtinParseGuarded(context.Background(), "the target", []byte("x"), 1, quick); !errors.Is(err, ErrTooComplex) ||
		!strings.Contains(err.Error(), "1 parses given up on still hold the cores") {
		t.Errorf("a parse while a runaway holds the only core: %v", err)
	}
	close(never) // the runaway ends
	for builtinRunaways.Load() != 0 {
		runtime.Gosched()
	}
	if v, err := builtinParseGuarded(context.Background(), "the target", []byte("x"), 1, quick); v != 7 || err != nil {
		t.Errorf("a parse that ends: %v, %v", v, err)
	}

	block := make(chan struct{})
	defer close(block)
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("evalgate received SIGTERM")
	cancel(stop)
	if _, err := builtinParseGuarded(ctx, "the target", []byte("x"), 1, func() int { <-block; return 0 }); !errors.Is(err, stop) {
		t.Errorf("a stopped run: %v, want %v", err, stop)
	}
	if _, err := builtinParseGuarded(context.Background(), "linked page b.md", []byte(strings.Repeat(">", 101)), 1, quick); !errors.Is(err, ErrTooComplex) ||
		!strings.HasPrefix(err.Error(), "linked page b.md: ") {
		t.Errorf("a text refused before its parse: %v", err)
	}
}

// FuzzTooComplex: the check never panics, names a line of the text when it refuses one, and sums the
// link destinations of a line as the plain quadratic count does.
func FuzzTooComplex(f *testing.F) {
	for _, s := range []string{"", "[a](b) [c](", "> > - 1. x\n[x]: y\n", "- - -\n", "[a](()", "1) 2. * + >"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if err := builtinTooComplex(src, 1); err != nil {
			if !errors.Is(err, ErrTooComplex) {
				t.Fatalf("err %v is no ErrTooComplex", err)
			}
			var line int
			if _, scanErr := fmt.Sscanf(err.Error()[strings.Index(err.Error(), "line "):], "line %d", &line); scanErr != nil ||
				line < 1 || line > bytes.Count(src, []byte("\n"))+1 {
				t.Fatalf("err %v names no line of the text", err)
			}
		}
		for _, line := range bytes.Split(src, []byte("\n")) {
			want := 0
			for i := 0; i+1 < len(line); i++ {
				if line[i] == ']' && line[i+1] == '(' {
					end := i
					for end < len(line) && line[end] != ' ' && line[end] != '\t' {
						end++
					}
					want += end - i
				}
			}
			if got := builtinDestinationScan(line); got != want {
				t.Fatalf("builtinDestinationScan(%q) = %d, want %d", line, got, want)
			}
		}
	})
}
