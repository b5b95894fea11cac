package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/evalcase"
	"github.com/evalgate/evalgate/internal/findings"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/grader"
	"github.com/evalgate/evalgate/internal/jev"
	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/tooldef"
)

// defaultTimeout is a command's timeout when neither the eval nor the config
// sets one (README "Graders").
const defaultTimeout = 30 * time.Second

// evalJob is one eval of one page to grade; results land in its own slot.
type evalJob struct {
	ps      *pageState
	ev      *docmeta.Eval
	slot    int        // the eval's place among its page's, where its verdict goes (pageState.verdicts)
	plan    *judgePlan // an ai eval's plan (README "The AI judge")
	results []diag.Result
}

// gradePages reads, validates and grades one chunk of pages as a pipeline. Pages are read on --jobs
// goroutines, a few dozen ahead at most, each ai eval planned with its page (its prompt rendered, its
// verdict looked up in the cache), and handed on in path order; each page's evals go to their pool as it
// is handed on, an ai eval once its budget is claimed, so that the budget goes to the same evals whatever
// the timing. Grading starts with the first page rather than after the chunk's last, and results are
// added as evals finish: the report's order is total whatever the timing (README "Results, outcomes and
// blocking"). ai evals have a pool of their own: judge requests wait on the network, not on the CPUs
// --jobs counts.
func (r *run) gradePages(ctx context.Context, rels []string) {
	pages := make([]*pageState, len(rels))
	ready := make([]chan struct{}, len(rels))
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	// Reading runs at most pagesAhead pages ahead of the hand-on: each page takes a place in ahead before
	// it is given to a reader, in path order, so the page the hand-on waits for always has one. The bytes
	// of the pages read and not yet graded are bounded too (held): a page is given to a reader only while
	// they are under aheadBytes (so by a page a reader at most over it), and they go down as pages are
	// graded. The page the hand-on waits for is given out first, so the bytes that hold it back are
	// those of pages handed on, which their graders let go.
	ahead, next := make(chan struct{}, pagesAhead), make(chan int)
	held := newByteBudget(aheadBytes)
	var loading sync.WaitGroup
	defer loading.Wait()
	loading.Go(func() {
		for i := range rels {
			ahead <- struct{}{}
			held.wait()
			next <- i
		}
		close(next)
	})
	for range r.opts.Jobs {
		loading.Go(func() {
			for i := range next {
				ps := r.loadPage(ctx, rels[i])
				r.planPage(ps)
				// A page holds its text and its evals: a page of two lines may resolve 16,000 of a suite's.
				ps.held = held.take(int64(len(ps.src)) + int64(len(ps.jobs))*evalBytes)
				pages[i] = ps
				close(ready[i])
			}
		})
	}

	var mu sync.Mutex // r.rep.Results, which the pools and this goroutine add to
	add := func(rs ...diag.Result) {
		mu.Lock()
		defer mu.Unlock()
		r.rep.Results.Add(rs...)
	}
	// Scores are sums of floats, whose rounding depends on their order: each page sums its evals in their
	// order, and pages reach the run's scores in path order (a page waits in finished for those before
	// it), so that the scores, and a suite just at its target, do not depend on --jobs or on timing.
	finished := make([]*pageState, len(rels))
	scored := 0
	finish := func(i int, ps *pageState) { // with mu held
		finished[i] = ps
		for ; scored < len(finished) && finished[scored] != nil; scored++ {
			done := finished[scored]
			var pv pageVerdicts
			for _, v := range done.verdicts {
				pv.add(v.outcome, v.weight)
			}
			if pv.reached > 0 { // only an eval that reached a verdict weighs anything
				r.scores.addPage(pv, done.page.Suites)
			}
			done.verdicts, finished[scored] = nil, nil
		}
	}
	grade := func(j *evalJob) {
		if j.results == nil {
			j.results = r.gradeSafely(ctx, j)
		}
		ps := j.ps
		noteCompanions(j.results, func() []any { return companions(ps, []*docmeta.Eval{j.ev}) })
		mu.Lock()
		r.rep.Results.Add(j.results...)
		ps.verdicts[j.slot] = evalVerdict{verdict(j.results), j.ev.Weight}
		last := ps.pending.Add(-1) == 0
		if last {
			finish(ps.index, ps)
		}
		mu.Unlock()
		// Nothing of a graded eval is kept: an ai eval's plan holds its target and prompt (500 of them on
		// 200 KB pages held 375 MB), and its results are in the report.
		j.plan, j.results = nil, nil
		if last {
			ps.release()
		}
		r.progress(1, 0)
	}
	var pools sync.WaitGroup
	pool := func(n int) chan<- *evalJob {
		jobs := make(chan *evalJob)
		for range n {
			pools.Go(func() {
				for j := range jobs {
					grade(j)
				}
			})
		}
		return jobs
	}
	judged, others := pool(max(r.cfg.AI.Concurrency, 1)), pool(r.opts.Jobs)

	for i := range pages {
		<-ready[i]
		<-ahead
		ps := pages[i]
		pages[i] = nil // the page is its evals' from now on, and goes once they are graded
		ps.index = i
		idle := len(ps.jobs) == 0 // no frontmatter evals, eval-skip, or unread: nothing to grade
		mu.Lock()
		r.addPage(ps)
		if idle {
			finish(i, ps) // it weighs nothing, and the pages after it need not wait
		} else {
			ps.verdicts = make([]evalVerdict, len(ps.jobs))
		}
		mu.Unlock()
		if idle {
			ps.release() // its bytes are let go now, not by a grader
		}
		if ps.page == nil {
			continue
		}
		for _, s := range ps.page.Suites {
			// The page reaches its suites even when eval-skip skips its evals.
			if r.reached == nil {
				r.reached = map[string]bool{}
			}
			r.reached[s] = true
		}
		if ps.page.Skip {
			skipped := []diag.Result{{
				Source: diag.SourcePage, File: ps.rel, Pos: ps.page.SkipPos, Check: "eval-skip",
				Outcome: diag.Skip, Code: "page_skipped", Message: "the page sets eval-skip: true; its evals are not graded",
			}}
			noteCompanions(skipped, func() []any { return companions(ps, ps.page.Evals) })
			add(skipped...)
			continue
		}
		r.progress(0, len(ps.jobs))
		ps.pending.Add(int32(len(ps.jobs)))
		for _, j := range ps.jobs {
			if j.ai() {
				r.claimRuns(j.plan, evalResult(j.ps, j.ev))
				judged <- j
			} else {
				others <- j
			}
		}
		ps.jobs = nil
	}
	close(judged)
	close(others)
	pools.Wait()
}

