package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/evalgate/evalgate/internal/changes"
	"github.com/evalgate/evalgate/internal/config"
	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/grader"
	"github.com/evalgate/evalgate/internal/jev"
	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/report"
	"github.com/evalgate/evalgate/internal/sitegen"
	"github.com/evalgate/evalgate/internal/tooldef"
)

// selection is what a run checks.
type selection struct {
	pages   []string // selected pages, repository-relative, sorted
	checked []string // every selected file checked, for the report's scope
}

// selectFiles picks the files of the run (README "Which files are checked"): the PATH arguments
// filtered by the config's selection, what a change touched (--base, or a
// pull request in GitHub Actions), or every candidate file.
func (r *run) selectFiles(ctx context.Context) (*selection, error) {
	r.setupMatchers()
	fx, err := r.selectFixtures(ctx)
	if err != nil {
		return nil, err
	}
	r.fx = fx
	var sel *selection
	switch {
	case len(r.opts.Paths) > 0:
		sel, err = r.selectPaths(ctx)
	case r.opts.Base != "" || (r.inActions && !r.opts.All):
		sel, err = r.selectChanged(ctx)
	default:
		if !r.opts.All && !r.inActions {
			verb := "checking"
			if r.listing {
				verb = "listing"
			}
			r.opts.Notice("evalgate: no PATH given: " + verb + " everything")
		}
		sel, err = r.selectAll(ctx)
	}
	if err != nil {
		return nil, err
	}
	slices.Sort(sel.pages)
	sel.pages = slices.Compact(sel.pages)
	// The scope's files start as the pages, sharing their array: the fixtures appended later copy it.
	sel.checked = slices.Clip(sel.pages)
	r.files = nil // the list of every candidate file served the selection only; a large tree's is megabytes
	return sel, nil
}

// selectAll is scope all: every selected file; suites are seen whole.
func (r *run) selectAll(ctx context.Context) (*selection, error) {
	r.whole = true
	r.rep.Scope.Mode = report.ScopeAll
	r.inScope = func(string) bool { return true }
	files, err := r.listFiles(ctx)
	if err != nil {
		return nil, err
	}
	sel := &selection{}
	for _, f := range files {
		if r.pagesM.Match(f) {
			sel.pages = append(sel.pages, f)
		}
	}
	if sh := r.opts.Shard; sh != nil {
		// This shard's part (README "Shards"): its pages, and results about its own fixtures,
		// candidates files and contracts; every fixture is still read, so ids and candidates resolve.
		r.whole = false
		r.rep.Scope.Shard = sh
		r.inScope = func(f string) bool { return InShard(f, *sh) }
		sel.pages = slices.DeleteFunc(sel.pages, func(f string) bool { return !InShard(f, *sh) })
	}
	return sel, nil
}

// InShard says the repository path f falls in shard sh (README "Shards"): the SHA-256 of f, read as
// a number, modulo the count, is the shard's index less one. The split depends on the path alone,
// so it is the same on every machine and for every run.
func InShard(f string, sh report.Shard) bool {
	sum := sha256.Sum256([]byte(f))
	return binary.BigEndian.Uint64(sum[:8])%uint64(sh.Count) == uint64(sh.Index-1)
}

// listFiles lists the repository's candidate files once per run.
func (r *run) listFiles(ctx context.Context) ([]string, error) {
	if r.files == nil {
		files, err := listFiles(ctx, r.root, r.isRepo, r.cacheDir())
		if err != nil {
			return nil, err
		}
		r.files = files
	}
	return r.files, nil
}

// cacheDir is the judge cache's folder, repository-relative with '/'; "" when there is none. Nothing
// under it is ever selected: the folder is evalgate's own (README "Which files are checked").
func (r *run) cacheDir() string {
	if r.cfg == nil || r.cfg.AI.Cache == "" {
		return ""
	}
	rel, ok := relSlash(r.root, filepath.Join(r.cfg.Dir, filepath.FromSlash(r.cfg.AI.Cache)))
	if !ok || rel == "." {
		return ""
	}
	return rel
}

// under reports whether the repository path f lies in the folder dir; never for dir "".
func under(dir, f string) bool { return dir != "" && strings.HasPrefix(f, dir+"/") }

