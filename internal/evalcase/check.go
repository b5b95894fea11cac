package evalcase

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/repofs"
)

// Request is what one run asks of the EvalCase checks.
type Request struct {
	Root       string   // absolute repository root
	Fixtures   []string // repository-relative paths of every selected fixture, sorted
	Candidates []string // repository-relative paths of every selected candidates file, sorted
	// InScope says whether results about a fixture or candidates file are
	// reported; nil means every file is in scope. Every selected file is
	// indexed whatever its scope (README "EvalCase v1 fixtures").
	InScope func(file string) bool
	// Related says of a file out of scope whether its faults of two lines, which another file can
	// cause, are reported all the same: duplicate_id, unknown_case and duplicate_candidate (a change
	// that repeats an id, or takes a case away, faults a file it did not touch), whichever files the
	// two lines are in. nil: none.
	Related func(file string) bool
	// ByFixture reports a case's assertions only when its fixture is in scope, not when only its
	// candidates file is: in a shard of a set, every result then belongs to one shard (README
	// "Shards").
	ByFixture bool
	// ReadCandidates is false for `evalgate validate`: fixtures are
	// validated, no candidate is read, no assertion runs.
	ReadCandidates bool
	// CandidatesConfigured: a candidates file is configured or given; only
	// then is a case without a candidate reported (skip, no_candidate).
	CandidatesConfigured bool
}

// Check validates every selected fixture and, when req.ReadCandidates,
// runs each case's assertions on its candidate. It returns the results in
// no particular order (callers sort them with diag.Sort). The error is only
// for a failure of the run as a whole (a cancelled context); a file or a
// line that cannot be read or checked is a result.
func Check(ctx context.Context, req Request) ([]diag.Result, error) {
	var out []diag.Result
	err := Stream(ctx, req, func(r diag.Result) { out = append(out, r) })
	return out, err
}

// Stream is Check handing each result to emit as soon as it is known, so
// that a caller that does not keep them needs no memory for them.
//
// It works in two passes (README "EvalCase v1 fixtures"). Pass 1 reads every candidates file line
// by line, validates each candidate and keeps only an index: case id → file, byte offset, length and
// line of the candidate. Pass 2 reads every fixture line by line, validates each case and, when a
// candidate names it, re-reads that candidate by offset and runs the case's assertions on it; a
// case no candidate names is indexed by its id, for the duplicate check. Each case line is read and
// decoded once, each candidate line twice (the second time by its offset); no case or candidate text
// is held beyond the one being checked. The candidates that no case claimed, and the second ones, are
// settled last, by reading their files once more. A fixture's results come in report order: line by
// line, and a case's by check.
func Stream(ctx context.Context, req Request, emit func(diag.Result)) error {
	c := newChecker(req, emit)
	defer c.close()
	return c.run(ctx)
}

// ToContract converts an assertion result into the contract's own result
// object (contract §6). It returns false for definition faults and for
// bookkeeping results (no_candidate, unknown_case, duplicate_candidate).
func ToContract(r diag.Result) (ContractResult, bool) {
	if r.Source != diag.SourceEvalCase || !IsAssertion(r.Check) || r.CaseID == "" ||
		(r.Outcome != diag.Pass && r.Outcome != diag.Fail && r.Outcome != diag.Error) {
		return ContractResult{}, false
	}
	sev := SeverityHard
	if r.Severity != diag.SeverityError {
		sev = SeverityReport
	}
	ev := r.Evidence
	if ev == nil {
		ev = map[string]any{}
	}
	return ContractResult{
		CaseID: r.CaseID, Assertion: r.Check, Passed: r.Outcome == diag.Pass, Severity: sev,
		Code: r.Code, Message: r.Message, Evidence: ev,
	}, true
}

// ContractResult is the contract's deterministic result (contract §6).
type ContractResult struct {
	CaseID    string         `json:"case_id"`
	Assertion string         `json:"assertion"`
	Passed    bool           `json:"passed"`
	Severity  string         `json:"severity"` // "hard" or "report"
	Code      string         `json:"code"`
	Message   string         `json:"message"`
	Evidence  map[string]any `json:"evidence"`
}

// Checks of bookkeeping results about candidates: the check is the code.
const (
	checkUnknownCase        = "unknown_case"
	checkDuplicateCandidate = "duplicate_candidate"
)