// pagesAhead is how many pages gradePages reads ahead of those it hands on: enough to keep the graders
// busy, few enough that the pages waiting are not the bulk of a run's memory. aheadBytes bounds the
// bytes of the pages read and not yet graded: 64 pages of 8 MiB held 512 MiB while a judge was slow.
const pagesAhead = 64

var aheadBytes int64 = 16 << 20 // a variable for tests

// evalBytes is about what a page's resolved eval and its job hold, for aheadBytes.
const evalBytes = 512

// byteBudget counts bytes held, and makes wait block while they are at or over its limit.
type byteBudget struct {
	mu    sync.Mutex
	freed *sync.Cond
	used  int64
	limit int64
}

func newByteBudget(limit int64) *byteBudget {
	b := &byteBudget{limit: limit}
	b.freed = sync.NewCond(&b.mu)
	return b
}

// wait blocks while the bytes held are at or over the limit.
func (b *byteBudget) wait() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used >= b.limit {
		if aheadHeld != nil {
			aheadHeld(b.used, true)
		}
		b.freed.Wait()
	}
}

// aheadHeld, when set (tests), hears the bytes held each time a page takes some (waiting false) and each
// time reading waits for them to go down (waiting true).
var aheadHeld func(used int64, waiting bool)

// take holds n bytes and returns the func that lets them go, once.
func (b *byteBudget) take(n int64) func() {
	b.mu.Lock()
	b.used += n
	if aheadHeld != nil {
		aheadHeld(b.used, false)
	}
	b.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			b.used -= n
			b.mu.Unlock()
			b.freed.Broadcast()
		})
	}
}