// selectPaths checks the PATH arguments the config selects, plus, for
// check, the pages that depend on them.
func (r *run) selectPaths(ctx context.Context) (*selection, error) {
	r.rep.Scope.Mode = report.ScopePaths
	r.fromArgs = true
	sel := &selection{}
	var given, files []string // what the run checks; the file PATHs, before dropNonCandidates
	for _, p := range r.opts.Paths {
		if dir, ok := r.dirArg(p); ok {
			// A directory means the files under it that the run selects; a symlink to one is a changed
			// file too, which what reads through it depends on.
			if fi, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(dir))); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				given = append(given, dir)
			}
			files, err := r.selectedUnder(ctx, dir)
			if err != nil {
				return nil, err
			}
			for _, f := range files {
				given = append(given, f)
				if r.pagesM.Match(f) {
					sel.pages = append(sel.pages, f)
				}
			}
			continue
		}
		rel, err := r.pathArg(p, "give files, or --all")
		if err != nil {
			return nil, err
		}
		files = append(files, rel)
	}
	for _, rel := range r.dropNonCandidates(ctx, files) {
		given = append(given, rel)
		if r.pagesM.Match(rel) {
			sel.pages = append(sel.pages, rel)
		}
	}
	if !r.listing {
		if notice, all := r.touchesAll(append(slices.Clone(given), files...)); all {
			r.opts.Notice(notice)
			return r.selectAll(ctx)
		}
	}
	touched, linked := r.widen(ctx, given)
	r.inScope, r.related = r.scopeOf(touched)
	if !r.listing {
		// A page reached through a symlink to a given file, a companion, an options file or a
		// candidates file re-checks what reads it, as a change does.
		sel.pages = append(sel.pages, r.linkedPages(linked)...)
		deps, err := r.dependents(ctx, touched)
		if err != nil {
			return nil, err
		}
		sel.pages = append(sel.pages, deps...)
	}
	var read map[string]bool // computed only when a notice may be due
	for _, rel := range given {
		if r.pagesM.Match(rel) || rel == r.cfg.Path || r.fx.owns(rel) || !reportedKind(rel) {
			continue
		}
		if read == nil {
			read = r.readThrough(touched)
		}
		if !read[rel] {
			r.notSelected(rel)
		}
	}
	return sel, nil
}

// readThrough is the touched files that a selected page reads: its companions and options files (as
// named, and where their symlinks lead), and the touched files those name (a schema's $ref), level by
// level as widen found them, each file read as the grader reads a schema (its first 8 MiB), one at a
// time. Past maxNeedles touched files (widen then took every file) it cannot tell, and takes them all
// as read: no notice rather than a wrong one.
func (r *run) readThrough(touched []string) map[string]bool {
	read := map[string]bool{}
	if len(touched) > maxNeedles {
		for _, t := range touched {
			read[t] = true
		}
		return read
	}
	for ref := range r.companionOf {
		read[ref] = true
		if real := r.realRel(ref); real != "" {
			read[real] = true
		}
	}
	names := make([][]string, len(touched))
	for i, t := range touched {
		names[i] = spellings(path.Base(t))
	}
	level := slices.DeleteFunc(slices.Clone(touched), func(t string) bool { return !read[t] })
	for range maxRefDepth {
		var next []string
		for _, f := range level {
			text, ok := r.readData(f, repofs.BodyLimit)
			if !ok {
				continue
			}
			for i, t := range touched {
				if !read[t] && mentions(text, names[i]) {
					read[t] = true
					next = append(next, t)
				}
			}
		}
		if len(next) == 0 {
			break
		}
		level = next
	}
	return read
}

// dropNonCandidates removes from files the PATH arguments that are no candidates (README "Which files are
// checked"): untracked files git ignores, and files of the judge cache's folder. Each one of a reported
// kind gets a line saying why.
func (r *run) dropNonCandidates(ctx context.Context, files []string) []string {
	cache := r.cacheDir()
	keep := map[string]bool{}
	if r.isRepo {
		const batch = 1000 // paths a git command line
		for i := 0; i < len(files); i += batch {
			listed, err := gitListFiles(ctx, r.root, files[i:min(i+batch, len(files))]...)
			if err != nil {
				return files // no git to ask: every file is a candidate, as without a repository
			}
			for _, f := range listed {
				keep[f] = true
			}
		}
	}
	return slices.DeleteFunc(files, func(rel string) bool {
		why := ""
		switch {
		case under(cache, rel):
			why = "it is in the judge cache's folder " + cache
		case r.isRepo && !keep[rel]:
			why = "git ignores it"
		default:
			return false
		}
		if reportedKind(rel) {
			r.opts.Notice("evalgate: not selected: " + rel + ": " + why)
		}
		return true
	})
}

// reportedKind reports whether a PATH the run does not select is worth a
// "not selected" line: a Markdown, JSON or JSONL file, which the user may
// have meant to check. Anything else (pre-commit passes every staged file)
// is skipped quietly.
func reportedKind(rel string) bool {
	switch strings.ToLower(path.Ext(rel)) {
	case ".md", ".markdown", ".mdx", ".json", ".jsonl":
		return true
	}
	return false
}

func (r *run) notSelected(p string) {
	name := r.cfg.Path
	if name == "" {
		name = "(no config)"
	}
	r.opts.Notice("evalgate: not selected by " + name + ": " + p)
}

