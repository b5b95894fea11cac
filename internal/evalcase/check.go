package evalcase

import (
	"context"
	"errors"
	"fmt"
	"io"
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
// It works in two passes (README "EvalCase v1 fixtures"). Pass 1 reads every fixture line
// by line, validates each case and keeps only an index: case id → file,
// byte offset, length and line of the case, and which assertions it has.
// Pass 2 reads the candidates files line by line; for each candidate it
// re-reads its case's line by offset, decodes it and runs the assertions.
// No case or candidate text is held beyond the one being checked.
func Stream(ctx context.Context, req Request, emit func(diag.Result)) error {
	c := newChecker(req, emit)
	defer c.lines.close()
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

// caseRef is a case's entry in the index: where to find it again and what
// its no_candidate results need.
type caseRef struct {
	hash     uint64 // the id's, as the index keys it
	off      int64  // byte offset of the case's line in its fixture
	n        uint32 // the line's length in bytes
	line     int32
	file     int32 // index into Request.Fixtures
	valid    bool
	answered bool  // a candidate names it
	asserts  uint8 // bit i: the case has Vocabulary[i]
	report   uint8 // bit i: Vocabulary[i] has severity report
}

// checker is the state of one Stream.
type checker struct {
	req   Request
	emit  func(diag.Result)
	limit int               // the longest line read; MaxLine except in tests
	index *index            // every indexed case, by id
	real  []string          // each fixture's resolved path; "" when it was not read
	scope []bool            // each fixture's InScope
	lines *lineCache        // re-reads case lines in pass 2
	hook  func(what string) // tests: runs before each line is checked (and may panic)
}

func newChecker(req Request, emit func(diag.Result)) *checker {
	if req.InScope == nil {
		req.InScope = func(string) bool { return true }
	}
	c := &checker{
		req: req, emit: emit, limit: MaxLine,
		index: newIndex(),
		real:  make([]string, len(req.Fixtures)),
		scope: make([]bool, len(req.Fixtures)),
		lines: newLineCache(),
	}
	for i, f := range req.Fixtures {
		c.scope[i] = req.InScope(f)
	}
	return c
}

func (c *checker) run(ctx context.Context) error {
	for i := range c.req.Fixtures {
		if err := c.indexFixture(ctx, i); err != nil {
			return err
		}
	}
	if !c.req.ReadCandidates {
		return nil
	}
	for _, f := range c.req.Candidates {
		if err := c.candidatesFile(ctx, f); err != nil {
			return err
		}
	}
	if !c.req.CandidatesConfigured {
		return nil
	}
	for i := range c.index.len() {
		ref := c.index.at(int32(i))
		if !ref.valid || ref.answered || !c.scope[ref.file] {
			continue
		}
		id, err := c.caseID(ref)
		if err == nil && id == "" {
			err = errors.New("it holds no case id")
		}
		if err != nil {
			c.emit(diag.Result{
				Source: diag.SourceEvalCase, File: c.req.Fixtures[ref.file], Pos: diag.Pos{Line: int(ref.line), Col: 1},
				Check: diag.CheckDefinition, Outcome: diag.Error, Severity: diag.SeverityError, Code: "internal_error",
				Message: fmt.Sprintf("cannot re-read the case at line %d: %v (did %s change during the run?)", ref.line, err, c.req.Fixtures[ref.file]),
			})
			continue
		}
		for j, a := range Vocabulary {
			if ref.asserts&(1<<j) == 0 {
				continue
			}
			c.emit(diag.Result{
				Source: diag.SourceEvalCase, File: c.req.Fixtures[ref.file], Pos: diag.Pos{Line: int(ref.line), Col: 1},
				Check: a.Name, CaseID: id, Outcome: diag.Skip, Severity: severityOf(ref.report&(1<<j) != 0),
				Code: "no_candidate", Message: fmt.Sprintf("no candidate for case %s", id),
			})
		}
	}
	return nil
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

// indexFixture is pass 1 for one fixture.
func (c *checker) indexFixture(ctx context.Context, fi int) error {
	rel, inScope := c.req.Fixtures[fi], c.scope[fi]
	f, real := c.open(rel, inScope)
	if f == nil {
		return nil
	}
	defer f.Close()
	c.real[fi] = real
	return c.eachCase(ctx, f, rel, inScope, func(ln rawLine, d *decodedCase) { c.caseLine(fi, rel, ln, inScope, d) })
}

// eachLine calls line with each line of the file rel, looking at the
// context every checkEvery lines; a read that fails midway is the file's
// target_unreadable at the line it stopped on.
func (c *checker) eachLine(ctx context.Context, f *os.File, rel string, inScope bool, line func(rawLine)) error {
	lr, err := c.readLines(ctx, f, line)
	if err != nil {
		return err
	}
	c.readFailed(rel, inScope, lr)
	return nil
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

// lineStarts is what every line goes through first (kind is "case" or "candidate", for the test hook): a
// line too long is too_large, a blank one is skipped. It reports whether the line is to be read.
func (c *checker) lineStarts(kind, rel string, ln rawLine, inScope bool) bool {
	if c.hook != nil {
		c.hook(kind)
	}
	if ln.TooLarge {
		c.tooLarge(rel, ln, inScope)
		return false
	}
	return !blank(ln.Text)
}

// caseLine validates one fixture line and indexes its case.
// d is what decoding the line found (decodeLine): the fast path's case, else, when it doubted the
// line (a null, 1.0, or a fault), the authoritative validation's faults.
func (c *checker) caseLine(fi int, rel string, ln rawLine, inScope bool, d *decodedCase) {
	defer c.recoverLine(rel, ln, inScope)
	if !c.lineStarts("case", rel, ln, inScope) {
		return
	}
	if d.panic != nil {
		panic(d.panic)
	}
	info, valid := d.info, d.valid
	if inScope && d.faults.total > 0 {
		c.emitFaults(rel, ln, d.faults, info.id)
	}
	id := info.id
	if id == "" {
		return
	}
	h := c.index.hash(id)
	dup := false
	c.index.each(h, func(slot int32) bool {
		earlier, err := c.caseID(c.index.at(slot))
		dup = err == nil && earlier == id
		return !dup
	})
	if dup {
		if inScope {
			pos := info.idPos
			if !pos.Known() {
				pos = valuePos(ln.Text, ln.No, "id")
			}
			c.emitFault(rel, fault{pos: pos, key: "id", code: "duplicate_id",
				msg: fmt.Sprintf("case id %s is already used by an earlier case; ids are unique across all fixtures", id)}, id)
		}
		return
	}
	ref := caseRef{off: ln.Off, n: uint32(len(ln.Text)), line: int32(ln.No), file: int32(fi), valid: valid, asserts: info.asserts, report: info.report}
	c.index.add(ref, h)
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

// emitFaults reports a line's definition faults, at most maxLineFaults of
// them; the last one reported then says how many more there are.
func (c *checker) emitFaults(rel string, ln rawLine, fs faults, caseID string) {
	list := fs.list
	if fs.total > maxLineFaults {
		more := fs.total - maxLineFaults + 1
		list = append(list[:maxLineFaults-1:maxLineFaults-1], fault{pos: diag.Pos{Line: ln.No, Col: 1}, code: list[maxLineFaults-1].code,
			msg: fmt.Sprintf("%d more faults in this line are not reported", more)})
	}
	for _, f := range list {
		c.emitFault(rel, f, caseID)
	}
}

// emitFault reports a definition fault at its position.
func (c *checker) emitFault(rel string, f fault, caseID string) {
	c.emit(diag.Result{
		Source: diag.SourceEvalCase, File: rel, Pos: f.pos, Check: diag.CheckDefinition,
		CaseID: caseID, Outcome: diag.Fail, Severity: diag.SeverityError, Code: f.code, Message: f.msg,
		Key: f.key,
	})
}

// candidatesFile is pass 2 for one candidates file.
func (c *checker) candidatesFile(ctx context.Context, rel string) error {
	inScope := c.req.InScope(rel)
	f, _ := c.open(rel, inScope)
	if f == nil {
		return nil
	}
	defer f.Close()
	return c.eachCandidate(ctx, f, rel, inScope)
}

// candidateLine checks one candidate: it validates the line and matches it
// with its case; the job it returns, if any, runs the case's assertions on it.
func (c *checker) candidateLine(rel string, ln rawLine, inScope bool, arena *[]byte) (job *assertJob) {
	defer c.recoverLine(rel, ln, inScope)
	if !c.lineStarts("candidate", rel, ln, inScope) {
		return
	}
	var idPos diag.Pos // where case_id is, when the authoritative validation read the line
	w, ok := fastCandidate(ln.Text)
	if !ok {
		// The authoritative validation decides.
		fs, v, pos := validateCandidate(ln.Text, ln.No)
		if fs.total > 0 {
			if inScope {
				c.emitFaults(rel, ln, fs, v.CaseID)
			}
			// A faulty candidate still answers its case: no no_candidate
			// on top of its own fault.
			if slot, known := c.index.find(v.CaseID); known {
				c.index.at(slot).answered = true
			}
			return
		}
		w, idPos = &v, pos // valid: the fast path was over-cautious
	}
	id := w.CaseID
	slot, known := c.index.find(id)
	if !known {
		if inScope {
			c.candidateFault(rel, ln, id, idPos, checkUnknownCase, fmt.Sprintf("case %s is in no selected fixture", quote(id)))
		}
		return
	}
	ref := c.index.at(slot)
	if ref.answered {
		if inScope {
			c.candidateFault(rel, ln, id, idPos, checkDuplicateCandidate,
				fmt.Sprintf("a second candidate for case %s; the first one is checked", quote(id)))
		}
		return
	}
	ref.answered = true
	if !ref.valid || !c.scope[ref.file] && (!inScope || c.req.ByFixture) {
		return nil
	}
	// The case's line is read here, in order (the line cache is no one else's); the job keeps a copy
	// in its batch's arena.
	text, err := c.lines.read(c.real[ref.file], ref.off, int(ref.n))
	return &assertJob{ref: *ref, w: w, text: keep(arena, text), err: err, file: c.req.Fixtures[ref.file]}
}

// caseID reads ref's case line again for its id, which the index does not keep: for the duplicate
// check, where the same hash must be the same id, and for no_candidate results. A valid case's id is
// read alone; an invalid one's line goes through the validation that found its id. A line that no
// longer holds a case with an id (the file changed during the run) gives "".
func (c *checker) caseID(ref *caseRef) (string, error) {
	text, err := c.lines.read(c.real[ref.file], ref.off, int(ref.n))
	switch {
	case err != nil:
		return "", err
	case ref.valid:
		return caseIDOf(text)
	}
	return decodeLine(rawLine{Text: text, No: int(ref.line)}).info.id, nil
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

// caseDoc is what pass 2 decodes of a valid case.
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

// caseRoom is what pass 2 decodes a case into again and again, and the input its assertions read:
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

// caseRooms hold the room pass 2 decodes cases into: a case is decoded again for each of its
// candidates.
var caseRooms = sync.Pool{New: func() any { return new(caseRoom) }}

// assert re-reads a case and runs its assertions on the candidate w.
// assertJob is the assertions of one case on its candidate: everything they need, so that they run on
// any core.
type assertJob struct {
	ref  caseRef
	w    *candidateWire
	text []byte // the case's line, re-read
	err  error  // why it could not be re-read
	file string
}

// assert runs the job's assertions, handing each result to out.
func (c *checker) assert(j *assertJob, out func(diag.Result)) {
	ref, w := &j.ref, j.w
	id := w.CaseID // the candidate's, which is its case's
	line := int(ref.line)
	room := caseRooms.Get().(*caseRoom)
	defer func() {
		room.reset()
		caseRooms.Put(room)
	}()
	doc := &room.doc
	err := j.err
	if err == nil {
		err = decodeCase(j.text, doc, &room.recur)
	}
	if err == nil && doc.ID != id {
		err = errors.New("the line no longer holds this case")
	}
	if err != nil {
		out(diag.Result{
			Source: diag.SourceEvalCase, File: j.file, Pos: diag.Pos{Line: line, Col: 1}, Check: diag.CheckDefinition,
			CaseID: id, Outcome: diag.Error, Severity: diag.SeverityError, Code: "internal_error",
			Message: fmt.Sprintf("cannot re-read case %s: %v (did %s change during the run?)", id, err, j.file),
		})
		return
	}
	in := &room.in
	*in = input{
		source: doc.Source, sourceLocale: doc.SourceLocale, targetLocale: doc.TargetLocale,
		requiredTokens: doc.RequiredTokens, text: *w.Text,
	}
	if w.RawResponse != nil {
		in.raw, in.hasRaw = *w.RawResponse, true
	}
	for _, a := range doc.Assertions {
		if a.Name == "placeholder_integrity" {
			room.placeholder = decodePlaceholderParams(a.Params)
			in.placeholder = &room.placeholder
		}
	}
	for _, a := range doc.Assertions {
		c.runAssertion(lookupAssertion(a.Name), a, in, j.file, line, id, out)
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
	r.Evidence = diag.BoundEvidence(ev)
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