// planPage makes the jobs of the page's evals, and plans its ai evals (README "The AI judge").
func (r *run) planPage(ps *pageState) {
	if ps.page == nil || ps.page.Skip {
		return
	}
	for _, ev := range ps.page.Evals {
		j := &evalJob{ps: ps, ev: ev, slot: len(ps.jobs)}
		if j.ai() {
			j.plan = r.planSafely(j)
		}
		ps.jobs = append(ps.jobs, j)
	}
}

// ai says whether the job is an ai eval the judge is to decide.
func (j *evalJob) ai() bool { return j.ev.Grader == "ai" && !j.ev.Skip }

// addPage adds what reading and validating the page found.
func (r *run) addPage(ps *pageState) {
	if ps.gone {
		r.rep.Seen.Pages--
	}
	r.rep.Results.Add(ps.results...)
	if ps.page != nil && ps.page.HasEvals {
		r.pageEvals = true
		if !ps.unread { // a page not read may or may not have evals: the "saw" line counts what it knows
			r.rep.Seen.PagesWithEvals++
		}
		r.rep.Seen.Evals += len(ps.page.Evals)
	}
}

// progress adds graded and found evals to the counts and tells
// opts.Progress, if any, when they changed.
func (r *run) progress(graded, found int) {
	if r.opts.Progress == nil || graded == 0 && found == 0 {
		return
	}
	r.progressMu.Lock()
	defer r.progressMu.Unlock()
	r.graded += graded
	r.toGrade += found
	r.opts.Progress(r.graded, r.toGrade)
}

// gradeSafely grades one eval; a panic becomes the eval's internal_error.
func (r *run) gradeSafely(ctx context.Context, j *evalJob) (out []diag.Result) {
	defer j.recoverAs(&out)
	start := time.Now()
	out = r.grade(ctx, j)
	ms := time.Since(start).Milliseconds()
	for i := range out {
		out[i].DurationMS = ms
	}
	return out
}

// planSafely plans an ai eval; a panic becomes the eval's internal_error, its results at once.
func (r *run) planSafely(j *evalJob) (p *judgePlan) {
	defer j.recoverAs(&j.results)
	return r.planJudge(j.ps, j.ev)
}

// recoverAs turns a panic while grading the job into the eval's internal_error in *out.
func (j *evalJob) recoverAs(out *[]diag.Result) {
	if v := recover(); v != nil {
		res := internalError(diag.SourcePage, j.ps.rel, v)
		ev := j.ev
		res.Pos, res.Check, res.Grader, res.Type, res.Weight = ev.Pos, ev.ID, ev.Grader, ev.Type, ev.Weight
		*out = []diag.Result{res}
	}
}

// evalResult is the template of every result of ev.
func evalResult(ps *pageState, ev *docmeta.Eval) diag.Result {
	return diag.Result{
		Source: diag.SourcePage, File: ps.rel, Pos: ev.Pos, Check: ev.ID,
		Grader: ev.Grader, Type: ev.Type, Severity: ev.Severity, Weight: ev.Weight,
		Assertion: ev.Assertion,
	}
}

func with(base diag.Result, o diag.Outcome, code, msg string) diag.Result {
	base.Outcome, base.Code, base.Message = o, code, msg
	return base
}