// selectChanged checks what a change touched: --base REF, or the pull
// request of a GitHub event. Any doubt checks everything.
func (r *run) selectChanged(ctx context.Context) (*selection, error) {
	ch, err := changes.Detect(ctx, changes.Request{
		Root: r.root, Base: r.opts.Base, InActions: r.inActions, Event: r.event,
	})
	var uerr *changes.UsageError
	if errors.As(err, &uerr) {
		return nil, &UsageError{Msg: uerr.Msg}
	}
	if err != nil {
		return nil, err
	}
	if ch.All {
		if ch.Notice != "" {
			r.opts.Notice(ch.Notice)
		}
		return r.selectAll(ctx)
	}
	touched := append(slices.Clone(ch.Changed), ch.Deleted...)
	if _, ok := r.configTouched(touched); ok {
		r.noticeCommandsChange(ctx, ch.BaseSHA)
	}
	if notice, all := r.touchesAll(touched); all {
		r.opts.Notice(notice)
		return r.selectAll(ctx)
	}
	touched, linked := r.widen(ctx, touched)
	r.rep.Scope.Mode = report.ScopeChanged
	r.rep.Scope.Base = ch.BaseSHA
	r.inScope, r.related = r.scopeOf(touched)
	sel := &selection{}
	cache := r.cacheDir()
	for _, f := range ch.Changed {
		// Nothing in the judge cache folder is a candidate, changed or not (README "Which files are
		// checked"): a change there blocked on a file that --all leaves alone.
		if r.pagesM.Match(f) && !under(cache, f) {
			sel.pages = append(sel.pages, f)
		}
	}
	sel.pages = append(sel.pages, r.linkedPages(linked)...)
	if !r.listing {
		deps, err := r.dependents(ctx, touched)
		if err != nil {
			return nil, err
		}
		sel.pages = append(sel.pages, deps...)
	}
	return sel, nil
}

// touchesAll reports whether files (changed, or given as PATHs) touch what every result depends on, so
// that the run checks everything, and the notice that says so: the config (or the file a symlinked
// config leads to), a site config that sets where pages are served, the baseline the run applies.
func (r *run) touchesAll(files []string) (notice string, all bool) {
	if name, ok := r.configTouched(files); ok {
		return "evalgate: the change touches the config " + name + ": checking everything", true
	}
	for _, f := range files {
		if sitegen.Configures(r.root, f) {
			return "evalgate: the change touches " + f + ", a site config that sets where pages are served: checking every page's links", true
		}
	}
	if _, rel, _, err := r.baselineFile(); err == nil && !r.opts.NoBaseline && slices.Contains(files, rel) {
		return "evalgate: the change touches the baseline " + rel + ", which decides what blocks: checking everything", true
	}
	return "", false
}

// widen adds to touched what changes with it (README "Which files are checked"), for a change and for
// PATH arguments alike, and returns the symlinks among them: a symlink whose target is touched reads the
// new target, so a page or a companion reached through one changed with it; and for check, a file (no
// page) that names a touched one that is no page (a schema's $ref, whatever the files' extensions, or a
// symlinked folder on its path), a level at a time, counts as touched too, so that a page whose schema
// reaches a changed file is checked again. validate runs no schema, list reads none.
func (r *run) widen(ctx context.Context, touched []string) (all, linked []string) {
	linked = r.symlinksTo(ctx, touched)
	all = append(slices.Clone(touched), linked...)
	if r.listing || r.opts.Mode == ModeValidate {
		return all, linked
	}
	seen := setOf(all)
	next := slices.DeleteFunc(slices.Clone(all), r.pagesM.Match) // a $ref names a schema, not a page
	for range maxRefDepth {
		if len(next) == 0 {
			break
		}
		var found []string
		for _, f := range r.dataMentioning(ctx, next) {
			if !seen(f) {
				found = append(found, f)
			}
		}
		all = append(all, found...)
		seen, next = setOf(all), found
	}
	return all, linked
}

// maxRefDepth is how many levels of files naming touched files widen follows: a chain of schemas
// longer than that is checked only as far.
const maxRefDepth = 8

// dataMentioning returns the files of the repository, pages aside, whose text names one of files (its
// base name as written, as JSON escapes it, d\u00e9finitions.json, and as a URI does, my%20defs.json):
// git grep where git works, else a read of each text file (its first 1 MiB). Past maxNeedles names, every
// file but the pages: more is checked, never less.
func (r *run) dataMentioning(ctx context.Context, files []string) []string {
	var needles []string
	for _, f := range files {
		needles = append(needles, spellings(path.Base(f))...)
	}
	others := func() []string {
		list, _ := r.listFiles(ctx)
		return slices.DeleteFunc(slices.Clone(list), r.pagesM.Match)
	}
	if len(needles) > maxNeedles {
		return others()
	}
	if r.isRepo {
		if found, err := r.gitGrep(ctx, needles, false); err == nil || ctx.Err() != nil {
			return found
		}
	}
	var found []string
	for i, f := range others() {
		if i%mentionCheck == 0 && ctx.Err() != nil {
			break
		}
		if text, ok := r.readData(f, 1<<20); ok && mentions(text, needles) {
			found = append(found, f)
		}
	}
	return found
}

// readData is the text of the repository file f as a search for the names in it reads it: its first
// limit bytes; false when it cannot be read inside the repository.
func (r *run) readData(f string, limit int64) ([]byte, bool) {
	full, err := repofs.Within(r.root, r.root, filepath.FromSlash(f))
	if err != nil {
		return nil, false
	}
	text, err := repofs.ReadFile(full, limit)
	if err != nil && !errors.Is(err, repofs.ErrTooLarge) {
		return nil, false
	}
	return text, true
}

// mentions reports whether text holds one of needles.
func mentions(text []byte, needles []string) bool {
	return slices.ContainsFunc(needles, func(n string) bool { return bytes.Contains(text, []byte(n)) })
}

