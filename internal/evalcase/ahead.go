package evalcase

import (
	"context"
	"fmt"
	"math/bits"
	"os"
	"runtime"
	"slices"
	"sync"

	"github.com/evalgate/evalgate/internal/diag"
)

// Both passes decode a file's lines on every core (README "Results, scope and memory"): decoding a
// line (the fast path, else the authoritative validation), and for a case reading its candidate again
// and running its assertions, needs nothing but the line and the index of candidates, which pass 2
// only reads; what follows (duplicate ids, the indexes, the order of results) is done one line at a
// time, in order.

// decodedCase is what decoding one fixture line found; nothing for a line too large or blank, which
// lineStarts reports.
type decodedCase struct {
	valid  bool
	faults faults
	info   caseInfo
	panic  any // a panic while decoding, reported at the line in order
}

// decodeLine decodes one case line.
func decodeLine(ln rawLine) (d decodedCase) {
	if ln.TooLarge || blank(ln.Text) {
		return decodedCase{}
	}
	defer func() {
		if v := recover(); v != nil {
			d = decodedCase{panic: v}
		}
	}()
	w := caseWires.Get().(*caseWire)
	defer func() { w.reset(); caseWires.Put(w) }()
	d, _ = decodeWith(ln, w)
	return d
}

// decodeWith decodes a case line by the fast path into w, else, when it doubts the line (a null, 1.0,
// or a fault), by the authoritative validation, which finds every fault. fast says that w holds the
// case.
func decodeWith(ln rawLine, w *caseWire) (d decodedCase, fast bool) {
	if fastCaseInto(ln.Text, w) {
		d.valid, d.info.id = true, w.ID
		d.info.asserts, d.info.report = w.mask()
		return d, true
	}
	d.faults, d.info = validateCase(ln.Text, ln.No)
	d.valid = d.faults.total == 0
	return d, false
}

// aheadLines is how many lines go to a worker at a time. A batch holds its lines' texts and results, and
// about ten batches are in memory at once (in flight, waiting their turn, pooled): 64 lines rather than
// 256 take 5 MB off the peak RSS of cases on 100,000 cases, at no time that runs can tell apart.
const aheadLines = 64

// inOrder runs work on each batch produce sends, on every core, and hand on each batch in the order it
// was sent, one at a time on one goroutine. It returns when every batch has been handed on. At most a
// few batches per core are in memory at once.
func inOrder[B any](produce func(send func(B)), work func(B), hand func(B)) {
	type job struct {
		b    B
		done chan struct{}
	}
	workers := runtime.GOMAXPROCS(0)
	todo := make(chan *job, workers)
	ordered := make(chan *job, 2*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range todo {
				work(j.b)
				close(j.done)
			}
		}()
	}
	handed := make(chan struct{})
	go func() {
		defer close(handed)
		for j := range ordered {
			<-j.done
			hand(j.b)
		}
	}()
	produce(func(b B) {
		j := &job{b: b, done: make(chan struct{})}
		todo <- j
		ordered <- j
	})
	close(todo)
	close(ordered)
	wg.Wait()
	<-handed
}

// checkedCase is what reading one fixture line found on a core (readCase): its decoding, the
// candidate that names its id, and its assertions' results on that candidate, which caseLine hands on
// only if the case is the first of its id.
type checkedCase struct {
	decodedCase
	answer  int32         // the slot of the candidate that names the case's id; -1 for none
	results []diag.Result // the assertions' results, or the internal_error of a candidate not read again
}

// release lets go of what d holds once its line is reported, keeping the room of its results.
func (d *checkedCase) release() {
	clear(d.results) // the report's now
	*d = checkedCase{results: d.results[:0]}
}

