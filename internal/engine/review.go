package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/review"
)

// Human reviews (README "Human reviews"): a recorded review decides a human eval while the eval and
// its target are what was reviewed; the hash says whether they still are.

// reviewHash covers an eval's resolved definition and its target bytes: what the reviewer judged.
func reviewHash(ev *docmeta.Eval, target []byte) string {
	def := map[string]any{
		"id": ev.ID, "assertion": ev.Assertion, "grader": ev.Grader, "type": ev.Type, "evidence": ev.Evidence,
		"target": ev.Target.Kind + "\x00" + ev.Target.Path,
	}
	if ev.Options != nil {
		def["options"] = ev.Options.Value()
	}
	js, _ := json.Marshal(def) // map keys are sorted: canonical
	h := sha256.New()
	h.Write(js)
	h.Write([]byte{0})
	h.Write(target)
	return hex.EncodeToString(h.Sum(nil))
}

// reviewsFile is the reviews file's absolute and repository-relative path.
func (r *run) reviewsFile() (abs, rel string) {
	rel = r.cfg.Reviews
	return filepath.Join(r.root, filepath.FromSlash(rel)), rel
}

// loadReviews reads the reviews file when it exists; a faulty line is a definition result at its
// position and is left out, the other reviews still count. report says whether the run reports the
// file's faults (one shard of a set does).
func (r *run) loadReviews(report bool) {
	abs, rel := r.reviewsFile()
	if _, err := os.Lstat(abs); err != nil {
		return
	}
	fault := func(p diag.Problem) {
		if !report {
			return
		}
		r.rep.Results.Add(diag.Result{Source: diag.SourceConfig, File: rel, Pos: p.Pos,
			Check: diag.CheckDefinition, Outcome: diag.Fail, Severity: diag.SeverityError, Code: p.Code, Message: p.Message})
	}
	full, err := repofs.Within(r.root, r.root, filepath.FromSlash(rel))
	if err != nil {
		code, why := repofs.Refusal(err)
		fault(diag.Problem{Code: code, Message: "the reviews file " + why + "; it is not read"})
		return
	}
	text, err := repofs.ReadFile(full, review.MaxSize)
	switch {
	case errors.Is(err, repofs.ErrTooLarge): // as the baseline's
		fault(diag.Problem{Pos: diag.Pos{Line: 1, Col: 1}, Code: "too_large",
			Message: "the reviews file is larger than " + repofs.Size(review.MaxSize) + "; it is not read"})
		return
	case err != nil:
		fault(diag.Problem{Pos: diag.Pos{Line: 1}, Code: "target_unreadable", Message: "cannot read the reviews file: " + repofs.Reason(err)})
		return
	}
	records, problems := review.Parse(text)
	for _, p := range problems {
		fault(p)
	}
	r.reviews = review.Index(records)
}

// gradeHuman decides a human eval by its review: pass or fail while the hash matches, pending
// review_stale when the page or the eval changed since, pending human_review without one.
func (r *run) gradeHuman(base diag.Result, ps *pageState, ev *docmeta.Eval) diag.Result {
	if _, ok := r.reviews[[2]string{ps.rel, ev.ID}]; !ok {
		return with(base, diag.Pending, "human_review", "waits for human review: "+ev.Assertion)
	}
	t, err := r.target(base, ps, ev)
	if err != nil {
		return err.(*errResult).res
	}
	res, _ := r.reviewed(base, ps, ev, t.bytes)
	return res
}