// spellings are the ways a schema may write name: as it is; as a URI escapes it (my%20defs.json, a
// $ref is a URI); and, when it is not ASCII, with its non-ASCII characters as \uXXXX escapes in lower-
// and upper-case hex (Python's json.dump writes them so).
func spellings(name string) []string {
	out := []string{name}
	if u := url.PathEscape(name); u != name {
		out = append(out, u)
	}
	if !slices.ContainsFunc([]byte(name), func(c byte) bool { return c >= utf8.RuneSelf }) {
		return out
	}
	var lower, upper strings.Builder
	for _, c := range name {
		if c < utf8.RuneSelf {
			lower.WriteRune(c)
			upper.WriteRune(c)
			continue
		}
		for _, u := range utf16.Encode([]rune{c}) {
			fmt.Fprintf(&lower, `\u%04x`, u)
			fmt.Fprintf(&upper, `\u%04X`, u)
		}
	}
	return append(out, lower.String(), upper.String())
}

// scopeOf is the scope of a run that checks touched: results about those files are reported (in
// scope); and when one is an EvalCase fixture or candidates file (added, changed or deleted), every other
// one is related: of it, the faults of two lines, which a change to another file can make, are
// reported (an id taken away or repeated: unknown_case, duplicate_id, duplicate_candidate), not those
// of a line alone.
func (r *run) scopeOf(touched []string) (inScope, related func(string) bool) {
	inScope = setOf(touched)
	if slices.ContainsFunc(touched, r.fx.evalCaseFile) {
		related = r.fx.evalCaseFile
	}
	return inScope, related
}

// linkedPages are the selected pages among the symlinks widen found.
func (r *run) linkedPages(linked []string) []string {
	var pages []string
	cache := r.cacheDir()
	for _, f := range linked {
		if r.pagesM.Match(f) && !under(cache, f) {
			pages = append(pages, f)
		}
	}
	return pages
}

// configTouched reports whether a change touches the config that applies, and names it: the config
// file, the file a symlinked config leads to, or, without --config, a config file the lookup reads
// (README "Configuration"), added, edited or deleted: deleting .evalgate.yaml made .evalgate.yml, or
// none, the config, and a changed-files run checked nothing of what that changed.
func (r *run) configTouched(touched []string) (string, bool) {
	if r.cfg.Path != "" {
		if slices.Contains(touched, r.cfg.Path) {
			return r.cfg.Path, true
		}
		if real, err := filepath.EvalSymlinks(filepath.Join(r.root, filepath.FromSlash(r.cfg.Path))); err == nil {
			if rel, ok := relSlash(r.root, real); ok && slices.Contains(touched, rel) {
				return rel, true
			}
		}
	}
	if r.opts.ConfigFlag == "" {
		for _, name := range config.Names {
			if slices.Contains(touched, name) {
				return name, true
			}
		}
	}
	return "", false
}

// noticeCommandsChange says so when the change edits the config's commands
// section: commands.* are hygiene, not a boundary against a pull request
// that edits them (README "Graders").
func (r *run) noticeCommandsChange(ctx context.Context, base string) {
	cmds := r.cfg.Commands
	if base == "" || !cmds.Pos.Known() {
		return
	}
	lines, err := changes.ChangedLines(ctx, r.root, base, r.cfg.Path)
	if err != nil {
		return
	}
	for _, l := range lines {
		if l >= cmds.Pos.Line && l <= cmds.EndLine {
			r.opts.Notice("evalgate: the change edits the commands section of " + r.cfg.Path +
				": commands.* come from the checked-out config and are not a boundary against this change")
			return
		}
	}
}

// dependents returns the selected pages that name one of the touched files
// (changed, moved or deleted) as a companion (`target: {source: file}`) or
// an options file (a schema), directly or through a config eval they reach
// with use: or eval-suite (README "Which files are checked"). It reads only pages whose text
// mentions a touched file's name, found with one `git grep` where git works.
func (r *run) dependents(ctx context.Context, touched []string) ([]string, error) {
	if len(touched) == 0 {
		return nil, nil
	}
	r.companionOf = map[string]bool{}
	set := map[string]bool{}
	for _, t := range touched {
		set[t] = true
	}
	// Pages can reach a touched file through a config eval; then the page
	// names the eval (or its suite), not the file.
	needles := r.configNeedles(set)
	for _, t := range touched {
		needles = append(needles, path.Base(t))
	}
	candidates, err := r.pagesMentioning(ctx, needles)
	if err != nil {
		return nil, err
	}
	// A suite that applies by path reaches pages that need not name it.
	for _, ps := range r.pathSuites {
		if !slices.ContainsFunc(ps.suite.Evals, func(ev *docmeta.Eval) bool { return r.refers(ev, set) }) {
			continue
		}
		files, err := r.listFiles(ctx)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if r.pagesM.Match(f) && ps.m.Match(f) {
				candidates = append(candidates, f)
			}
		}
	}
	// A changed reviews file decides the human evals of the pages it names.
	reviewed := map[string]bool{}
	if _, rel := r.reviewsFile(); set[rel] {
		for key := range r.reviews {
			if r.pagesM.Match(key[0]) {
				reviewed[key[0]] = true
				candidates = append(candidates, key[0])
			}
		}
	}
	// A page that is a symlink is read through its link, but git grep reads the link itself (its
	// target's path): one that nothing above made a candidate is one when its text names a needle, its
	// companions relative to its own folder.
	known := setOf(candidates)
	linked := map[string]bool{}
	for _, link := range r.indexedLinks(ctx) {
		if r.pagesM.Match(link) && !known(link) {
			linked[link] = true
			candidates = append(candidates, link)
		}
	}
	slices.Sort(candidates)
	candidates = slices.Compact(candidates)
	var deps []string
	for _, page := range candidates {
		src, ok := r.readHead(page)
		if !ok || linked[page] && !mentions(src, needles) {
			continue
		}
		doc := frontmatter.Split(src)
		root, _ := frontmatter.Parse(doc)
		byPath := r.suitesFor(page)
		if (root == nil || root.Kind != frontmatter.Map) && len(byPath) == 0 {
			continue
		}
		if reviewed[page] {
			deps = append(deps, page)
			continue
		}
		reads := false
		for _, ref := range r.fileRefs(page, docmeta.ValidatePage(root, r.cfg.Catalog, byPath)) {
			// A companion reached through a symlinked folder (docs/data -> ../specs) is its target.
			if r.reaches(set, ref) {
				reads = true
				r.companionOf[ref] = true
			}
		}
		if reads {
			deps = append(deps, page)
		}
	}
	return deps, nil
}

