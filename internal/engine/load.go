package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evalgate/evalgate/internal/changes"
	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/grader"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/repofs"
)

// pageState is one selected page after validation.
type pageState struct {
	rel string // repository-relative path
	abs string
	src []byte               // the file; kept only while its evals wait to be graded
	doc frontmatter.Document // src split; kept with src
	// size is the page's size when its body is larger than graders read (repofs.BodyLimit), else 0: src
	// then holds only the first pageReadLimit bytes, and evals that need the body are too_large.
	size    int64
	root    *frontmatter.Node
	page    *docmeta.Page // nil: no frontmatter or no evals key
	unread  bool          // the page was refused or could not be read: its results say why, and its evals are unknown
	gone    bool          // a listed page that is not in the working tree: no page at all
	results []diag.Result
	jobs    []*evalJob // the page's evals to grade, until they are handed to their pools

	judged   judgedDoc     // the prompt document of the target its ai evals judged last
	pending  atomic.Int32  // evals of the page not graded yet
	verdicts []evalVerdict // the page's evals' verdicts, in their order, summed once the last is graded
	index    int           // the page's place in its chunk, in path order
	held     func()        // lets go of the bytes of the page that gradePages holds (byteBudget); nil: none
}

// tempFile writes b to a new read-only temporary file for one command eval ({target} and
// EVALGATE_TARGET, or EVALGATE_OPTIONS_FILE), named with ext, and returns it with what removes it once
// the eval is done. Each eval has its own: a tool that edits its input (as root, or after a chmod), a
// --fix linter, changes nothing another eval reads.
func tempFile(ext string, b []byte) (name string, remove func(), err error) {
	f, err := os.CreateTemp("", "evalgate-target-*"+ext)
	if err != nil {
		return "", nil, err
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(f.Name(), 0o444)
	}
	if werr != nil {
		os.Remove(f.Name())
		return "", nil, werr
	}
	return f.Name(), func() { os.Remove(f.Name()) }, nil
}

// targetExt is the extension of a target's file: the page's, so that a tool applies its Markdown (or
// MDX) rules to it; YAML for the frontmatter.
func (ps *pageState) targetExt(kind string) string {
	if kind == docmeta.TargetFrontmatter {
		return ".yaml"
	}
	return filepath.Ext(ps.rel)
}

// release frees what the page's graders needed once the last one is done.
func (ps *pageState) release() {
	ps.src, ps.doc, ps.judged = nil, frontmatter.Document{}, judgedDoc{}
	if ps.held != nil {
		ps.held()
	}
}

// judgedDoc is a target's prompt document, and the bytes it was made of.
type judgedDoc struct {
	of   []byte
	doc  judge.Document
	made bool
}

// document returns target's prompt document (README "The AI judge"), made once for the page's ai
// evals that judge the same bytes (the body, or the whole file); a page's evals are planned on one
// goroutine. Holding the bytes keeps their memory from being another target's.
func (ps *pageState) document(target []byte) judge.Document {
	d := &ps.judged
	if !d.made || !sameBytes(d.of, target) {
		*d = judgedDoc{of: target, doc: judge.NewDocument(target), made: true}
	}
	return d.doc
}

// sameBytes says whether a and b are the same bytes in memory, not merely equal ones.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// loadPages reads, splits, parses and validates pages in parallel; the
// results land in slots indexed like rels, whatever the timing.
func (r *run) loadPages(ctx context.Context, rels []string) []*pageState {
	out := make([]*pageState, len(rels))
	parallel(r.opts.Jobs, len(rels), func(i int) {
		out[i] = r.loadPage(ctx, rels[i])
	})
	return out
}

