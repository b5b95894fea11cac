package report

import (
	"bufio"
	"container/heap"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"iter"
	"os"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

// Results are a report's results: added in any order, read in report order (diag.Compare) as
// often as a writer needs (README "Memory"). A batch of results stays in memory; once a batch
// grows past spillResults results or spillBytes bytes it is sorted and spilled to an unlinked
// temporary file, and reading merges the sorted runs. A batch that sorts after the run before it (results
// added in report order, as EvalCase's are) extends that run rather than starting one, so in-order
// results are read back as one run, with no merge. So a run of any size holds one batch, and one result
// per run while it is read; a run small enough for one batch never touches the disk.
//
// Add and reading must not overlap: a run adds from one goroutine, then finishes, then writes.
// The zero Results is empty and ready to use.
type Results struct {
	buf      []diag.Result
	bytes    int // buf's estimated size
	n        int
	unsorted bool // buf may be out of report order (Add keeps it false while results come in order)
	file     *os.File
	runs     []spillRun
	end      int64       // where the next run starts in file
	last     diag.Result // the last result of the last run, which a batch after it may extend
	err      error

	// With decided, Add decides each result's Blocking at failOn and counts it in tally (Decide).
	decided bool
	failOn  diag.Severity
	tally   Summary
	keep    func(*diag.Result) bool // Keep: nil keeps every result
}

// Spill bounds of a batch. A batch of 4,096 results of a few hundred bytes each is about 2 MiB;
// evidence can be far larger (64 KiB each at the most), hence the byte bound as well. Half as much
// (2,048) makes the merge of 230,000 results slower; twice as much (8,192) costs 4 MB of memory and
// saves no time. Tests lower them to spill small reports.
var (
	spillResults = 4096
	spillBytes   = 2 << 20
)

// spillRun is one sorted batch in the temporary file.
type spillRun struct{ off, size int64 }

// ResultsOf holds rs as they are, which it takes over: for tests, and for results that need no
// bounding (Add bounds and cleans each result).
func ResultsOf(rs ...diag.Result) Results {
	return Results{buf: rs, n: len(rs), unsorted: true}
}

// Len is how many results there are (that Keep kept).
func (s *Results) Len() int { return s.n }

// Err is the first error of writing or reading the temporary file; a writer that read the results
// returns it, for a report that lost results is no report.
func (s *Results) Err() error { return s.err }

// Decide makes Add decide each result's Blocking at failOn (diag.Blocks) and count it as it is added,
// so that Finish, when no baseline marks the results, need not read them all again. It must come
// before the first Add; afterwards it does nothing.
func (s *Results) Decide(failOn diag.Severity) {
	if s.n == 0 {
		s.decided, s.failOn = true, failOn
	}
}

// Keep makes Add, from now on, count every result (Decide) but keep only those keep accepts (nil:
// every one), and of those only what keep leaves of them, for a run whose one report reads no more:
// the text report reads no pass and no evidence (KeepText), `jev`'s text summary only the counts of
// the evaluation's results (README "Memory"). Without Decide it does nothing: what is not kept could
// not be counted.
func (s *Results) Keep(keep func(*diag.Result) bool) {
	if s.decided {
		s.keep = keep
	}
}

// Add adds results, each with its evidence bounded (README "Evidence") and its text made valid
// UTF-8 (every invalid byte U+FFFD, as every format writes it), so that what is spilled and read
// back is what every writer would see.
func (s *Results) Add(rs ...diag.Result) {
	for _, res := range rs {
		// Each result is worked on in its place in the batch: a copy whose address escaped (to keep,
		// say) would be a heap allocation a result, 50 MB for `cases` on 100,000 cases.
		s.buf = append(s.buf, res)
		n := len(s.buf)
		r := &s.buf[n-1]
		if s.decided {
			r.Blocking = diag.Blocks(r, s.failOn)
			s.tally.add(r)
			if s.keep != nil && !s.keep(r) {
				s.buf[n-1] = diag.Result{} // drop its strings and evidence for the collector
				s.buf = s.buf[:n-1]
				continue
			}
		}
		size := validResult(r)
		if n > 1 && !s.unsorted && diag.Compare(&s.buf[n-2], r) > 0 {
			s.unsorted = true
		}
		s.bytes += size
		s.n++
		if len(s.buf) >= spillResults || s.bytes >= spillBytes {
			s.spillBatch()
		}
	}
}

// spillBatch sorts the batch and appends it to the temporary file as one run.
func (s *Results) spillBatch() {
	if s.err != nil || len(s.buf) == 0 {
		return
	}
	if s.file == nil {
		f, err := os.CreateTemp("", "evalgate-results-*")
		if err != nil {
			s.err = err
			return
		}
		os.Remove(f.Name()) // unlinked: the file goes when it is closed, or when evalgate dies
		s.file = f
	}
	s.sortBuf() // nothing to do for a batch added in report order (jev's evaluation, say)
	extends := len(s.runs) > 0 && diag.Compare(&s.last, &s.buf[0]) <= 0
	s.writeRun(func(put func(*diag.Result) bool) {
		for i := range s.buf {
			put(&s.buf[i])
		}
	})
	if n := len(s.runs); extends && n > 1 && s.err == nil {
		// The runs are adjacent in the file, and equal results keep their order (the earlier
		// batch's first), as the merge would order them.
		s.runs[n-2].size += s.runs[n-1].size
		s.runs = s.runs[:n-1]
	}
	s.last = s.buf[len(s.buf)-1]
	clear(s.buf) // drop the batch's strings and evidence for the collector
	s.buf, s.bytes, s.unsorted = s.buf[:0], 0, false
}

// writeRun appends the results each puts to the file as one run, in the order it puts them.
func (s *Results) writeRun(each func(put func(*diag.Result) bool)) {
	w := bufio.NewWriterSize(io.NewOffsetWriter(s.file, s.end), 64<<10)
	var size int64
	var enc []byte
	each(func(res *diag.Result) bool {
		enc = appendRecord(enc[:0], res)
		n, _ := w.Write(enc)
		size += int64(n)
		return true
	})
	if err := w.Flush(); err != nil {
		if s.err == nil {
			s.err = err
		}
		return
	}
	s.runs = append(s.runs, spillRun{off: s.end, size: size})
	s.end += size
}

// All yields every result in report order. The pointer is valid until the next one is yielded;
// a result is kept by copying it. Changes to it through the pointer are lost unless the results
// are all in memory: Update changes results for good.
func (s *Results) All() iter.Seq[*diag.Result] { return s.each(true) }

// Brief is All for a writer that shows no evidence (text, SARIF, annotations): a result read back
// from the temporary file comes without it, which is most of the time reading it takes; one
// still in memory keeps it.
func (s *Results) Brief() iter.Seq[*diag.Result] { return s.each(false) }

func (s *Results) each(evidence bool) iter.Seq[*diag.Result] {
	return func(yield func(*diag.Result) bool) {
		s.sortBuf()
		if len(s.runs) == 0 {
			for i := range s.buf {
				if !yield(&s.buf[i]) {
					return
				}
			}
			return
		}
		s.mergeAhead(yield, evidence)
	}
}

// mergeAhead is merge on a goroutine of its own, handing results on a batch at a time: decoding and
// merging the spilled runs takes about as long as a writer takes to format what it reads, and the two
// then overlap on two cores. A batch is used again once the next one is handed on, so a pointer stays
// valid until the next result is yielded, as All promises.
func (s *Results) mergeAhead(yield func(*diag.Result) bool, evidence bool) {
	const batchSize = 512
	full, free := make(chan []diag.Result, 2), make(chan []diag.Result, 4)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		defer close(full)
		b := make([]diag.Result, 0, batchSize)
		send := func() bool {
			select {
			case full <- b:
			case <-stop:
				return false
			}
			select {
			case b = <-free:
			default:
				b = make([]diag.Result, 0, batchSize)
			}
			return true
		}
		more := true
		s.merge(func(res *diag.Result) bool {
			if b = append(b, *res); len(b) == batchSize {
				more = send()
			}
			return more
		}, evidence)
		if more && len(b) > 0 {
			send()
		}
	}()
	defer func() {
		close(stop) // a yield that stopped early stops the merge
		for range full {
		}
		<-done // s.err is the merge's to set: it is set once this returns
	}()
	var last []diag.Result
	for b := range full {
		if last != nil {
			clear(last)
			select {
			case free <- last[:0]:
			default:
			}
		}
		for i := range b {
			if !yield(&b[i]) {
				return
			}
		}
		last = b
	}
}