// reaches reports whether reading the repository file ref reads a touched file: ref itself, the file it
// leads to through symlinks, or through a touched folder on its path (a symlinked folder retargeted).
func (r *run) reaches(set map[string]bool, ref string) bool {
	if set[ref] || folderTouched(set, ref) {
		return true
	}
	real := r.realRel(ref)
	return real != "" && set[real]
}

// folderTouched reports whether a folder on ref's path is touched: a symlinked folder retargeted
// (docs/data -> ../specs2) changes every file read through it.
func folderTouched(set map[string]bool, ref string) bool {
	for d := path.Dir(ref); d != "." && d != "/"; d = path.Dir(d) {
		if set[d] {
			return true
		}
	}
	return false
}

// realRel is the repository path the repository path ref leads to through symlinks, "" when it leads
// nowhere inside the repository or is ref itself.
func (r *run) realRel(ref string) string {
	real, err := filepath.EvalSymlinks(filepath.Join(r.root, filepath.FromSlash(ref)))
	if err != nil {
		return ""
	}
	if rel, ok := relSlash(r.root, real); ok && rel != ref {
		return rel
	}
	return ""
}

// configNeedles returns the ids of config evals and the names of suites that
// name a touched file through their options (paths relative to the config's
// directory), so that pages using them are found.
func (r *run) configNeedles(touched map[string]bool) []string {
	cat := r.cfg.Catalog
	if cat == nil {
		return nil
	}
	var needles []string
	refers := func(ev *docmeta.Eval) bool { return r.refers(ev, touched) }
	for id, ev := range cat.Evals {
		if refers(ev) {
			needles = append(needles, id)
		}
	}
	for name, su := range cat.Suites {
		if slices.ContainsFunc(su.Evals, refers) {
			needles = append(needles, name)
		}
	}
	slices.Sort(needles)
	return needles
}

// refers reports whether a config eval may read a touched file: an options
// file it names (relative to the config's directory) or, since a config
// eval's companion is relative to each page that uses it, a companion of
// that name.
func (r *run) refers(ev *docmeta.Eval, touched map[string]bool) bool {
	for _, p := range optionPaths(ev) {
		if rel, ok := relSlash(r.root, filepath.Join(r.cfg.Dir, filepath.FromSlash(p.path))); ok && r.reaches(touched, rel) {
			return true
		}
	}
	return ev.Target.Kind == docmeta.TargetFile && anyBase(touched, path.Base(ev.Target.Path))
}

func anyBase(set map[string]bool, base string) bool {
	for f := range set {
		if path.Base(f) == base {
			return true
		}
	}
	return false
}

// optionPath is a file an eval's options name: the option and its value.
type optionPath struct{ name, path string }

// optionPaths lists the options of an eval that name files (a built-in
// tool's PathOptions, such as tool:frontmatter-schema's schema) with their
// values.
func optionPaths(ev *docmeta.Eval) []optionPath {
	tool := tooldef.Lookup(ev.Grader)
	if tool == nil {
		return nil
	}
	var out []optionPath
	for _, name := range tool.PathOptions {
		if e := ev.Options.Get(name); e != nil && e.Value.Kind == frontmatter.String {
			out = append(out, optionPath{name, e.Value.Text})
		}
	}
	return out
}

// fileRefs lists the repository-relative files a page's evals read besides
// the page: companions and options files.
func (r *run) fileRefs(page string, p *docmeta.Page) []string {
	pageDir := filepath.Join(r.root, filepath.FromSlash(path.Dir(page)))
	var refs []string
	add := func(base, rel string) {
		if filepath.IsAbs(rel) {
			return
		}
		if ref, ok := relSlash(r.root, filepath.Join(base, filepath.FromSlash(rel))); ok {
			refs = append(refs, ref)
		}
	}
	for _, ev := range p.Evals {
		if ev.Target.Kind == docmeta.TargetFile {
			add(pageDir, ev.Target.Path)
		}
		optDir := pageDir
		if ev.Origin == docmeta.OriginConfig {
			optDir = r.cfg.Dir
		}
		for _, o := range optionPaths(ev) {
			add(optDir, o.path)
		}
	}
	return refs
}