func (r *run) grade(ctx context.Context, j *evalJob) []diag.Result {
	ps, ev := j.ps, j.ev
	base := evalResult(ps, ev)
	switch {
	case ev.Skip:
		return []diag.Result{with(base, diag.Skip, "eval_skipped", "the eval sets skip: true")}
	case ev.Grader == "human":
		return []diag.Result{r.gradeHuman(base, ps, ev)}
	case ev.Grader == "ai":
		return r.gradeAI(ctx, base, ps, ev, j.plan)
	case ev.Grader == "command":
		if ev.Command == nil {
			return []diag.Result{with(base, diag.Pending, "command_not_generated",
				"the command has not been generated from the assertion yet")}
		}
		return r.runCommand(ctx, base, ps, ev, ev.Command, ev.CommandInPage, r.evalDir(ps, ev), nil, ev.Findings)
	}
	if tool := grader.LookupBuiltin(ev.Grader); tool != nil {
		return r.runBuiltin(ctx, base, ps, ev, tool)
	}
	if t, ok := r.cfg.Tools[ev.Grader]; ok {
		return r.runCommand(ctx, base, ps, ev, t.Command, false, r.cfg.Dir, ev.Options, t.Findings)
	}
	return []diag.Result{with(base, diag.Error, "unknown_tool", r.unknownTool(ev.Grader))}
}

// unknownTool is the message of unknown_tool for a tool:* name that is
// neither built in nor under tools in the config, with the nearest name.
func (r *run) unknownTool(name string) string {
	names := tooldef.Names()
	for n := range r.cfg.Tools {
		names = append(names, n)
	}
	slices.Sort(names)
	return name + " is neither a built-in tool nor defined under tools in the config" + diag.Suggest(name, names)
}

// evalDir is where ev's command runs and its options' paths are relative to:
// the page's directory, or the config's for evals defined there.
func (r *run) evalDir(ps *pageState, ev *docmeta.Eval) string {
	if ev.Origin == docmeta.OriginConfig {
		return r.cfg.Dir
	}
	return filepath.Dir(ps.abs)
}

// target is the bytes an eval reads.
type target struct {
	kind      string
	bytes     []byte
	file      string // repository-relative file the bytes are in
	abs       string // a file holding exactly the bytes; "" when none exists
	dir       string // the directory of file, absolute
	firstLine int    // file line of the bytes' first line; 0 for frontmatter
}

// companions are the repository paths of the companions (`target: {source: file}`) evals grade, each
// once, as their findings name them: relative to the page's folder, as written.
func companions(ps *pageState, evals []*docmeta.Eval) []any {
	var cs []any
	for _, ev := range evals {
		if ev.Target.Kind != docmeta.TargetFile {
			continue
		}
		if c := path.Join(path.Dir(ps.rel), filepath.ToSlash(ev.Target.Path)); !slices.Contains(cs, any(c)) {
			cs = append(cs, c)
		}
	}
	return cs
}

// noteCompanions gives each result of rs that reached no verdict (an error, a skip, a pending eval) the
// companions its evals were to grade (diag.EvidenceCompanions), which cs lists when there are any: a
// baseline's fails of those files cannot be told gone (README "Baseline").
func noteCompanions(rs []diag.Result, cs func() []any) {
	var files []any
	for i := range rs {
		if o := rs[i].Outcome; o == diag.Pass || o == diag.Fail {
			continue
		}
		if files == nil {
			if files = cs(); len(files) == 0 {
				return
			}
		}
		ev := maps.Clone(rs[i].Evidence) // results may share one evidence map
		if ev == nil {
			ev = map[string]any{}
		}
		ev[diag.EvidenceCompanions] = files
		rs[i].Evidence = ev
	}
}

// errResult is a result that ends an eval before grading.
type errResult struct{ res diag.Result }

func (e *errResult) Error() string { return e.res.Message }