// lineRef is a line's entry in an index: where to find the line again, and what is known of it.
type lineRef struct {
	hash uint64 // the id's, as the index keys it
	off  int64  // byte offset of the line in its file
	n    uint32 // the line's length in bytes
	line int32
	file int32 // index into Request.Fixtures, or Request.Candidates for a candidate
	// valid: the line is a valid case or candidate. The rest is a candidate's: inScope is its
	// file's InScope; cross, that its unknown_case or duplicate_candidate is reported (in scope or
	// Related); claimed, that a case with its id has been read (it answers that case).
	valid, inScope, cross, claimed bool
}

// checker is the state of one Stream.
type checker struct {
	req       Request
	emit      func(diag.Result)
	limit     int               // the longest line read; MaxLine except in tests
	answers   *index            // pass 1: the first candidate of each case id
	cases     *index            // pass 2: the cases no candidate names, by id
	real      []string          // each fixture's resolved path; "" when it was not read
	scope     []bool            // each fixture's InScope
	cross     []bool            // each fixture: its duplicate_id is reported (InScope or Related)
	candReal  []string          // each candidates file's resolved path
	candScope []bool            // each candidates file's InScope
	candCross []bool            // each candidates file: its unknown_case and duplicate_candidate are reported
	unsettled []bool            // each candidates file: settle reads it again (a second candidate, or one unclaimed)
	lines     *lineCache        // re-reads lines for the checks done in order
	readers   chan *lineCache   // read candidates again for the cases graded on every core, one a core
	hook      func(what string) // tests: runs before each line is checked (and may panic)
	// faults counts the definition faults of each file; unreported holds those past maxFileFaults.
	faults     map[string]int
	unreported map[string]*unreported
}

func newChecker(req Request, emit func(diag.Result)) *checker {
	if req.InScope == nil {
		req.InScope = func(string) bool { return true }
	}
	if req.Related == nil {
		req.Related = func(string) bool { return false }
	}
	c := &checker{
		req: req, emit: emit, limit: MaxLine,
		answers: newIndex(), cases: newIndex(),
		real:      make([]string, len(req.Fixtures)),
		scope:     make([]bool, len(req.Fixtures)),
		cross:     make([]bool, len(req.Fixtures)),
		candReal:  make([]string, len(req.Candidates)),
		candScope: make([]bool, len(req.Candidates)),
		candCross: make([]bool, len(req.Candidates)),
		unsettled: make([]bool, len(req.Candidates)),
		lines:     newLineCache(),
		readers:   newReaders(),
		faults:    map[string]int{}, unreported: map[string]*unreported{},
	}
	for i, f := range req.Fixtures {
		c.scope[i] = req.InScope(f)
		c.cross[i] = c.scope[i] || req.Related(f)
	}
	for i, f := range req.Candidates {
		c.candScope[i] = req.InScope(f)
		c.candCross[i] = c.candScope[i] || req.Related(f)
	}
	return c
}

// close closes every file the line caches hold open.
func (c *checker) close() {
	c.lines.close()
	for range cap(c.readers) {
		(<-c.readers).close()
	}
}

func (c *checker) run(ctx context.Context) error {
	if c.req.ReadCandidates {
		for i := range c.req.Candidates {
			if err := c.indexCandidates(ctx, i); err != nil {
				return err
			}
		}
	}
	for i := range c.req.Fixtures {
		if err := c.checkFixture(ctx, i); err != nil {
			return err
		}
	}
	defer c.emitUnreported()
	if !c.req.ReadCandidates {
		return nil
	}
	return c.settle(ctx)
}

func severityOf(report bool) diag.Severity {
	if report {
		return diag.SeverityWarning
	}
	return diag.SeverityError
}

// open opens a selected file if it is a regular file inside the repository
// and not inside .git (README "Security model"). A refusal or failure is a result, emitted when
// the file is in scope.
func (c *checker) open(rel string, inScope bool) (*os.File, string) {
	fail := func(code, msg string) (*os.File, string) {
		if inScope {
			c.emit(diag.Result{
				Source: diag.SourceEvalCase, File: rel, Check: diag.CheckDefinition,
				Outcome: diag.Error, Severity: diag.SeverityError, Code: code, Message: msg,
			})
		}
		return nil, ""
	}
	full, err := repofs.Within(c.req.Root, c.req.Root, filepath.FromSlash(rel))
	if err != nil {
		code, why := repofs.Refusal(err)
		return fail(code, rel+" "+why+"; it is not read")
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return fail("target_unreadable", "cannot read "+rel+": "+repofs.Reason(err))
	}
	f, _, err := repofs.Open(real)
	if err != nil {
		return fail("target_unreadable", "cannot read "+rel+": "+repofs.Reason(err))
	}
	return f, real
}