// maxNeedles is the most file names pagesMentioning looks for: git grep -F tries every pattern on every
// line, so 16,000 of them (a change that renames as many images) took 68 s on 32,000 files. Past it, every
// selected page is a candidate: reading each one's frontmatter is linear in the pages.
const maxNeedles = 256

// mentionCheck is how many files a walk of the tree, or the read of each page, passes between two looks
// at the run's context.
const mentionCheck = 256

// pagesMentioning returns the selected pages whose text holds one of the
// needles: `git grep` where git works (it reads the tree in parallel, in C),
// else a read of each page; with more than maxNeedles needles, every selected page.
func (r *run) pagesMentioning(ctx context.Context, needles []string) ([]string, error) {
	if len(needles) > maxNeedles {
		files, err := r.listFiles(ctx)
		if err != nil {
			return nil, err
		}
		return slices.DeleteFunc(slices.Clone(files), func(f string) bool { return !r.pagesM.Match(f) }), nil
	}
	if r.isRepo {
		// A stopped run (a signal: README "Exit statuses") looks no further: git grep was killed, and
		// reading every page instead took seconds on a large tree for evals that do not run.
		if pages, err := r.gitGrep(ctx, needles, true); err == nil || ctx.Err() != nil {
			return pages, nil
		}
	}
	files, err := r.listFiles(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for i, f := range files {
		if i%mentionCheck == 0 && ctx.Err() != nil {
			return out, nil
		}
		if !r.pagesM.Match(f) {
			continue
		}
		src, ok := r.readHead(f)
		if !ok {
			continue
		}
		text := frontmatter.Split(src).Text
		for _, n := range needles {
			if bytes.Contains(text, []byte(n)) {
				out = append(out, f)
				break
			}
		}
	}
	return out, nil
}

// gitGrep returns the files, tracked or not (ignored ones aside), whose text holds one of needles, those
// keep accepts: pages searched as text (-a: a page that .gitattributes marks -diff or binary, as generated
// reference pages often are, was passed over by -I, and its companion's change re-checked nothing), or
// the other files, binary ones left out.
func (r *run) gitGrep(ctx context.Context, needles []string, pages bool) ([]string, error) {
	binary := "-I"
	if pages {
		binary = "-a"
	}
	args := []string{"grep", "-l", "-z", binary, "-F", "--untracked"}
	for _, n := range needles {
		args = append(args, "-e", n)
	}
	out, err := gitCommand(ctx, r.root, append(args, "--")...).Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		return nil, nil // no match
	}
	if err != nil {
		return nil, err
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" && r.pagesM.Match(f) == pages && !repofs.InGit(f) {
			files = append(files, f)
		}
	}
	return files, nil
}

// dirArg reports whether the PATH argument p names a directory inside the
// repository, and which (repository-relative, "" for the root). A directory
// outside it or inside .git, also through a symlink, is left to pathArg to refuse.
func (r *run) dirArg(p string) (string, bool) {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.opts.Dir, p)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", false
	}
	rel, ok := relSlash(r.root, abs)
	if !ok || repofs.InGit(rel) {
		return "", false
	}
	if _, err := repofs.Within(r.root, r.root, filepath.FromSlash(rel)); err != nil {
		return "", false // a symlink on the way leads out of the repository or into .git
	}
	if rel == "." {
		rel = ""
	}
	return rel, true
}

// selectedUnder lists the candidate files under the directory dir
// (repository-relative, "" for the root) that the run selects: pages, and
// the fixtures, candidates, contracts and replays of the config.
func (r *run) selectedUnder(ctx context.Context, dir string) ([]string, error) {
	files, err := r.listFiles(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		if (dir == "" || strings.HasPrefix(f, dir+"/")) && (r.pagesM.Match(f) || r.fx.owns(f)) {
			out = append(out, f)
		}
	}
	return out, nil
}

// pathArg turns a PATH argument into a repository-relative path; a path that
// does not exist, leaves the repository, lies inside .git, is no regular file, or is a directory
// where files are wanted (the error says what to give: dirHint) is a usage error. A symlink is
// followed later, by every read (repofs).
func (r *run) pathArg(p, dirHint string) (string, error) {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.opts.Dir, p)
	}
	fi, err := os.Lstat(abs)
	if err != nil {
		return "", usagef("%s: no such file", p)
	}
	rel, ok := relSlash(r.root, abs)
	if !ok {
		return "", usagef("%s: outside the repository %s", p, r.root)
	}
	if repofs.InGit(rel) {
		return "", usagef("%s: inside .git, which evalgate never reads", p)
	}
	if !fi.Mode().IsRegular() && !fi.IsDir() && fi.Mode()&fs.ModeSymlink == 0 {
		return "", usagef("%s: not a regular file (a FIFO, device or socket); evalgate reads only those", p)
	}
	if _, err := repofs.Within(r.root, r.root, filepath.FromSlash(rel)); err != nil {
		_, why := repofs.Refusal(err) // a symlink, itself or on the way, that leaves the repository or enters .git
		return "", usagef("%s: %s", p, why)
	}
	if fi.IsDir() {
		return "", usagef("%s: is a directory (%s)", p, dirHint)
	}
	return rel, nil
}

