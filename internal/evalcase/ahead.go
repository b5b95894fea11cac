package evalcase

import (
	"context"
	"math/bits"
	"os"
	"runtime"
	"slices"
	"sync"

	"github.com/evalgate/evalgate/internal/diag"
)

// Pass 1 decodes a fixture's lines on every core (README "Results, scope and memory"): decoding a
// case (the fast path, else the authoritative validation) needs nothing but the line, while what
// follows (duplicate ids, the index, the order of results) is done one line at a time, in order.

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
	if fastCaseInto(ln.Text, w) {
		d.valid, d.info.id = true, w.ID
		d.info.asserts, d.info.report = w.mask()
		return d
	}
	d.faults, d.info = validateCase(ln.Text, ln.No)
	d.valid = d.faults.total == 0
	return d
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

// caseBatch is a run of fixture lines, their texts copied end to end into text, and what decoding
// them found. Batches are used again once handed on (nothing keeps a line's text past its use), so
// reading a fixture allocates a few batches' worth of text, not the fixture's.
type caseBatch struct {
	lines   []rawLine
	text    []byte
	decoded []decodedCase
}

var caseBatches = sync.Pool{New: func() any { return &caseBatch{} }}

// keep appends text to *arena and returns the copy. A copy made before the arena grew stays valid:
// it keeps the array it was made in.
func keep(arena *[]byte, text []byte) []byte {
	start := len(*arena)
	*arena = append(*arena, text...)
	return (*arena)[start:len(*arena):len(*arena)]
}

// eachCase is eachLine for fixtures: it reads f's lines, decodes them on every core, and calls use with
// each line and what decoding found, in line order, one line at a time.
func (c *checker) eachCase(ctx context.Context, f *os.File, rel string, inScope bool, use func(rawLine, *decodedCase)) error {
	var lr *lineReader
	var err error
	inOrder(func(send func(*caseBatch)) {
		b := caseBatches.Get().(*caseBatch)
		lr, err = c.readLines(ctx, f, func(ln rawLine) {
			ln.Text = keep(&b.text, ln.Text)
			b.lines = append(b.lines, ln)
			if len(b.lines) == aheadLines {
				send(b)
				b = caseBatches.Get().(*caseBatch)
			}
		})
		if len(b.lines) > 0 {
			send(b)
		}
	}, func(b *caseBatch) {
		b.decoded = b.decoded[:0]
		for _, ln := range b.lines {
			b.decoded = append(b.decoded, decodeLine(ln))
		}
	}, func(b *caseBatch) {
		for i := range b.lines {
			use(b.lines[i], &b.decoded[i])
		}
		clear(b.decoded) // the faults and ids go to the collector
		b.lines, b.text, b.decoded = b.lines[:0], b.text[:0], b.decoded[:0]
		caseBatches.Put(b)
	})
	if err != nil {
		return err
	}
	c.readFailed(rel, inScope, lr) // after every line's results, as a read in order does
	return nil
}

// Pass 2 likewise: matching candidates with their cases (which case is answered, which candidate is
// a second one) is done in order, and so is re-reading each case's line; the assertions, the costly
// part, run on every core; results are handed on in candidate order.

// candidateSlot is one candidate line's results, and its assertions still to run.
type candidateSlot struct {
	results []diag.Result
	job     *assertJob
}

// candidateBatch is a run of candidate lines' slots, and the texts of their cases, end to end. A batch
// is used again, its slots' result slices with it: at most aheadLines slots, so they never move.
type candidateBatch struct {
	slots []candidateSlot
	text  []byte
}

var candidateBatches = sync.Pool{New: func() any { return &candidateBatch{slots: make([]candidateSlot, 0, aheadLines)} }}

// eachCandidate checks every line of the candidates file f (README "Results, scope and memory").
func (c *checker) eachCandidate(ctx context.Context, f *os.File, rel string, inScope bool) error {
	emit := c.emit
	var cur *candidateSlot
	c.emit = func(r diag.Result) { cur.results = append(cur.results, r) } // the reading goroutine's
	var lr *lineReader
	var err error
	inOrder(func(send func(*candidateBatch)) {
		b := candidateBatches.Get().(*candidateBatch)
		lr, err = c.readLines(ctx, f, func(ln rawLine) {
			b.slots = b.slots[:len(b.slots)+1]
			cur = &b.slots[len(b.slots)-1]
			cur.job = c.candidateLine(rel, ln, inScope, &b.text)
			if len(b.slots) == aheadLines {
				send(b)
				b = candidateBatches.Get().(*candidateBatch)
			}
		})
		if len(b.slots) > 0 {
			send(b)
		}
	}, func(b *candidateBatch) {
		for i := range b.slots {
			if s := &b.slots[i]; s.job != nil {
				s.results = slices.Grow(s.results, bits.OnesCount8(s.job.ref.asserts))
				c.assert(s.job, func(r diag.Result) { s.results = append(s.results, r) })
				s.job = nil
			}
		}
	}, func(b *candidateBatch) {
		for i := range b.slots {
			s := &b.slots[i]
			for _, r := range s.results {
				emit(r)
			}
			clear(s.results) // what the results point to is the report's now
			s.results = s.results[:0]
		}
		b.slots, b.text = b.slots[:0], b.text[:0]
		candidateBatches.Put(b)
	})
	c.emit = emit
	if err != nil {
		return err
	}
	c.readFailed(rel, inScope, lr)
	return nil
}