// checkEvery is how many lines pass between two looks at the context.
const checkEvery = 1024

// indexCandidates is pass 1 for one candidates file.
func (c *checker) indexCandidates(ctx context.Context, ci int) error {
	rel, inScope := c.req.Candidates[ci], c.candScope[ci]
	return c.withFile(rel, inScope, func(f *os.File, real string) error {
		c.candReal[ci] = real
		return eachDecoded(c, ctx, f, rel, inScope, func(ln rawLine, _ *lineCache, d *decodedCandidate) { *d = decodeCandidateLine(ln, false) },
			func(ln rawLine, d *decodedCandidate) {
				c.candidateLine(ci, rel, ln, inScope, d)
				*d = decodedCandidate{} // its faults and wire are done with
			})
	})
}

// checkFixture is pass 2 for one fixture.
func (c *checker) checkFixture(ctx context.Context, fi int) error {
	rel, inScope := c.req.Fixtures[fi], c.scope[fi]
	return c.withFile(rel, inScope, func(f *os.File, real string) error {
		c.real[fi] = real
		return eachDecoded(c, ctx, f, rel, inScope, func(ln rawLine, lc *lineCache, d *checkedCase) { c.readCase(fi, ln, lc, d) },
			func(ln rawLine, d *checkedCase) {
				c.caseLine(fi, rel, ln, inScope, d)
				d.release()
			})
	})
}

// withFile opens the selected file rel (open) and hands it to read with its resolved path; a file
// that cannot be opened is its result, and read does not run.
func (c *checker) withFile(rel string, inScope bool, read func(f *os.File, real string) error) error {
	f, real := c.open(rel, inScope)
	if f == nil {
		return nil
	}
	defer f.Close()
	return read(f, real)
}

// readLines calls line with each line of f, looking at the context every checkEvery lines.
func (c *checker) readLines(ctx context.Context, f *os.File, line func(rawLine)) (*lineReader, error) {
	lr := newLineReader(f, c.limit)
	for n := 0; ; n++ {
		if n%checkEvery == 0 && ctx.Err() != nil {
			return lr, ctx.Err()
		}
		ln, ok := lr.next()
		if !ok {
			return lr, nil
		}
		line(ln)
	}
}

// readFailed reports a read that failed midway as the file's target_unreadable at the line it stopped on.
func (c *checker) readFailed(rel string, inScope bool, lr *lineReader) {
	if err := lr.Err(); err != nil && inScope {
		c.emit(diag.Result{
			Source: diag.SourceEvalCase, File: rel, Pos: diag.Pos{Line: lr.no + 1}, Check: diag.CheckDefinition,
			Outcome: diag.Error, Severity: diag.SeverityError, Code: "target_unreadable", Message: "cannot read " + rel + ": " + repofs.Reason(err),
		})
	}
}

// internalError turns a panic while checking one line into that line's
// result (README "Exit statuses").
func (c *checker) internalError(v any, file string, line int, check, caseID string, sev diag.Severity, report bool) {
	if report {
		c.emit(internalResult(v, file, line, check, caseID, sev))
	}
}

func internalResult(v any, file string, line int, check, caseID string, sev diag.Severity) diag.Result {
	return diag.Result{
		Source: diag.SourceEvalCase, File: file, Pos: diag.Pos{Line: line, Col: 1}, Check: check, CaseID: caseID,
		Outcome: diag.Error, Severity: sev, Code: "internal_error",
		Message:  fmt.Sprintf("internal error: %v", v),
		Evidence: diag.BoundEvidence(map[string]any{"stack": string(debug.Stack())}),
	}
}

// recoverLine, deferred by the readers of one line, turns a panic into that line's internal_error.
func (c *checker) recoverLine(rel string, ln rawLine, inScope bool) {
	if v := recover(); v != nil {
		c.internalError(v, rel, ln.No, diag.CheckDefinition, "", diag.SeverityError, inScope)
	}
}