func (s *Results) sortBuf() {
	if s.unsorted {
		diag.Sort(s.buf)
		s.unsorted = false
	}
}

// Update calls fn on every result in report order and keeps what it changes.
func (s *Results) Update(fn func(*diag.Result)) {
	if len(s.runs) == 0 {
		s.sortBuf()
		for i := range s.buf {
			fn(&s.buf[i])
		}
		return
	}
	// Merged into one run, written after the others; the old runs are then dropped (their space in
	// the file is not reused: a run is rewritten once, by Finish).
	s.sortBuf()
	s.writeRun(func(put func(*diag.Result) bool) {
		s.merge(func(res *diag.Result) bool {
			fn(res)
			s.last = *res
			return put(res)
		}, true)
	})
	clear(s.buf)
	s.buf, s.bytes, s.unsorted = s.buf[:0], 0, false
	s.runs = s.runs[len(s.runs)-1:]
}

// Slice is every result in report order, in memory: for tests and small reports.
func (s *Results) Slice() []diag.Result {
	out := make([]diag.Result, 0, s.n)
	for res := range s.All() {
		out = append(out, *res)
	}
	return out
}

// Close removes the temporary file, if there is one.
func (s *Results) Close() error {
	if s.file == nil {
		return nil
	}
	err := s.file.Close()
	s.file = nil
	return err
}

