package evalcase

import (
	"bytes"
	"context"
	"os"
	"runtime"
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
	if w, ok := fastCase(ln.Text); ok {
		d.valid, d.info.id = true, w.ID
		d.info.asserts, d.info.report = w.mask()
		return d
	}
	d.faults, d.info = validateCase(ln.Text, ln.No)
	d.valid = d.faults.total == 0
	return d
}

// aheadLines is how many lines go to a worker at a time.
const aheadLines = 256

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

// caseBatch is a run of fixture lines, each text its own copy, and what decoding them found.
type caseBatch struct {
	lines   []rawLine
	decoded []decodedCase
}

// eachCase is eachLine for fixtures: it reads f's lines, decodes them on every core, and calls use with
// each line and what decoding found, in line order, one line at a time.
func (c *checker) eachCase(ctx context.Context, f *os.File, rel string, inScope bool, use func(rawLine, *decodedCase)) error {
	var lr *lineReader
	var err error
	inOrder(func(send func(*caseBatch)) {
		b := &caseBatch{}
		lr, err = c.readLines(ctx, f, func(ln rawLine) {
			ln.Text = bytes.Clone(ln.Text)
			b.lines = append(b.lines, ln)
			if len(b.lines) == aheadLines {
				send(b)
				b = &caseBatch{}
			}
		})
		if len(b.lines) > 0 {
			send(b)
		}
	}, func(b *caseBatch) {
		b.decoded = make([]decodedCase, len(b.lines))
		for i, ln := range b.lines {
			b.decoded[i] = decodeLine(ln)
		}
	}, func(b *caseBatch) {
		for i := range b.lines {
			use(b.lines[i], &b.decoded[i])
		}
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

// eachCandidate checks every line of the candidates file f (README "Results, scope and memory").
func (c *checker) eachCandidate(ctx context.Context, f *os.File, rel string, inScope bool) error {
	emit := c.emit
	var cur *candidateSlot
	c.emit = func(r diag.Result) { cur.results = append(cur.results, r) } // the reading goroutine's
	var lr *lineReader
	var err error
	inOrder(func(send func([]*candidateSlot)) {
		var b []*candidateSlot
		lr, err = c.readLines(ctx, f, func(ln rawLine) {
			cur = &candidateSlot{}
			cur.job = c.candidateLine(rel, ln, inScope)
			b = append(b, cur)
			if len(b) == aheadLines {
				send(b)
				b = nil
			}
		})
		if len(b) > 0 {
			send(b)
		}
	}, func(b []*candidateSlot) {
		for _, s := range b {
			if s.job != nil {
				c.assert(s.job, func(r diag.Result) { s.results = append(s.results, r) })
				s.job = nil
			}
		}
	}, func(b []*candidateSlot) {
		for _, s := range b {
			for _, r := range s.results {
				emit(r)
			}
		}
	})
	c.emit = emit
	if err != nil {
		return err
	}
	c.readFailed(rel, inScope, lr)
	return nil
}