// lineStarts is what every line goes through first, in order (kind is "case" or "candidate", for the
// test hook): a line too long is too_large, a blank one is skipped, and a panic while decoding it on a
// core (panicked) is raised again here, for recoverLine to report. It reports whether the line is to
// be read.
func (c *checker) lineStarts(kind, rel string, ln rawLine, inScope bool, panicked any) bool {
	if c.hook != nil {
		c.hook(kind)
	}
	if panicked != nil {
		panic(panicked)
	}
	if ln.TooLarge {
		c.tooLarge(rel, ln, inScope)
		return false
	}
	return !blank(ln.Text)
}

// caseLine reports what reading one fixture line found (readCase), in line order: its faults, a
// duplicate id, and its assertions' results, or no_candidate for a valid case no candidate names.
// The first case of an id claims the candidate that names it, or, when none does, takes its place in
// the index of cases.
func (c *checker) caseLine(fi int, rel string, ln rawLine, inScope bool, d *checkedCase) {
	defer c.recoverLine(rel, ln, inScope)
	if !c.lineStarts("case", rel, ln, inScope, d.panic) {
		return
	}
	info := d.info
	if inScope && d.faults.total > 0 {
		c.emitFaults(rel, d.faults, info.id)
	}
	id := info.id
	if id == "" {
		return
	}
	if d.answer >= 0 {
		ref := c.answers.at(d.answer)
		if ref.claimed {
			c.duplicateID(rel, ln, c.cross[fi], info)
			return
		}
		ref.claimed = true
		for _, r := range d.results {
			c.emit(r)
		}
		return
	}
	h := c.cases.hash(id)
	dup := false
	c.cases.each(h, func(slot int32) bool {
		earlier, err := c.caseID(c.cases.at(slot))
		dup = err == nil && earlier == id
		return !dup
	})
	if dup {
		c.duplicateID(rel, ln, c.cross[fi], info)
		return
	}
	c.cases.add(lineRef{off: ln.Off, n: uint32(len(ln.Text)), line: int32(ln.No), file: int32(fi), valid: d.valid}, h)
	for _, r := range d.results { // an internal_error: its candidate could not be read again
		c.emit(r)
	}
	if !d.valid || len(d.results) > 0 || !c.req.ReadCandidates || !c.req.CandidatesConfigured || !inScope {
		return
	}
	for _, j := range byName { // in report order
		if info.asserts&(1<<j) == 0 {
			continue
		}
		c.emit(diag.Result{
			Source: diag.SourceEvalCase, File: rel, Pos: diag.Pos{Line: ln.No, Col: 1},
			Check: Vocabulary[j].Name, CaseID: id, Outcome: diag.Skip, Severity: severityOf(info.report&(1<<j) != 0),
			Code: "no_candidate", Message: fmt.Sprintf("no candidate for case %s", id),
		})
	}
}

// duplicateID reports a case whose id an earlier case has, when report says so.
func (c *checker) duplicateID(rel string, ln rawLine, report bool, info caseInfo) {
	if !report {
		return
	}
	pos := info.idPos
	if !pos.Known() {
		pos = valuePos(ln.Text, ln.No, "id")
	}
	c.emitFault(rel, fault{pos: pos, key: "id", code: "duplicate_id",
		msg: fmt.Sprintf("case id %s is already used by an earlier case; ids are unique across all fixtures", info.id)}, info.id)
}

func (c *checker) tooLarge(rel string, ln rawLine, inScope bool) {
	if !inScope {
		return
	}
	c.emit(diag.Result{
		Source: diag.SourceEvalCase, File: rel, Pos: diag.Pos{Line: ln.No, Col: 1}, Check: diag.CheckDefinition,
		Outcome: diag.Fail, Severity: diag.SeverityError, Code: "too_large",
		Message: fmt.Sprintf("line %d is longer than %d MiB; it is skipped", ln.No, c.limit>>20),
	})
}

// maxLineFaults bounds the faults reported for one line (README "EvalCase v1 fixtures"): a line may
// hold 16 MiB of bad values.
const maxLineFaults = 50

// emitFaults reports a line's definition faults, at most maxLineFaults of them, and past them the
// first one not reported, at its place, saying how many more there are (as diag.FileProblems does
// for a file).
func (c *checker) emitFaults(rel string, fs faults, caseID string) {
	for _, f := range fs.list {
		c.emitFault(rel, f, caseID)
	}
	if more := fs.total - len(fs.list); more > 0 {
		f := fs.past
		f.msg = fmt.Sprintf("%d more faults in this line are not reported", more)
		c.emitFault(rel, f, caseID)
	}
}