// readCase decodes one fixture line into d and, when it is a case a candidate names and in scope,
// reads that candidate again through lc and grades the case on it.
func (c *checker) readCase(fi int, ln rawLine, lc *lineCache, d *checkedCase) {
	*d = checkedCase{answer: -1, results: d.results[:0]}
	if ln.TooLarge || blank(ln.Text) {
		return
	}
	defer func() {
		if v := recover(); v != nil {
			d.release()
			*d = checkedCase{decodedCase: decodedCase{panic: v}, answer: -1, results: d.results}
		}
	}()
	w := caseWires.Get().(*caseWire)
	defer func() { w.reset(); caseWires.Put(w) }()
	var fast bool
	d.decodedCase, fast = decodeWith(ln, w)
	wire := w
	if !fast {
		wire = nil
	}
	id := d.info.id
	if !c.req.ReadCandidates || id == "" {
		return
	}
	slot, cand, err := c.answerRead(lc, c.answers.hash(id), id)
	if err != nil {
		if d.valid {
			d.results = append(d.results, diag.Result{
				Source: diag.SourceEvalCase, File: c.req.Fixtures[fi], Pos: diag.Pos{Line: ln.No, Col: 1}, Check: diag.CheckDefinition,
				CaseID: id, Outcome: diag.Error, Severity: diag.SeverityError, Code: "internal_error",
				Message: fmt.Sprintf("cannot read the candidate for case %s: %v (did it change during the run?)", id, err),
			})
		}
		return
	}
	d.answer = slot
	if slot < 0 || !d.valid || !cand.valid {
		return
	}
	if ref := c.answers.at(slot); !c.scope[fi] && (!ref.inScope || c.req.ByFixture) {
		return
	}
	d.results = slices.Grow(d.results, bits.OnesCount8(d.info.asserts))
	c.grade(ln.Text, wire, cand.wire, c.req.Fixtures[fi], ln.No, func(r diag.Result) { d.results = append(d.results, r) })
	// In report order (by check), not the case's: a fixture's results then come in report order,
	// which the report keeps as one run (report.Results).
	diag.Sort(d.results)
}

// newReaders makes the line caches eachDecoded's cores read candidates again through, one a core.
func newReaders() chan *lineCache {
	readers := make(chan *lineCache, runtime.GOMAXPROCS(0))
	for range cap(readers) {
		readers <- newLineCache()
	}
	return readers
}

// lineBatch is a run of lines, their texts copied end to end into text, and what decoding them
// found. Batches are used again once handed on (nothing keeps a line's text past its use), so
// reading a file allocates a few batches' worth of text, not the file's; so is what each line's
// decoding holds (a checkedCase's results).
type lineBatch[D any] struct {
	lines   []rawLine
	text    []byte
	decoded []D
}

// keep appends text to *arena and returns the copy. A copy made before the arena grew stays valid:
// it keeps the array it was made in.
func keep(arena *[]byte, text []byte) []byte {
	start := len(*arena)
	*arena = append(*arena, text...)
	return (*arena)[start:len(*arena):len(*arena)]
}

// eachDecoded reads f's lines, has decode read each one into its D on any core (with a line cache of
// that core's own), and calls use with each line and its D, in line order, one line at a time. A read
// that fails midway is the file's target_unreadable at the line it stopped on, after every line's
// results.
func eachDecoded[D any](c *checker, ctx context.Context, f *os.File, rel string, inScope bool,
	decode func(rawLine, *lineCache, *D), use func(rawLine, *D)) error {
	batches := sync.Pool{New: func() any { return &lineBatch[D]{} }}
	var lr *lineReader
	var err error
	inOrder(func(send func(*lineBatch[D])) {
		b := batches.Get().(*lineBatch[D])
		lr, err = c.readLines(ctx, f, func(ln rawLine) {
			ln.Text = keep(&b.text, ln.Text)
			b.lines = append(b.lines, ln)
			if len(b.lines) == aheadLines {
				send(b)
				b = batches.Get().(*lineBatch[D])
			}
		})
		if len(b.lines) > 0 {
			send(b)
		}
	}, func(b *lineBatch[D]) {
		lc := <-c.readers
		defer func() { c.readers <- lc }()
		b.decoded = slices.Grow(b.decoded[:0], len(b.lines))[:len(b.lines)]
		for i, ln := range b.lines {
			decode(ln, lc, &b.decoded[i])
		}
	}, func(b *lineBatch[D]) {
		for i := range b.lines {
			use(b.lines[i], &b.decoded[i])
		}
		b.lines, b.text = b.lines[:0], b.text[:0] // decoded is overwritten line by line, its room kept
		batches.Put(b)
	})
	if err != nil {
		return err
	}
	c.readFailed(rel, inScope, lr) // after every line's results, as a read in order does
	return nil
}
