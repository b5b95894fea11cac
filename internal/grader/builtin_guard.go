package grader

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"
)

// ErrTooComplex: a Markdown text is one the parser cannot read in bounded time (too_large): goldmark
// takes time quadratic in the size of some texts (block quotes and lists nested thousands deep on one
// line, a paragraph of many thousand link reference definitions, thousands of unclosed "[a]("), and
// cannot be stopped once it has started.
var ErrTooComplex = errors.New("too complex for the Markdown parser")

// The bounds of builtinParseGuarded (README "Limits"). markdown-it, for one, nests at most 100 blocks.
const (
	builtinMaxNesting   = 100
	builtinMaxRefRun    = 10_000
	builtinMaxFootnotes = 5_000   // footnote definitions: goldmark links each to its references in time quadratic in them
	builtinMaxScan      = 1 << 28 // about half a second of goldmark's reading
)

// builtinParseLimit is how long a parse may take before the tool gives up on its text; a var for tests.
var builtinParseLimit = 10 * time.Second

// builtinRunaways counts the parses given up on that still run, each on a core of its own. Once there
// are builtinMaxRunaways, every core may be theirs, and a new parse would only wait out its limit: it
// is refused at once, so that a run of many hostile pages ends in minutes, not hours.
var (
	builtinRunaways    atomic.Int32
	builtinMaxRunaways = int32(runtime.GOMAXPROCS(0))
)

// builtinParseGuarded is parse(), the parse of src, unless src holds what goldmark takes quadratic time on
// (builtinTooComplex), or the parse takes longer than builtinParseLimit, or ctx ends first. A parse given
// up on runs on unwatched until it ends or evalgate does: goldmark has no way to stop it. what names
// the text in the error ("the target", "linked page a.md"), whose first line is line firstLine of its file.
func builtinParseGuarded[T any](ctx context.Context, what string, src []byte, firstLine int, parse func() T) (T, error) {
	var none T
	if err := builtinTooComplex(src, firstLine); err != nil {
		return none, fmt.Errorf("%s: %w", what, err)
	}
	if n := builtinRunaways.Load(); n >= builtinMaxRunaways {
		return none, fmt.Errorf("%s: %w: not parsed, as %d parses given up on still hold the cores", what, ErrTooComplex, n)
	}
	done := make(chan T, 1) // buffered: a parse given up on can still finish and be collected
	var state atomic.Int32  // running, then finished or given up: whichever comes first
	const running, finished, givenUp = 0, 1, 2
	builtinGo(func() {
		v := parse()
		done <- v
		if !state.CompareAndSwap(running, finished) { // given up on: no longer a runaway
			builtinRunaways.Add(-1)
		}
	})
	limit := time.NewTimer(builtinParseLimit)
	defer limit.Stop()
	select {
	case v := <-done:
		return v, nil
	case <-limit.C:
		if !state.CompareAndSwap(running, givenUp) {
			return <-done, nil // it ended as the limit passed
		}
		builtinRunaways.Add(1)
		return none, fmt.Errorf("%s: %w: not parsed within %v", what, ErrTooComplex, builtinParseLimit)
	case <-ctx.Done():
		return none, context.Cause(ctx)
	}
}

// builtinIdle holds the parse goroutines waiting for work. A goroutine's stack grows to what goldmark
// needs on its first parse and stays grown: a fresh goroutine a parse made a page's parse 40% slower.
var builtinIdle = make(chan chan func(), 64)

// builtinGo runs job on an idle parse goroutine, or a new one; the goroutine waits for the next job
// afterwards, unless 64 wait already.
func builtinGo(job func()) {
	select {
	case w := <-builtinIdle:
		w <- job
		return
	default:
	}
	w := make(chan func(), 1)
	w <- job
	go func() {
		for job := range w {
			job()
			select {
			case builtinIdle <- w:
			default:
				return
			}
		}
	}()
}