// maxFileFaults bounds the definition faults reported for one file (README "Limits"), as
// maxLineFaults does for a line: a fixture of 160,000 lines "{}" (480 KB) made a JSON report of
// 600 MB. Past it, faults are counted, and the first one not reported says how many there are.
const maxFileFaults = diag.MaxFileFaults

// unreported is what a file's faults past maxFileFaults leave: how many, and the first.
type unreported struct {
	n     int
	first diag.Result
}

// emitFault reports a definition fault at its position, unless its file has had maxFileFaults.
func (c *checker) emitFault(rel string, f fault, caseID string) {
	r := diag.Result{
		Source: diag.SourceEvalCase, File: rel, Pos: f.pos, Check: diag.CheckDefinition,
		CaseID: caseID, Outcome: diag.Fail, Severity: diag.SeverityError, Code: f.code, Message: f.msg,
		Key: f.key,
	}
	if c.faults[rel]++; c.faults[rel] <= maxFileFaults {
		c.emit(r)
		return
	}
	u := c.unreported[rel]
	if u == nil {
		u = &unreported{first: r}
		c.unreported[rel] = u
	}
	u.n++
}

// emitUnreported reports, for each file that had more than maxFileFaults faults, how many more.
func (c *checker) emitUnreported() {
	for _, rel := range slices.Sorted(maps.Keys(c.unreported)) {
		u := c.unreported[rel]
		r := u.first
		r.Message = fmt.Sprintf("%d more definition faults in this file are not reported", u.n)
		c.emit(r)
	}
	clear(c.unreported)
}

// decodedCandidate is what decoding one candidates line found; nothing for a line too large or blank,
// which lineStarts reports.
type decodedCandidate struct {
	valid  bool
	id     string   // the case_id it names, "" for none
	idPos  diag.Pos // where the case_id's value is, when the authoritative validation read the line
	wire   *candidateWire
	faults faults
	panic  any // a panic while decoding, reported at the line in order
}

// decodeCandidateLine decodes one candidate line: by the fast path, else, when it doubts the line,
// by the authoritative validation, which finds every fault. Unless keep, a valid candidate's texts
// are checked, not kept (d.wire is nil).
func decodeCandidateLine(ln rawLine, keep bool) (d decodedCandidate) {
	if ln.TooLarge || blank(ln.Text) {
		return decodedCandidate{}
	}
	defer func() {
		if v := recover(); v != nil {
			d = decodedCandidate{panic: v}
		}
	}()
	if !keep {
		if id, ok := fastCandidateID(ln.Text); ok {
			return decodedCandidate{valid: true, id: id}
		}
	} else if w, ok := fastCandidate(ln.Text); ok {
		return decodedCandidate{valid: true, id: w.CaseID, wire: w}
	}
	fs, v, pos := validateCandidate(ln.Text, ln.No)
	if fs.total > 0 {
		return decodedCandidate{id: v.CaseID, faults: fs}
	}
	return decodedCandidate{valid: true, id: v.CaseID, idPos: pos, wire: &v} // the fast path was over-cautious
}

// candidateLine reports one candidate's faults and indexes the first candidate of each case id, valid
// or not: a faulty candidate still answers its case (no no_candidate on top of its own fault). A later
// one is settled at the end, once every case is known.
func (c *checker) candidateLine(ci int, rel string, ln rawLine, inScope bool, d *decodedCandidate) {
	defer c.recoverLine(rel, ln, inScope)
	if !c.lineStarts("candidate", rel, ln, inScope, d.panic) {
		return
	}
	if inScope && d.faults.total > 0 {
		c.emitFaults(rel, d.faults, d.id)
	}
	if d.id == "" {
		return
	}
	h := c.answers.hash(d.id)
	if _, ok := c.answerOf(c.lines, h, d.id); ok {
		c.unsettled[ci] = c.unsettled[ci] || d.valid && c.candCross[ci]
		return
	}
	c.answers.add(lineRef{off: ln.Off, n: uint32(len(ln.Text)), line: int32(ln.No), file: int32(ci), valid: d.valid,
		inScope: inScope, cross: c.candCross[ci]}, h)
}