// setupMatchers builds the config's page selection and its suites by path.
func (r *run) setupMatchers() {
	r.pagesM = &matcher{prefix: r.cfgPrefix(), include: r.cfg.Pages.Include, exclude: r.cfg.Pages.Exclude, includeWhole: r.cfg.Pages.WholeRepo}
	for _, s := range r.cfg.PathSuites {
		r.pathSuites = append(r.pathSuites, pathSuite{s, &matcher{prefix: r.cfgPrefix(), include: s.Pages, exclude: s.Exclude}})
	}
}

// pathSuite is a suite that applies to the pages its matcher selects.
type pathSuite struct {
	suite *docmeta.Suite
	m     *matcher
}

// suitesFor returns the suites that apply to the selected page rel by path,
// in config order (README "Suites").
func (r *run) suitesFor(rel string) []*docmeta.Suite {
	var out []*docmeta.Suite
	for _, ps := range r.pathSuites {
		if ps.m.Match(rel) {
			out = append(out, ps.suite)
		}
	}
	return out
}

// cfgPrefix is the config's directory, repository-relative ("" for the root):
// globs in the config are relative to it.
func (r *run) cfgPrefix() string {
	dir := path.Dir(r.cfg.Path)
	if r.cfg.Path == "" || dir == "." {
		return ""
	}
	return dir
}

// setOf returns a membership test for files.
func setOf(files []string) func(string) bool {
	set := make(map[string]bool, len(files))
	for _, f := range files {
		set[f] = true
	}
	return func(f string) bool { return f != "" && set[f] }
}

// fixtures is what the EvalCase and jevcheck checks of a run see.
type fixtures struct {
	cases      []string // every fixture evalcase.include selects
	candidates []string // every candidates file evalcase.candidates selects
	jev        []jev.Entry
	casesM     *matcher // evalcase.include and evalcase.candidates, for files that are gone too
	candM      *matcher
}

// evalCaseFile reports whether file is, or was, an EvalCase fixture or candidates file: one the config's
// globs select, whether or not it is there.
func (fx *fixtures) evalCaseFile(file string) bool {
	return fx.casesM != nil && (fx.casesM.Match(file) || fx.candM.Match(file))
}

// selectFixtures lists the selected EvalCase fixtures and candidates files
// (every one of them is indexed, whatever the scope: README "Decisions where the specs are silent") and the
// config's jev entries, with repository-relative paths.
func (r *run) selectFixtures(ctx context.Context) (*fixtures, error) {
	fx := &fixtures{}
	ec := r.cfg.EvalCase
	if len(ec.Include) > 0 || len(ec.Candidates) > 0 {
		files, err := r.listFiles(ctx)
		if err != nil {
			return nil, err
		}
		fx.casesM = &matcher{prefix: r.cfgPrefix(), include: ec.Include}
		fx.candM = &matcher{prefix: r.cfgPrefix(), include: ec.Candidates}
		for _, f := range files {
			switch {
			case fx.casesM.Match(f):
				fx.cases = append(fx.cases, f)
			case fx.candM.Match(f):
				fx.candidates = append(fx.candidates, f)
			}
		}
	}
	for _, e := range r.cfg.Jev {
		fx.jev = append(fx.jev, jev.Entry{
			Contract: r.cfgRel(e.Contract), Answers: r.cfgRel(e.Answers), From: r.cfgRel(e.From),
			CandidateModel: e.CandidateModel, BaselineModel: e.BaselineModel,
			AllowUnpinned: e.AllowUnpinned, Pos: e.Pos,
			ConfigFile: r.cfg.Path, Notice: r.opts.Notice,
		})
	}
	return fx, nil
}

// cfgRel turns a path relative to the config's directory into a
// repository-relative one ("" stays "").
func (r *run) cfgRel(p string) string {
	if p == "" {
		return ""
	}
	return path.Join(r.cfgPrefix(), p)
}

// owns reports whether a file is one of the fixtures' inputs.
func (fx *fixtures) owns(file string) bool {
	if slices.Contains(fx.cases, file) || slices.Contains(fx.candidates, file) {
		return true
	}
	for _, e := range fx.jev {
		if file == e.Contract || file == e.Answers || file == e.From {
			return true
		}
	}
	return false
}

// FindRoot returns the repository root: the nearest ancestor of dir (dir
// included) that holds a ".git" entry, found without running git. ok is false
// when there is none.
func FindRoot(dir string) (root string, ok bool) {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir, false
		}
		d = parent
	}
}

// listFiles lists the candidate files of the repository, repository-relative
// with '/', sorted: `git ls-files` where git works (ignored files are never
// candidates), else a walk that skips .git, node_modules and vendor and never
// follows symlinked directories. Nothing under the folder skip is listed.
func listFiles(ctx context.Context, root string, isRepo bool, skip string) ([]string, error) {
	if isRepo {
		files, err := gitListFiles(ctx, root)
		switch {
		case err == nil:
			if skip != "" {
				files = slices.DeleteFunc(files, func(f string) bool { return under(skip, f) })
			}
			return dropSubmodules(ctx, root, files), nil
		case ctx.Err() != nil:
			// A signal killed git: walking the tree instead took seconds on a large one.
			return nil, context.Cause(ctx)
		}
	}
	return walkFiles(ctx, root, skip)
}