// merge yields the runs and the in-memory batch merged in report order; of equal results the
// earlier run's comes first, the batch's last, as a stable sort of the whole would order them.
// Without evidence, results read from the file come without theirs.
func (s *Results) merge(yield func(*diag.Result) bool, evidence bool) {
	if s.err != nil {
		return
	}
	h := &cursors{}
	dec := &decoder{} // one for every run, so they share the strings they keep
	for i, run := range s.runs {
		c := &cursor{rank: i, dec: dec, evidence: evidence, rd: bufio.NewReaderSize(io.NewSectionReader(s.file, run.off, run.size), 32<<10)}
		if c.next(s) {
			h.list = append(h.list, c)
		}
	}
	if len(s.buf) > 0 {
		c := &cursor{rank: len(s.runs), mem: s.buf}
		c.next(s)
		h.list = append(h.list, c)
	}
	heap.Init(h)
	for len(h.list) > 0 {
		c := h.list[0]
		if !yield(&c.cur) {
			return
		}
		if c.next(s) {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
		if s.err != nil {
			return
		}
	}
}

// cursor reads one run: from the file (rd) or from the batch in memory (mem).
type cursor struct {
	rank     int
	rd       *bufio.Reader
	mem      []diag.Result
	cur      diag.Result
	dec      *decoder
	evidence bool // decode the evidence of results read from the file
}

func (c *cursor) next(s *Results) bool {
	if c.rd == nil {
		if len(c.mem) == 0 {
			return false
		}
		c.cur, c.mem = c.mem[0], c.mem[1:]
		return true
	}
	res, err := c.dec.read(c.rd, c.evidence)
	if err != nil {
		if !errors.Is(err, io.EOF) && s.err == nil {
			s.err = err
		}
		return false
	}
	c.cur = res
	return true
}

type cursors struct{ list []*cursor }

func (h *cursors) Len() int { return len(h.list) }
func (h *cursors) Less(i, j int) bool {
	if c := diag.Compare(&h.list[i].cur, &h.list[j].cur); c != 0 {
		return c < 0
	}
	return h.list[i].rank < h.list[j].rank
}
func (h *cursors) Swap(i, j int) { h.list[i], h.list[j] = h.list[j], h.list[i] }
func (h *cursors) Push(x any)    { h.list = append(h.list, x.(*cursor)) }
func (h *cursors) Pop() any {
	c := h.list[len(h.list)-1]
	h.list = h.list[:len(h.list)-1]
	return c
}

// boundKey is a result's key cut as a message is, when it is longer, and ended by the SHA-256 of the
// whole (its first 16 bytes, in hex): the key is the finding's identity in its fingerprint (SARIF's
// evalgate/v1, the baseline's), and two findings whose messages differ only past the cut stay two.
func boundKey(k string) string {
	if len(k) <= diag.MaxEvidenceString {
		return k
	}
	sum := sha256.Sum256([]byte(k))
	tail := "… sha256:" + hex.EncodeToString(sum[:16])
	cut := diag.MaxEvidenceString - len(tail)
	for cut > 0 && !utf8.RuneStart(k[cut]) {
		cut--
	}
	return k[:cut] + tail
}

// validResult bounds res's evidence and message (README "Evidence"), replaces every invalid byte of its text with
// U+FFFD, and returns an estimate of the memory res holds: its strings and evidence, and the struct
// itself. Evidence within its bounds, as most is, is walked once for all of it.
func validResult(res *diag.Result) (size int) {
	size = 200
	// The texts a page, a tool or a model may make any size (a finding's key holds its message, an ai
	// eval's assertion is the page's), bounded as the message is; a key keeps a hash of what it lost.
	res.Message, res.Key, res.Assertion, res.Code = diag.BoundMessage(res.Message), boundKey(res.Key),
		diag.BoundMessage(res.Assertion), diag.BoundMessage(res.Code)
	for _, s := range []*string{&res.File, &res.Check, &res.CaseID, &res.Grader, &res.Type, &res.Code,
		&res.Message, &res.Key, &res.Assertion} {
		*s = validUTF8(*s)
		size += len(*s)
	}
	fits, valid, n := diag.ScanEvidence(res.Evidence)
	if !fits {
		res.Evidence = diag.BoundEvidence(res.Evidence)
		_, valid, n = diag.ScanEvidence(res.Evidence)
	}
	if !valid {
		res.Evidence, _ = validValue(res.Evidence).(map[string]any)
	}
	return size + n
}