// reviewed is what ev's recorded review decides, when it has one: human_pass or human_fail while
// the review's hash matches the eval and target, else pending review_stale.
func (r *run) reviewed(base diag.Result, ps *pageState, ev *docmeta.Eval, target []byte) (diag.Result, bool) {
	rec, ok := r.reviews[[2]string{ps.rel, ev.ID}]
	if !ok {
		return diag.Result{}, false
	}
	ev2 := map[string]any{"by": rec.By, "at": rec.At, "note": rec.Note, "review_line": rec.Line}
	if rec.SHA256 != reviewHash(ev, target) {
		res := with(base, diag.Pending, "review_stale", fmt.Sprintf("the review by %s at %s no longer matches: the page or the eval changed since; review it again", orDash(rec.By), orDash(rec.At)))
		res.Evidence = ev2
		return res, true
	}
	res := with(base, diag.Pass, "human_pass", "reviewed: "+ev.Assertion)
	if rec.Verdict == "fail" {
		res = with(base, diag.Fail, "human_fail", "a reviewer finds it does not hold: "+ev.Assertion)
		if rec.Note != "" {
			res.Message += " (" + rec.Note + ")"
		}
	}
	res.Evidence = ev2
	return res, true
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ReviewOptions are `evalgate review PAGE EVAL_ID --pass|--fail`'s.
type ReviewOptions struct {
	Dir, ConfigFlag string
	Page, EvalID    string
	Pass            bool
	Note, By        string
	Now             time.Time
}

// Review records a human review (README "Human reviews"): the page's eval, resolved as check resolves
// it, with the hash of its definition and target, written into the reviews file, which stays sorted.
// It returns the file's repository-relative path.
func Review(ctx context.Context, o ReviewOptions) (string, error) {
	r, err := newRun(Options{Mode: ModeCheck, Dir: o.Dir, ConfigFlag: o.ConfigFlag})
	if err != nil {
		return "", err
	}
	cfg, cfgResults, err := r.loadConfig()
	if err != nil {
		return "", err
	}
	if len(cfgResults) > 0 {
		return "", usagef("the config is invalid (see evalgate validate); no review recorded")
	}
	r.cfg = cfg
	r.setupMatchers()
	rel, err := r.pathArg(o.Page, "give the page")
	if err != nil {
		return "", err
	}
	if !r.pagesM.Match(rel) {
		// check never reads it: a record for it would decide nothing.
		name := r.cfg.Path
		if name == "" {
			name = "the default globs (no config)"
		}
		return "", usagef("%s is not selected by %s: check never grades its evals; no review recorded", rel, name)
	}
	ps := r.loadPage(ctx, rel)
	var ev *docmeta.Eval
	var ids []string
	if ps.page != nil {
		for _, e := range ps.page.Evals {
			ids = append(ids, e.ID)
			if e.ID == o.EvalID {
				ev = e
			}
		}
	}
	switch {
	case ev == nil:
		return "", usagef("%s has no eval %q%s", rel, o.EvalID, diag.Suggest(o.EvalID, ids))
	case ev.Grader != "human" && ev.Grader != "ai":
		return "", usagef("%s is a %s eval: a review decides human and ai evals", o.EvalID, ev.Grader)
	}
	t, terr := r.target(evalResult(ps, ev), ps, ev)
	if terr != nil {
		return "", usagef("%s: %s", o.EvalID, terr.(*errResult).res.Message)
	}
	by := o.By
	if by == "" {
		out, _ := exec.CommandContext(ctx, "git", "-C", r.root, "config", "user.name").Output()
		by = strings.TrimSpace(string(out))
	}
	verdict := "fail"
	if o.Pass {
		verdict = "pass"
	}
	abs, fileRel := r.reviewsFile()
	// Read and written only where check would read it (README "Security model"): a reviews file, or a
	// folder on its way, that a symlink takes out of the repository or into .git is refused, never
	// followed, so its content is neither shown nor copied in, and nothing is written there.
	if _, err := repofs.Within(r.root, r.root, filepath.FromSlash(fileRel)); err != nil {
		_, why := repofs.Refusal(err)
		return "", usagef("the reviews file %s %s; no review recorded", fileRel, why)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return "", usagef("cannot write %s: %v", fileRel, err)
	}
	// Read, changed and replaced as one step: two reviews at once each kept the file as it was when
	// they read it, and one record was lost.
	unlock, err := repofs.LockDir(filepath.Dir(abs))
	if err != nil {
		return "", usagef("cannot write %s: %v", fileRel, err)
	}
	defer unlock()
	var records []review.Record
	if text, err := repofs.ReadFile(abs, review.MaxSize); err == nil {
		var problems []diag.Problem
		if records, problems = review.Parse(text); len(problems) > 0 {
			return "", usagef("%s:%s: %s; fix the file before recording a review", fileRel, problems[0].Pos, problems[0].Message)
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", usagef("cannot read %s: %s", fileRel, repofs.Reason(err))
	}
	records = review.Add(records, review.Record{File: rel, Eval: ev.ID, Verdict: verdict, By: by,
		At: o.Now.UTC().Format(time.RFC3339), Note: o.Note, SHA256: reviewHash(ev, t.bytes)})
	text, err := review.Marshal(records)
	if err != nil {
		return "", err
	}
	if err := repofs.WriteFile(r.root, abs, func(w io.Writer) error { _, err := w.Write(text); return err }); err != nil {
		return "", usagef("cannot write %s: %v", fileRel, err)
	}
	return fileRel, nil
}