// answerOf finds the indexed candidate for case id, whose hash is h, reading candidate lines again
// through lc to compare their ids.
func (c *checker) answerOf(lc *lineCache, h uint64, id string) (slot int32, found bool) {
	slot, _, _ = c.answerRead(lc, h, id)
	return slot, slot >= 0
}

// answerRead is answerOf with the candidate decoded, and the error of a candidate line whose id hashes
// as id's does but that does not read again as a candidate (its file changed during the run).
func (c *checker) answerRead(lc *lineCache, h uint64, id string) (int32, decodedCandidate, error) {
	found, cand := int32(-1), decodedCandidate{}
	var failed error
	c.answers.each(h, func(slot int32) bool {
		ref := c.answers.at(slot)
		text, err := lc.read(c.candReal[ref.file], ref.off, int(ref.n))
		if err != nil {
			failed = fmt.Errorf("cannot read line %d of %s again: %v", ref.line, c.req.Candidates[ref.file], repofs.Reason(err))
			return true
		}
		d := decodeCandidateLine(rawLine{Text: text, No: int(ref.line)}, true)
		switch {
		case d.id == id && d.valid == ref.valid:
			found, cand = slot, d
			return false
		case d.id == "" || d.valid != ref.valid:
			failed = fmt.Errorf("line %d of %s no longer holds the candidate it held", ref.line, c.req.Candidates[ref.file])
		}
		return true
	})
	if found >= 0 {
		return found, cand, nil
	}
	return -1, decodedCandidate{}, failed
}

// caseID reads ref's case line again for its id, which the index does not keep, for the duplicate
// check, where the same hash must be the same id. A valid case's id is read alone; an invalid one's
// line goes through the validation that found its id. A line that no longer holds a case with an id
// (the file changed during the run) gives "".
func (c *checker) caseID(ref *lineRef) (string, error) {
	text, err := c.lines.read(c.real[ref.file], ref.off, int(ref.n))
	switch {
	case err != nil:
		return "", err
	case ref.valid:
		return caseIDOf(text)
	}
	return decodeLine(rawLine{Text: text, No: int(ref.line)}).info.id, nil
}