// parallel calls fn(0..n-1) on at most jobs goroutines.
func parallel(jobs, n int, fn func(i int)) {
	if jobs > n {
		jobs = n
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// pageBufs are the buffers pages are read into, 64 KiB each to start with (more than most pages): a
// page is read into one, and the few pages that are kept (those with evals) are copied out of it, so a
// run of 50,000 pages allocates a buffer per worker rather than per page. A buffer that grew past
// pageBufMax for a large page is dropped rather than kept.
var pageBufs = make(chan []byte, 16)

const pageBufMax = 256 << 10

func getPageBuf() []byte {
	select {
	case b := <-pageBufs:
		return b
	default:
		return make([]byte, 0, 64<<10)
	}
}

func putPageBuf(b []byte) {
	if cap(b) > pageBufMax {
		return
	}
	select {
	case pageBufs <- b[:0]:
	default:
	}
}

// mayHoldEvals reports whether a frontmatter's text can hold an `evals` or `eval-*` key (README
// "Frontmatter and YAML"): it says `eval`, or it has an escape, which a quoted key can spell it with
// ("\x65vals" in YAML, "\u0065vals" in TOML). Frontmatter that cannot produces no result and is not
// parsed.
func mayHoldEvals(text []byte) bool {
	return bytes.Contains(text, []byte("eval")) || bytes.IndexByte(text, '\\') >= 0
}

func (r *run) loadPage(ctx context.Context, rel string) (ps *pageState) {
	ps = &pageState{rel: rel, abs: filepath.Join(r.root, filepath.FromSlash(rel))}
	defer func() {
		if v := recover(); v != nil {
			ps.page = &docmeta.Page{HasEvals: true}
			ps.results = append(ps.results, internalError(diag.SourcePage, rel, v))
		}
	}()
	lstat, err := r.inside(rel, ps.abs)
	if err != nil {
		code, why := repofs.Refusal(err)
		if code == "target_outside_repo" && !errors.Is(err, repofs.ErrGitDir) {
			why = "is a symlink that " + why
		}
		ps.page, ps.unread = &docmeta.Page{HasEvals: true}, true
		ps.results = append(ps.results, r.validateOutcome(diag.Result{
			Source: diag.SourcePage, File: rel, Check: diag.CheckDefinition,
			Outcome: diag.Error, Code: code, Message: "the page " + why + "; it was not read",
		}))
		return ps
	}
	src, err := readSelected(ps.abs, lstat, pageReadLimit, getPageBuf())
	defer func(buf []byte) { putPageBuf(buf) }(src)
	var tooLarge *repofs.TooLargeError
	if errors.As(err, &tooLarge) {
		ps.size = tooLarge.Size
	} else if errors.Is(err, fs.ErrNotExist) && !r.fromArgs && r.deletedHere(ctx, rel) {
		// Listed by git, deleted in the working tree (and not yet from the index): the run checks the
		// working tree, where the page is not. A sparse checkout's page is there in the commit: unreadable.
		ps.gone = true
		return ps
	} else if err != nil {
		ps.page, ps.unread = &docmeta.Page{HasEvals: true}, true
		ps.results = append(ps.results, r.validateOutcome(diag.Result{
			Source: diag.SourcePage, File: rel, Check: diag.CheckDefinition,
			Outcome: diag.Error, Code: "target_unreadable", Message: "cannot read the page: " + repofs.Reason(err),
		}))
		return ps
	}
	doc := frontmatter.Split(src)
	if doc.Format == frontmatter.FormatNone && ps.size > 0 && frontmatter.Opening(src) != frontmatter.FormatNone {
		// The fence opens but does not close within what was read: frontmatter far beyond its limit.
		if mayHoldEvals(src) {
			ps.page = &docmeta.Page{HasEvals: true}
			ps.results = append(ps.results, definitionResult(rel, diag.Problem{Pos: diag.Pos{Line: 1, Col: 1},
				Code: "too_large", Message: fmt.Sprintf("the frontmatter is longer than %s; evalgate reads at most %s",
					repofs.Size(pageReadLimit), repofs.Size(frontmatter.MaxSize))}))
		}
		return ps
	}
	if len(doc.Body) > repofs.BodyLimit && ps.size == 0 {
		ps.size = int64(len(src))
	}
	byPath := r.suitesFor(rel)
	marked := doc.Format != frontmatter.FormatNone && mayHoldEvals(doc.Text)
	if !marked && len(byPath) == 0 {
		return ps // neither the bytes nor the split are kept: memory stays bounded
	}
	// The frontmatter is parsed from the read buffer, which goes back to pageBufs when this returns:
	// the tree holds strings, never the buffer's bytes, and a page kept for its graders is copied.
	var root *frontmatter.Node
	if doc.Format != frontmatter.FormatNone {
		var problems []diag.Problem
		root, problems = frontmatter.Parse(doc)
		fatal := false
		for _, p := range problems {
			ps.results = append(ps.results, definitionResult(rel, p))
			// After these the tree is cut short: validating it would only add noise.
			fatal = fatal || p.Code == "syntax_error" || p.Code == "too_large" || p.Code == "invalid_utf8"
		}
		if fatal || root == nil || root.Kind != frontmatter.Map {
			if marked && len(problems) > 0 {
				// The text mentions evals but does not parse: say why, grade nothing.
				ps.page = &docmeta.Page{HasEvals: true}
				return ps
			}
			// A page reached only by path: its frontmatter is other
			// vocabularies' business; the suites' evals still run.
			root, ps.results = nil, nil
		}
	}
	page := docmeta.ValidatePage(root, r.cfg.Catalog, byPath)
	if !page.HasKeys {
		ps.results = nil // no evals key: no result about the YAML
	}
	if !page.HasEvals {
		return ps
	}
	ps.root, ps.page = root, page
	if r.opts.Mode == ModeCheck && !page.Skip && len(page.Evals) > 0 {
		// Only graders read the page again; validate keeps nothing.
		ps.src = bytes.Clone(src)
		ps.doc = frontmatter.Split(ps.src)
	}
	for _, res := range page.Results {
		res.Source, res.File = diag.SourcePage, rel
		ps.results = append(ps.results, res)
	}
	return ps
}

func definitionResult(file string, p diag.Problem) diag.Result {
	return diag.Result{
		Source: diag.SourcePage, File: file, Pos: p.Pos, Check: diag.CheckDefinition,
		Outcome: diag.Fail, Severity: diag.SeverityError, Code: p.Code, Message: p.Message,
	}
}

// internalError turns a recovered panic into the file's or eval's error
// result (README "Exit statuses"): one bad input never takes the run down. The stack
// goes to evidence, not to stderr.
func internalError(src diag.Source, file string, v any) diag.Result {
	return diag.Result{
		Source: src, File: file, Check: diag.CheckDefinition, Outcome: diag.Error,
		Code: "internal_error", Message: fmt.Sprintf("internal error: %v", v),
		Evidence: map[string]any{"stack": string(debug.Stack())},
	}
}

// pageReadLimit is how much of a page evalgate reads: its frontmatter at its
// limit, the two fences and a body at the graders' limit. Past it, the
// frontmatter is still read and evals that need the body are too_large.
const pageReadLimit = frontmatter.MaxSize + repofs.BodyLimit + 64

// inside returns nil when a selected file stays inside the repository, else
// repofs.Within's refusal. Listed files never pass through a symlinked
// directory (git lists a symlink as a file; the walk does not follow them), so
// one Lstat tells unless the file is itself a symlink or came from a PATH
// argument; what that Lstat found is returned too, nil when there was none.
func (r *run) inside(rel, abs string) (os.FileInfo, error) {
	if !r.fromArgs {
		if fi, err := os.Lstat(abs); err == nil && fi.Mode()&os.ModeSymlink == 0 {
			return fi, nil
		}
	}
	_, err := repofs.Within(r.root, r.root, rel)
	return nil, err
}

// deletedHere reports whether git lists rel as deleted from the working tree (`ls-files --deleted`,
// which leaves out a sparse checkout's skip-worktree files). git is asked once, when a first listed
// page is found missing.
func (r *run) deletedHere(ctx context.Context, rel string) bool {
	r.deletedOnce.Do(func() {
		r.deleted = map[string]bool{}
		if !r.isRepo {
			return
		}
		out, err := gitCommand(ctx, r.root, "ls-files", "-z", "--deleted").Output()
		if err != nil {
			return
		}
		for _, f := range bytes.Split(out, []byte{0}) {
			if len(f) > 0 {
				r.deleted[string(f)] = true
			}
		}
	})
	return r.deleted[rel]
}

// readSelected reads a selected file that inside let through, lstat what inside found of it.
func readSelected(abs string, lstat os.FileInfo, limit int64, buf []byte) ([]byte, error) {
	if lstat != nil {
		return repofs.ReadListedInto(abs, lstat, limit, buf)
	}
	return repofs.ReadFileInto(abs, limit, buf)
}

// readHead reads as much of a selected page as its frontmatter may take, if
// the page may be read at all: the dependents scan reads every page this way.
func (r *run) readHead(rel string) ([]byte, bool) {
	abs := filepath.Join(r.root, filepath.FromSlash(rel))
	lstat, err := r.inside(rel, abs)
	if err != nil {
		return nil, false
	}
	src, err := readSelected(abs, lstat, frontmatter.MaxSize+64, nil)
	return src, err == nil || errors.Is(err, repofs.ErrTooLarge)
}

func (r *run) loadConfig() (*config.Config, []diag.Result, error) {
	rel := ""
	if r.opts.ConfigFlag != "" {
		abs := r.opts.ConfigFlag
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(r.opts.Dir, abs)
		}
		if _, err := os.Lstat(abs); err != nil {
			return nil, nil, usagef("--config %s: no such file", r.opts.ConfigFlag)
		}
		var ok bool
		rel, ok = relSlash(r.root, abs)
		if !ok {
			return nil, nil, usagef("--config %s: outside the repository %s", r.opts.ConfigFlag, r.root)
		}
	} else {
		for _, name := range config.Names {
			// Lstat: a symlink there is the config, whether or not its target may be read.
			if _, err := os.Lstat(filepath.Join(r.root, name)); err == nil {
				rel = name
				break
			}
		}
	}
	if rel == "" {
		return config.Default(r.root), nil, nil
	}
	cfg, results, err := config.Load(r.root, rel)
	if err != nil {
		return nil, nil, usagef("config %s: %v", rel, err)
	}
	return cfg, results, nil
}

// setupCommands prepares the command policy and the children's environment.
func (r *run) setupCommands() {
	r.inActions = r.getenv("GITHUB_ACTIONS") == "true"
	r.policy = grader.Policy{
		InActions:       r.inActions,
		AllowUntrusted:  r.opts.AllowUntrusted,
		FrontmatterDeny: r.cfg.Commands.FrontmatterDeny,
	}
	if r.cfg.Commands.AllowSet {
		r.policy.Allow = slices.Clone(r.cfg.Commands.Allow)
		if r.policy.Allow == nil {
			r.policy.Allow = []string{}
		}
	}
	if r.inActions {
		name, path := r.getenv("GITHUB_EVENT_NAME"), r.getenv("GITHUB_EVENT_PATH")
		ev, err := changes.LoadEvent(name, path)
		if err != nil {
			r.opts.Notice("evalgate: cannot read the event payload: " + err.Error())
		}
		r.event = ev
		r.policy.Event = name
		// A payload that is unreadable, or absent, or without its pull_request on a pull request's event,
		// cannot vouch for the pull request: it is taken as a fork's (README "Security model").
		prEvent := strings.HasPrefix(strings.ToLower(name), "pull_request")
		r.policy.ForkPR = ev.Fork() || (err != nil && path != "") || (prEvent && ev.PullRequest == nil)
	}
	var keys []string
	for _, pr := range r.cfg.AI.Providers {
		if pr.APIKeyEnv != "" {
			keys = append(keys, pr.APIKeyEnv)
		}
	}
	r.env, r.redact = grader.ScrubEnv(r.opts.Env, r.cfg.Commands.PassEnv, keys)
}

// getenv is the run's environment variable k (the last of its name wins, as in a process).
func (r *run) getenv(k string) string {
	for i := len(r.opts.Env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(r.opts.Env[i], k+"="); ok {
			return v
		}
	}
	return ""
}