func (r *run) target(base diag.Result, ps *pageState, ev *docmeta.Eval) (*target, error) {
	t := &target{kind: ev.Target.Kind, file: ps.rel, dir: filepath.Dir(ps.abs)}
	if ps.size > 0 && ev.Target.Kind != docmeta.TargetFrontmatter && ev.Target.Kind != docmeta.TargetFile {
		return nil, &errResult{with(base, diag.Error, "too_large", fmt.Sprintf(
			"the page is %s; graders read a page body of at most %s", repofs.Size(ps.size), repofs.Size(repofs.BodyLimit)))}
	}
	switch ev.Target.Kind {
	case docmeta.TargetRaw:
		t.bytes, t.abs, t.firstLine = ps.src, ps.abs, 1
	case docmeta.TargetFrontmatter:
		t.bytes = frontmatter.MarshalYAML(docmeta.Metadata(ps.root))
	case docmeta.TargetFile:
		abs, err := repofs.Within(r.root, filepath.Dir(ps.abs), ev.Target.Path)
		if err != nil {
			code, why := repofs.Refusal(err)
			return nil, &errResult{with(base, diag.Error, code, fmt.Sprintf("target path %q %s", ev.Target.Path, why))}
		}
		b, err := repofs.ReadFile(abs, repofs.BodyLimit)
		switch {
		case errors.Is(err, repofs.ErrTooLarge):
			return nil, &errResult{with(base, diag.Error, "too_large", fmt.Sprintf("target %q is %s; evalgate reads at most %s",
				ev.Target.Path, repofs.Size(err.(*repofs.TooLargeError).Size), repofs.Size(repofs.BodyLimit)))}
		case errors.Is(err, repofs.ErrNotRegular):
			return nil, &errResult{with(base, diag.Error, "target_unreadable",
				fmt.Sprintf("target %q %v; only regular files are read", ev.Target.Path, errors.Unwrap(err)))}
		case err != nil:
			return nil, &errResult{with(base, diag.Error, "target_unreadable",
				fmt.Sprintf("cannot read target %q: %v", ev.Target.Path, errors.Unwrap(err)))}
		}
		rel, _ := relSlash(r.root, abs)
		t.bytes, t.abs, t.file, t.dir, t.firstLine = b, abs, rel, filepath.Dir(abs), 1
	default:
		t.bytes, t.firstLine = ps.doc.Body, ps.doc.BodyLine
	}
	return t, nil
}

func (r *run) runBuiltin(ctx context.Context, base diag.Result, ps *pageState, ev *docmeta.Eval, tool *grader.Tool) []diag.Result {
	t, err := r.target(base, ps, ev)
	if err != nil {
		return []diag.Result{err.(*errResult).res}
	}
	in := &grader.ToolInput{
		Target: t.bytes, TargetKind: t.kind, File: t.file, FirstLine: t.firstLine,
		Dir: t.dir, OptionsDir: r.evalDir(ps, ev), RepoRoot: r.root,
		Frontmatter: docmeta.Metadata(ps.root), Options: ev.Options, Pages: r.pages,
	}
	findings, err := tool.Run(ctx, in)
	if ctx.Err() != nil {
		// The run was stopped (SIGINT, SIGTERM, SIGHUP): no verdict, whatever the tool made of it.
		return []diag.Result{with(base, diag.Error, "internal_error", "not finished: "+context.Cause(ctx).Error())}
	}
	if err != nil {
		code := "target_unreadable"
		switch {
		case errors.Is(err, grader.ErrOutsideRepo):
			code = "target_outside_repo"
		case errors.Is(err, grader.ErrTooComplex), errors.Is(err, grader.ErrTooMuchWork), errors.Is(err, grader.ErrSchemaTooComplex):
			code = "too_large"
		}
		return []diag.Result{with(base, diag.Error, code, err.Error())}
	}
	if len(findings) == 0 {
		return []diag.Result{with(base, diag.Pass, "ok", tool.Name+" found nothing")}
	}
	out := make([]diag.Result, 0, len(findings))
	for _, f := range findings {
		res := with(base, diag.Fail, f.Code, f.Message)
		res.Key, res.Evidence = f.Key, f.Evidence
		if sev, ok := ev.SeverityMap[f.Code]; ok {
			res.Severity = sev
		}
		switch {
		case t.kind == docmeta.TargetFrontmatter && !tool.Frontmatter:
			// Lines of the re-serialised frontmatter are nobody's lines:
			// point at the eval entry.
		case f.Pos.Known():
			res.Pos = f.Pos
			// A frontmatter tool's findings are at keys of the page itself,
			// unless it graded a companion.
			if !tool.Frontmatter || t.kind == docmeta.TargetFile {
				res.File = t.file
			}
		}
		out = append(out, res)
	}
	return out
}