// settle reports, once every case is known, the candidates no case claimed (unknown_case) and the
// second candidates of a case (duplicate_candidate, or unknown_case when no case has the id): it
// reads again the candidates files (in scope or Related) that hold any, line by line. A faulty candidate has
// had its faults and gets nothing more.
func (c *checker) settle(ctx context.Context) error {
	for i := range c.answers.len() {
		if ref := c.answers.at(int32(i)); !ref.claimed && ref.valid && ref.cross {
			c.unsettled[ref.file] = true
		}
	}
	for ci, rel := range c.req.Candidates {
		if !c.unsettled[ci] {
			continue
		}
		err := c.withFile(rel, true, func(f *os.File, _ string) error {
			_, err := c.readLines(ctx, f, func(ln rawLine) { c.settleLine(ci, rel, ln) })
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// settleLine settles one line of a candidates file that settle reads again.
func (c *checker) settleLine(ci int, rel string, ln rawLine) {
	defer c.recoverLine(rel, ln, true)
	if ln.TooLarge || blank(ln.Text) {
		return
	}
	d := decodeCandidateLine(ln, false)
	if d.panic != nil {
		panic(d.panic)
	}
	if !d.valid || d.id == "" {
		return
	}
	// The line indexed itself when it was its id's first; else the first is found by its id.
	h := c.answers.hash(d.id)
	slot := int32(-1)
	c.answers.each(h, func(s int32) bool {
		if ref := c.answers.at(s); ref.file == int32(ci) && ref.off == ln.Off {
			slot = s
		}
		return slot < 0
	})
	first := slot >= 0
	if !first {
		var ok bool
		if slot, ok = c.answerOf(c.lines, h, d.id); !ok {
			return // not a line pass 1 read (the file changed during the run)
		}
	}
	ref := c.answers.at(slot)
	switch {
	case first && ref.claimed:
	case !ref.claimed:
		c.candidateFault(rel, ln, d.id, d.idPos, checkUnknownCase, fmt.Sprintf("case %s is in no selected fixture", quote(d.id)))
	default:
		c.candidateFault(rel, ln, d.id, d.idPos, checkDuplicateCandidate,
			fmt.Sprintf("a second candidate for case %s; the first one is checked", quote(d.id)))
	}
}

// candidateFault reports a valid candidate's bookkeeping result at its case_id, whose value is at pos
// (unknown when the fast path read the line).
func (c *checker) candidateFault(rel string, ln rawLine, id string, pos diag.Pos, code, msg string) {
	if !pos.Known() {
		pos = valuePos(ln.Text, ln.No, "case_id")
	}
	c.emit(diag.Result{
		Source: diag.SourceEvalCase, File: rel, Pos: pos,
		Check: code, CaseID: id, Outcome: diag.Fail, Severity: diag.SeverityError, Code: code, Message: msg,
	})
}

// caseDoc is what the assertions read of a valid case.
type caseDoc struct {
	ID             string         `json:"id"`
	SourceLocale   string         `json:"source_locale"`
	TargetLocale   string         `json:"target_locale"`
	Source         string         `json:"source"`
	RequiredTokens []string       `json:"required_tokens"`
	Assertions     []assertionDoc `json:"assertions"`
}

type assertionDoc struct {
	Name     string  `json:"name"`
	Severity string  `json:"severity"`
	Params   rawJSON `json:"params"` // points into the line, valid while it is checked
}

// caseRoom is what a graded case is decoded into again and again, and the input its assertions read:
// kept from case to case, the room of its assertions and the texts that recur included, so that a case
// costs none of them an allocation.
type caseRoom struct {
	doc         caseDoc
	in          input
	placeholder placeholderParams
	recur       recurring
}

// reset makes the room ready for the next case, giving back its tokens and keeping its assertions'
// room (empty) and its recurring texts.
func (r *caseRoom) reset() {
	clear(r.doc.Assertions) // what they point to is the line's, done with
	r.doc = caseDoc{Assertions: r.doc.Assertions[:0]}
	r.in.release()
	r.in, r.placeholder = input{}, placeholderParams{}
}

// caseRooms hold the room cases are graded in.
var caseRooms = sync.Pool{New: func() any { return new(caseRoom) }}

// fill makes doc the case the fast path decoded into w, its source decoded now: only a graded case
// needs it.
func (doc *caseDoc) fill(w *caseWire, recur *recurring) error {
	doc.ID, doc.SourceLocale, doc.TargetLocale, doc.RequiredTokens = w.ID, w.SourceLocale, w.TargetLocale, w.RequiredTokens
	for _, a := range w.Assertions {
		doc.Assertions = append(doc.Assertions, assertionDoc(a))
	}
	return jsonStringVia(w.Source, &doc.Source, recur)
}

// grade runs the assertions of the case in text (at line of file) on its candidate cand, handing each
// result to out. w is the case as the fast path decoded it, nil when the fast path doubted the line
// and the authoritative validation found it valid: the case is then decoded from text.
func (c *checker) grade(text []byte, w *caseWire, cand *candidateWire, file string, line int, out func(diag.Result)) {
	id := cand.CaseID // the candidate's, which is its case's
	room := caseRooms.Get().(*caseRoom)
	defer func() {
		room.reset()
		caseRooms.Put(room)
	}()
	doc := &room.doc
	var err error
	if w != nil {
		err = doc.fill(w, &room.recur)
	} else {
		err = decodeCase(text, doc, &room.recur)
	}
	if err != nil { // a valid case decodes
		panic(err)
	}
	in := &room.in
	*in = input{
		source: doc.Source, sourceLocale: doc.SourceLocale, targetLocale: doc.TargetLocale,
		requiredTokens: doc.RequiredTokens, text: *cand.Text,
	}
	if cand.RawResponse != nil {
		in.raw, in.hasRaw = *cand.RawResponse, true
	}
	for _, a := range doc.Assertions {
		if a.Name == "placeholder_integrity" {
			room.placeholder = decodePlaceholderParams(a.Params)
			in.placeholder = &room.placeholder
		}
	}
	for _, a := range doc.Assertions {
		c.runAssertion(lookupAssertion(a.Name), a, in, file, line, id, out)
	}
}

// runAssertion runs one assertion; a panic becomes its internal_error.
func (c *checker) runAssertion(spec *Assertion, a assertionDoc, in *input, file string, line int, id string, out func(diag.Result)) {
	sev := severityOf(a.Severity == SeverityReport)
	defer func() {
		if v := recover(); v != nil {
			out(internalResult(v, file, line, spec.Name, id, sev))
		}
	}()
	if c.hook != nil {
		c.hook(spec.Name)
	}
	v := spec.run(in, a.Params)
	out(assertionResult(spec.Name, sev, v, file, line, id))
}

// assertionResult turns a verdict into its Result: a pass with code ok, or
// a fail whose code is the first fault in the order of README "Codes" and whose
// evidence lists the faults, at most diag.MaxEvidenceItems of them with
// faults_total counting them all (README "Results": bounded evidence). An
// assertion that found no fault but could not check everything within its
// work limit is an error (too_large).
func assertionResult(name string, sev diag.Severity, v verdict, file string, line int, id string) diag.Result {
	r := diag.Result{
		Source: diag.SourceEvalCase, File: file, Pos: diag.Pos{Line: line, Col: 1},
		Check: name, CaseID: id, Severity: sev,
	}
	if !v.failed() {
		if v.unchecked != "" {
			r.Outcome, r.Code, r.Message = diag.Error, "too_large", v.unchecked
			return r
		}
		r.Outcome, r.Code, r.Message = diag.Pass, "ok", v.passMsg
		return r
	}
	slices.SortStableFunc(v.faults, func(a, b finding) int { return codeRank(a.code) - codeRank(b.code) })
	kept := v.faults[:min(len(v.faults), diag.MaxEvidenceItems)]
	r.Outcome, r.Code, r.Message = diag.Fail, kept[0].code, kept[0].msg
	switch n := v.total - 1; {
	case n > 0 && v.total <= len(kept):
		r.Message += fmt.Sprintf(" (and %d more fault(s) in the evidence)", n)
	case n > 0:
		r.Message += fmt.Sprintf(" (and %d more fault(s); the evidence lists %d of them)", n, len(kept)-1)
	}
	ev := make(map[string]any, len(v.evidence)+4)
	for k, x := range v.evidence {
		ev[k] = x
	}
	diag.PutList(ev, "faults", v.total, func(i int) any {
		f := kept[i]
		m := map[string]any{"code": f.code, "message": f.msg}
		for k, x := range f.detail {
			m[k] = x
		}
		return m
	})
	if v.unchecked != "" {
		ev["not_checked"] = v.unchecked
		r.Message += "; " + v.unchecked
	}
	r.Evidence = ev // bounded as every result is, when it is added to the report (report.Results.Add)
	return r
}

// lineCache re-reads case lines by offset (os.File.ReadAt) through a small
// window per open fixture, so that candidates in fixture order cost one
// read per window rather than one per case. Its memory is bounded: at most
// maxOpen files with one window each.
type lineCache struct {
	files map[string]*window
	clock int64
}

type window struct {
	f    *os.File
	buf  []byte
	off  int64 // file offset of buf[0]
	n    int   // valid bytes in buf
	used int64 // the clock at the last use
}

const (
	windowSize = 64 << 10
	maxOpen    = 16
)

func newLineCache() *lineCache { return &lineCache{files: map[string]*window{}} }

// read returns n bytes at off of the file at path; the slice is valid until
// the next read.
func (lc *lineCache) read(path string, off int64, n int) ([]byte, error) {
	lc.clock++
	w, ok := lc.files[path]
	if !ok {
		if len(lc.files) >= maxOpen {
			lc.evict()
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		w = &window{f: f, off: -1}
		lc.files[path] = w
	}
	w.used = lc.clock
	if w.off >= 0 && off >= w.off && off+int64(n) <= w.off+int64(w.n) {
		return w.buf[off-w.off : off-w.off+int64(n)], nil
	}
	if n > windowSize {
		buf := make([]byte, n)
		if got, err := w.f.ReadAt(buf, off); got < n {
			if err == nil || errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		return buf, nil
	}
	if w.buf == nil {
		w.buf = make([]byte, windowSize)
	}
	got, err := w.f.ReadAt(w.buf, off)
	if got < n {
		if err == nil || errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		w.off = -1
		return nil, err
	}
	w.off, w.n = off, got
	return w.buf[:n], nil
}

func (lc *lineCache) evict() {
	var oldest string
	for p, w := range lc.files {
		if oldest == "" || w.used < lc.files[oldest].used {
			oldest = p
		}
	}
	lc.files[oldest].f.Close()
	delete(lc.files, oldest)
}

func (lc *lineCache) close() {
	for p, w := range lc.files {
		w.f.Close()
		delete(lc.files, p)
	}
}