// gitListFiles lists the candidate files of the repository at root (README "Which files are checked"), or
// of them those that paths (repository-relative files, taken literally) name.
func gitListFiles(ctx context.Context, root string, paths ...string) ([]string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, err
	}
	args := []string{"--literal-pathspecs", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--"}
	cmd := gitCommand(ctx, root, append(args, paths...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, errors.New(strings.TrimSpace(stderr.String()))
	}
	var files []string
	for _, f := range bytes.Split(out, []byte{0}) {
		if len(f) > 0 {
			files = append(files, string(f))
		}
	}
	slices.Sort(files)
	// --cached lists a file once per stage in a conflicted merge.
	return slices.Compact(files), nil
}

// symlinksTo returns the repository's symlinks (those git tracks) that lead to one of files, inside
// the repository; none where git cannot say.
func (r *run) symlinksTo(ctx context.Context, files []string) []string {
	if !r.isRepo || len(files) == 0 {
		return nil
	}
	set := setOf(files)
	var links []string
	for _, p := range r.indexedLinks(ctx) {
		if set(p) {
			continue
		}
		real, err := filepath.EvalSymlinks(filepath.Join(r.root, filepath.FromSlash(p)))
		if err != nil {
			continue
		}
		if rel, ok := relSlash(r.root, real); ok && set(rel) {
			links = append(links, p)
		}
	}
	return links
}

// dropSubmodules drops the submodules git lists among files (a gitlink): a submodule is another
// repository, no file of this one (docs/mod.md made a target_unreadable page). Only a repository with
// a .gitmodules file is asked.
func dropSubmodules(ctx context.Context, root string, files []string) []string {
	if _, err := os.Lstat(filepath.Join(root, ".gitmodules")); err != nil {
		return files
	}
	links := setOf(gitIndexed(ctx, root, "160000"))
	return slices.DeleteFunc(files, links)
}

// indexedLinks are the symlinks git tracks (gitIndexed, mode 120000), asked once a run.
func (r *run) indexedLinks(ctx context.Context) []string {
	if r.links == nil {
		if r.isRepo {
			r.links = gitIndexed(ctx, r.root, "120000")
		}
		if r.links == nil {
			r.links = []string{} // asked: none
		}
	}
	return r.links
}

// gitIndexed returns the paths git's index holds with the file mode mode (120000 a symlink, 160000 a
// submodule); none where git cannot say.
func gitIndexed(ctx context.Context, root, mode string) []string {
	out, err := gitCommand(ctx, root, "ls-files", "-s", "-z").Output()
	if err != nil {
		return nil
	}
	var paths []string
	for _, e := range bytes.Split(out, []byte{0}) {
		// "MODE SHA STAGE\tPATH"
		if meta, p, ok := bytes.Cut(e, []byte{'\t'}); ok && bytes.HasPrefix(meta, []byte(mode+" ")) {
			paths = append(paths, string(p))
		}
	}
	return paths
}

// gitCommand is evalgate's own git in the repository at root: paths unquoted, the environment without
// credentials (grader.GitEnv), and no optional locks, so that it never holds up the user's git.
func gitCommand(ctx context.Context, root string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root, "-c", "core.quotePath=false"}, args...)...)
	cmd.Env = append(grader.GitEnv(os.Environ()), "GIT_OPTIONAL_LOCKS=0")
	return cmd
}

// walkFiles lists the files below root as listFiles does without git, stopping with the run.
func walkFiles(ctx context.Context, root, skip string) ([]string, error) {
	var files []string
	if skip != "" {
		skip = filepath.Join(root, filepath.FromSlash(skip))
	}
	seen := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if seen++; seen%mentionCheck == 0 && ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable directory is left out, like git would
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "vendor":
				if p != root {
					return filepath.SkipDir
				}
			}
			if p == skip {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	slices.Sort(files)
	return files, err
}

// matcher selects files by doublestar globs relative to a base directory.
type matcher struct {
	prefix  string // the base directory, repository-relative with '/', "" for the root
	include []string
	exclude []string
	// includeWhole matches include against repository-relative paths: the
	// default page globs cover the whole repository wherever the config
	// lives (README "Which files are checked"); exclude stays relative to
	// the base.
	includeWhole bool
}

// rel turns a repository-relative path into one relative to the base, or
// reports that the file is outside it.
func (m *matcher) rel(file string) (string, bool) {
	if m.prefix == "" {
		return file, true
	}
	if !strings.HasPrefix(file, m.prefix+"/") {
		return "", false
	}
	return file[len(m.prefix)+1:], true
}

// Match reports whether file (repository-relative, '/') is selected.
func (m *matcher) Match(file string) bool {
	rel, ok := m.rel(file)
	if m.includeWhole {
		return matchAny(m.include, file) && !(ok && matchAny(m.exclude, rel))
	}
	if !ok {
		return false
	}
	return matchAny(m.include, rel) && !matchAny(m.exclude, rel)
}

func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if ok, _ := doublestar.Match(p, name); ok {
			return true
		}
	}
	return false
}

// relSlash returns p relative to root with '/', or ok false when it is outside.
func relSlash(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return path.Clean(rel), true
}