// runCommand runs a command grader or a configured tool. options, for tools,
// reaches the child as JSON in EVALGATE_OPTIONS.
func (r *run) runCommand(ctx context.Context, base diag.Result, ps *pageState, ev *docmeta.Eval,
	argv []string, inPage bool, dir string, options *frontmatter.Node, spec *findings.Spec) []diag.Result {
	if reason := r.policy.Refusal(argv[0], inPage); reason != "" {
		return []diag.Result{with(base, diag.Skip, "command_refused", "command refused: "+reason)}
	}
	t, err := r.target(base, ps, ev)
	if err != nil {
		return []diag.Result{err.(*errResult).res}
	}
	targetPath := t.abs
	if targetPath == "" {
		name, remove, err := tempFile(ps.targetExt(t.kind), t.bytes)
		if err != nil {
			return []diag.Result{with(base, diag.Error, "internal_error", "cannot write the target file: "+err.Error())}
		}
		defer remove()
		targetPath = name
	}
	env := append(r.env[:len(r.env):len(r.env)],
		"EVALGATE_FILE="+ps.abs, "EVALGATE_TARGET="+targetPath, "EVALGATE_EVAL_ID="+ev.ID)
	if options != nil {
		// The options always reach the command in a file, and in the variable
		// too when they fit the environment comfortably: Linux refuses to start
		// a program with one variable over 128 KiB.
		js, _ := json.Marshal(options.Value())
		name, remove, err := tempFile(".json", js)
		if err != nil {
			return []diag.Result{with(base, diag.Error, "internal_error", "cannot write the options file: "+err.Error())}
		}
		defer remove()
		env = append(env, "EVALGATE_OPTIONS_FILE="+name)
		if len(js) <= maxOptionsEnv {
			env = append(env, "EVALGATE_OPTIONS="+string(js))
		}
	}
	timeout := defaultTimeout
	switch {
	case ev.TimeoutMS > 0:
		timeout = time.Duration(ev.TimeoutMS) * time.Millisecond
	case r.cfg.Commands.TimeoutMS > 0:
		timeout = time.Duration(r.cfg.Commands.TimeoutMS) * time.Millisecond
	}
	keep := 0 // the default tail: evidence only
	if spec != nil {
		keep = findings.MaxOutput // findings are read from the output
	}
	cr := grader.RunCommand(ctx, grader.Command{
		Argv:    grader.Substitute(argv, map[string]string{"file": ps.abs, "target": targetPath, "id": ev.ID}),
		Dir:     dir,
		Env:     env,
		Stdin:   t.bytes,
		Timeout: timeout,
		Keep:    keep,
	})
	if cr.Err != nil && ctx.Err() != nil {
		// The run was stopped (SIGINT, SIGTERM, SIGHUP): no verdict, and the reason.
		return []diag.Result{with(base, diag.Error, "internal_error", "not finished: "+context.Cause(ctx).Error())}
	}
	res := r.commandResult(base, ev, argv, cr, timeout)
	if spec == nil || !cr.Exited {
		return []diag.Result{res}
	}
	return r.toolFindings(ctx, res, ev, t, spec, cr)
}

