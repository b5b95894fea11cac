package evalcase

import (
	"context"
	"os"
	"runtime"
	"sync"

	"github.com/evalgate/evalgate/internal/diag"
)

// Pass 1 decodes a fixture's lines on every core (README "Results, scope and memory"): decoding a
// case (the fast path, else the authoritative validation) needs nothing but the line, while what
// follows (duplicate ids, the index, the order of results) is done one line at a time, in order.

// decodedCase is what decoding one fixture line found.
type decodedCase struct {
	skip   bool // too large or blank: lineStarts says what it is
	valid  bool
	faults faults
	info   caseInfo
	panic  any // a panic while decoding, reported at the line in order
}

// decode decodes one case line.
func decodeLine(ln rawLine) (d decodedCase) {
	if ln.TooLarge || blank(ln.Text) {
		return decodedCase{skip: true}
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

// aheadBatch is a run of lines decoded together; each line's text is its own copy.
type aheadBatch struct {
	lines   []rawLine
	decoded []decodedCase
	done    chan struct{}
}

const aheadLines = 256

// eachCase is eachLine for fixtures: it reads f's lines, decodes them on GOMAXPROCS workers, and calls
// use with each line and what decoding found, in line order, all results coming from the calling
// goroutine. At most a few batches are in memory at once.
func (c *checker) eachCase(ctx context.Context, f *os.File, rel string, inScope bool, use func(rawLine, *decodedCase)) error {
	workers := runtime.GOMAXPROCS(0)
	batches := make(chan *aheadBatch, workers) // to the workers
	ordered := make(chan *aheadBatch, 2*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range batches {
				b.decoded = make([]decodedCase, len(b.lines))
				for i, ln := range b.lines {
					b.decoded[i] = decodeLine(ln)
				}
				close(b.done)
			}
		}()
	}
	type read struct {
		lr  *lineReader
		err error
	}
	finished := make(chan read, 1)
	go func() {
		defer close(ordered)
		defer close(batches)
		b := &aheadBatch{done: make(chan struct{})}
		send := func() {
			batches <- b
			ordered <- b
			b = &aheadBatch{done: make(chan struct{})}
		}
		lr, err := c.readLines(ctx, f, func(ln rawLine) {
			ln.Text = append([]byte(nil), ln.Text...)
			b.lines = append(b.lines, ln)
			if len(b.lines) == aheadLines {
				send()
			}
		})
		if len(b.lines) > 0 {
			send()
		}
		finished <- read{lr, err}
	}()
	for b := range ordered {
		<-b.done
		for i := range b.lines {
			use(b.lines[i], &b.decoded[i])
		}
	}
	wg.Wait()
	r := <-finished
	if r.err != nil {
		return r.err
	}
	c.readFailed(rel, inScope, r.lr) // after every line's results, as a read in order does
	return nil
}

// Pass 2 likewise: matching candidates with their cases (which case is answered, which candidate is
// a second one) is done in order on the calling goroutine, and so is re-reading each case's line;
// the assertions, the costly part, run on every core; results are handed on in candidate order.

// candidateSlot is one candidate line's results, and its assertions still to run.
type candidateSlot struct {
	results []diag.Result
	job     *assertJob
}

type candidateBatch struct {
	slots []*candidateSlot
	done  chan struct{}
}

// eachCandidate checks every line of the candidates file f (README "Results, scope and memory").
func (c *checker) eachCandidate(ctx context.Context, f *os.File, rel string, inScope bool) error {
	emit := c.emit
	var cur *candidateSlot
	c.emit = func(r diag.Result) { cur.results = append(cur.results, r) } // this goroutine's, while it reads
	workers := runtime.GOMAXPROCS(0)
	batches := make(chan *candidateBatch, workers)
	ordered := make(chan *candidateBatch, 2*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range batches {
				for _, s := range b.slots {
					if s.job != nil {
						c.assert(s.job, func(r diag.Result) { s.results = append(s.results, r) })
						s.job = nil
					}
				}
				close(b.done)
			}
		}()
	}
	handed := make(chan struct{})
	go func() {
		defer close(handed)
		for b := range ordered {
			<-b.done
			for _, s := range b.slots {
				for _, r := range s.results {
					emit(r)
				}
			}
		}
	}()
	b := &candidateBatch{done: make(chan struct{})}
	send := func() {
		batches <- b
		ordered <- b
		b = &candidateBatch{done: make(chan struct{})}
	}
	lr, err := c.readLines(ctx, f, func(ln rawLine) {
		cur = &candidateSlot{}
		cur.job = c.candidateLine(rel, ln, inScope)
		b.slots = append(b.slots, cur)
		if len(b.slots) == aheadLines {
			send()
		}
	})
	if len(b.slots) > 0 {
		send()
	}
	close(batches)
	close(ordered)
	wg.Wait()
	<-handed
	c.emit = emit
	if err != nil {
		return err
	}
	c.readFailed(rel, inScope, lr)
	return nil
}