// builtinTooComplex finds, in one pass, the texts goldmark is known to take quadratic time on: a line
// whose block quote and list markers nest deeper than builtinMaxNesting; a paragraph (a run of
// non-blank lines) of more than builtinMaxRefRun link reference definitions, lines that start, after
// those markers, with "[" and hold "]:"; a line whose link destinations, each read from its "](" up to
// the next space at the most, add up to more than builtinMaxScan bytes ("[a](" repeated). Its errors
// give lines counted from firstLine, src's first.
func builtinTooComplex(src []byte, firstLine int) error {
	line, refs, refStart, notes := firstLine, 0, 0, 0
	for rest := src; len(rest) > 0; line++ {
		text := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			text, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if scan := builtinDestinationScan(text); scan > builtinMaxScan {
			return fmt.Errorf("%w: line %d holds link destinations of %d bytes in all, none closed by a space",
				ErrTooComplex, line, scan)
		}
		depth, body := builtinContainers(text)
		if depth > builtinMaxNesting {
			return fmt.Errorf("%w: line %d nests block quotes and list items %d deep (at most %d are read)",
				ErrTooComplex, line, depth, builtinMaxNesting)
		}
		switch {
		case len(bytes.TrimSpace(body)) == 0:
			refs = 0
		case body[0] == '[' && bytes.Contains(body, []byte("]:")):
			if len(body) > 1 && body[1] == '^' {
				if notes++; notes > builtinMaxFootnotes {
					return fmt.Errorf("%w: line %d is footnote definition %d; at most %d are read (10,000 took a second, 28,000 eight)",
						ErrTooComplex, line, notes, builtinMaxFootnotes)
				}
			}
			if refs == 0 {
				refStart = line
			}
			if refs++; refs > builtinMaxRefRun {
				return fmt.Errorf("%w: the paragraph at line %d holds more than %d lines that start with \"[\" (link reference definitions)",
					ErrTooComplex, refStart, builtinMaxRefRun)
			}
		}
	}
	return nil
}

// builtinDestinationScan is the bytes from each "](" of line to the end of its run of non-space bytes,
// summed: at most what goldmark reads of the line's link destinations, which end at a space at the
// latest. It is linear in the line, and it runs before every parse, so it looks only where "(" follows
// "]" (bytes.Index) and at the run each such place is in.
func builtinDestinationScan(line []byte) int {
	open := []byte("](")
	total := 0
	for at := 0; ; {
		i := bytes.Index(line[at:], open)
		if i < 0 {
			return total
		}
		i += at
		end := len(line) // the end of the run i is in
		if j := bytes.IndexAny(line[i:], " \t"); j >= 0 {
			end = i + j
		}
		for k := i; k >= 0; { // every "](" of the run
			total += end - k
			next := bytes.Index(line[k+2:end], open)
			if next < 0 {
				break
			}
			k += 2 + next
		}
		at = end
	}
}

// builtinContainers counts the block quote and list item markers a line opens with, and returns what
// follows them. A thematic break ("- - -") counts none.
func builtinContainers(line []byte) (depth int, body []byte) {
	body = bytes.TrimLeft(line, " \t")
	for len(body) > 0 {
		n := 0
		switch c := body[0]; {
		case c == '>':
			n = 1
		case (c == '-' || c == '*' || c == '+') && (len(body) == 1 || body[1] == ' ' || body[1] == '\t'):
			n = 1
		case '0' <= c && c <= '9':
			for n < len(body) && n < 9 && '0' <= body[n] && body[n] <= '9' {
				n++
			}
			if n == len(body) || body[n] != '.' && body[n] != ')' || n+1 < len(body) && body[n+1] != ' ' && body[n+1] != '\t' {
				return depth, body
			}
			n++
		default:
			return depth, body
		}
		depth++
		body = bytes.TrimLeft(body[n:], " \t")
	}
	if depth > 0 && builtinIsBreak(line) {
		return 0, nil
	}
	return depth, body
}

// builtinIsBreak reports whether line is a thematic break: three or more of one of "-*_", spaces and
// tabs between them.
func builtinIsBreak(line []byte) bool {
	var mark byte
	n := 0
	for _, c := range line {
		switch {
		case c == ' ' || c == '\t':
		case mark == 0 && (c == '-' || c == '*' || c == '_'):
			mark, n = c, 1
		case c == mark:
			n++
		default:
			return false
		}
	}
	return n >= 3
}