// toolFindings turns a tool's output into one fail per finding (README "Findings from command tools"),
// at its line in the file: a body's lines shifted back to the file's, a companion's its own, a
// frontmatter target's at the eval entry. With no finding the exit code decides (pass, or one
// command_failed); output that cannot be read is an error.
func (r *run) toolFindings(ctx context.Context, res diag.Result, ev *docmeta.Eval, t *target, spec *findings.Spec, cr grader.CommandResult) []diag.Result {
	fs, more, err := spec.Parse(ctx, grader.Redact(cr.Stdout, r.redact), grader.Redact(cr.Stderr, r.redact), cr.StdoutCut, cr.StderrCut)
	if err != nil && ctx.Err() != nil {
		return []diag.Result{with(res, diag.Error, "internal_error", "not finished: "+context.Cause(ctx).Error())}
	}
	if err != nil {
		// Both streams, whatever the exit code: a pass carries none of its own.
		out := with(res, diag.Error, "findings_unreadable", err.Error())
		out.Evidence = map[string]any{"exit_code": cr.ExitCode, "stdout": r.tail(cr.Stdout), "stderr": r.tail(cr.Stderr)}
		return []diag.Result{out}
	}
	if len(fs) == 0 {
		return []diag.Result{res}
	}
	out := make([]diag.Result, 0, len(fs))
	for _, f := range fs {
		code := f.Code
		if code == "" {
			code = "finding"
		}
		msg := f.Message
		if msg == "" {
			msg = code
		}
		fr := with(res, diag.Fail, code, msg)
		fr.Severity, fr.Evidence = findingSeverity(f, ev), map[string]any{"line": f.Line, "level": f.Level}
		fr.Key = code + "\x00" + msg // the finding's identity, for fingerprints: not its line
		if f.Line > 0 && t.firstLine > 0 {
			fr.File, fr.Pos = t.file, diag.Pos{Line: t.firstLine + f.Line - 1, Col: f.Col}
		}
		out = append(out, fr)
	}
	// Say so when the findings are not all there, as the built-in tools do.
	last := &out[len(out)-1]
	switch {
	case more:
		last.Message += fmt.Sprintf(" (the first %d findings of this eval; more are not listed)", findings.MaxFindings)
	case cr.StdoutCut && !spec.SARIF || cr.StderrCut && len(strings.TrimSpace(string(cr.Stdout))) == 0:
		last.Message += fmt.Sprintf(" (the tool wrote more than %d MiB: findings at its start are not listed)", findings.MaxOutput>>20)
	}
	return out
}

// findingSeverity is a finding's severity: the eval's severity-map for its code or its tool's word
// first, then error, warning and info as they are, SARIF's note and none as info, any other word
// warning; without a word, the eval's own severity.
func findingSeverity(f findings.Finding, ev *docmeta.Eval) diag.Severity {
	for _, k := range []string{f.Code, f.Level} {
		if s, ok := ev.SeverityMap[k]; ok && k != "" {
			return s
		}
	}
	switch strings.ToLower(f.Level) {
	case "":
		return ev.Severity
	case "error":
		return diag.SeverityError
	case "warning":
		return diag.SeverityWarning
	case "info", "note", "none":
		return diag.SeverityInfo
	}
	return diag.SeverityWarning
}

// maxOptionsEnv is the largest options JSON also passed in EVALGATE_OPTIONS
// (32 KiB, README "Configuration").
const maxOptionsEnv = 32 << 10

// tailBytes bounds the output kept in evidence.
const tailBytes = 2000

func (r *run) commandResult(base diag.Result, ev *docmeta.Eval, argv []string, cr grader.CommandResult, timeout time.Duration) diag.Result {
	switch {
	case cr.NotFound:
		return with(base, diag.Error, "command_not_found", fmt.Sprintf("%s: executable not found or not executable", argv[0]))
	case cr.TimedOut:
		return with(base, diag.Error, "command_timeout", fmt.Sprintf("timed out after %d ms; the process group was killed", timeout.Milliseconds()))
	case cr.Err != nil:
		return with(base, diag.Error, "internal_error", fmt.Sprintf("%s: cannot start: %v", argv[0], cr.Err))
	case !cr.Exited:
		res := with(base, diag.Error, "command_killed", "killed by "+cr.Signal)
		res.Evidence = map[string]any{"signal": cr.Signal}
		return res
	}
	for _, c := range ev.SuccessExitCodes {
		if c == cr.ExitCode {
			return with(base, diag.Pass, "ok", fmt.Sprintf("exit code %d", cr.ExitCode))
		}
	}
	stdout, stderr := r.tail(cr.Stdout), r.tail(cr.Stderr)
	last := lastLine(stderr)
	if last == "" {
		last = lastLine(stdout)
	}
	msg := fmt.Sprintf("exit code %d", cr.ExitCode)
	if last != "" {
		msg += ": " + last
	}
	res := with(base, diag.Fail, "command_failed", msg)
	res.Evidence = map[string]any{"exit_code": cr.ExitCode, "stdout": stdout, "stderr": stderr}
	return res
}

// tail is the end of a command's output for evidence: redacted, trimmed, at most tailBytes.
func (r *run) tail(out []byte) string {
	t := strings.TrimSpace(string(grader.Redact(out, r.redact)))
	if len(t) > tailBytes {
		t = "…" + strings.ToValidUTF8(t[len(t)-tailBytes:], "")
	}
	return t
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[i+1:])
	}
	return s
}

// validateOutcome is res as this run reports it. `validate` runs nothing, so what running would meet and
// validate finds beforehand (a code whose outcome is "error or fail": a fixture or contract that cannot be
// read, say) is its fail, as a page's missing target is (README "Codes").
func (r *run) validateOutcome(res diag.Result) diag.Result {
	if r.opts.Mode != ModeValidate || res.Outcome != diag.Error {
		return res
	}
	if c, ok := diag.LookupCode(res.Code); ok && c.Outcome == string(diag.Error)+"|"+string(diag.Fail) {
		res.Outcome, res.Severity = diag.Fail, diag.SeverityError
	}
	return res
}

// checkFixtures runs the EvalCase and jevcheck checks for the files in
// scope; validate reads no candidates or replays.
func (r *run) checkFixtures(ctx context.Context, fx *fixtures, inScope func(string) bool) {
	readAnswers := r.opts.Mode != ModeValidate
	add := func(res diag.Result) { r.rep.Results.Add(r.validateOutcome(res)) }
	var checked []string
	if len(fx.cases) > 0 {
		for _, f := range append(slices.Clone(fx.cases), fx.candidates...) {
			if inScope(f) {
				checked = append(checked, f)
			}
		}
		for _, f := range fx.cases {
			if inScope(f) {
				r.rep.Seen.Fixtures++
			}
		}
		// Results go to the report as they come (it holds a batch at a time: README "Memory").
		err := evalcase.Stream(ctx, evalcase.Request{
			Root: r.root, Fixtures: fx.cases, Candidates: fx.candidates, InScope: inScope, Related: r.related,
			ByFixture: r.opts.Shard != nil, ReadCandidates: readAnswers,
			CandidatesConfigured: len(r.cfg.EvalCase.Candidates) > 0 || len(r.opts.Candidates) > 0,
		}, add)
		if err != nil {
			r.rep.Results.Add(diag.Result{
				Source: diag.SourceEvalCase, Check: diag.CheckDefinition, Outcome: diag.Error,
				Code: "internal_error", Message: "EvalCase check failed: " + err.Error(),
			})
		}
	}
	for _, e := range fx.jev {
		switch {
		case r.opts.Shard != nil && !InShard(e.Contract, *r.opts.Shard):
			continue // a contract and its replays are one shard's: its contract's
		case !inScope(e.Contract) && !inScope(e.Answers) && !inScope(e.From):
			continue
		}
		checked = append(checked, e.Contract)
		r.rep.Seen.Contracts++
		for res := range jev.Check(ctx, r.root, e, readAnswers) { // a panic in Evaluate is its internal_error
			add(res)
		}
	}
	r.hasEvals = r.hasEvals || len(fx.cases) > 0 || len(fx.jev) > 0
	r.rep.Scope.Files = append(r.rep.Scope.Files, checked...)
	slices.Sort(r.rep.Scope.Files)
	r.rep.Scope.Files = slices.Compact(r.rep.Scope.Files)
}
