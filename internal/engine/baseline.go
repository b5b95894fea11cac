package engine

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/report"
)

// ErrBaselineInvalid is returned with a report holding the baseline file's
// faults: nothing was checked (exit 2, as for an invalid config).
var ErrBaselineInvalid = errors.New("the baseline is invalid; nothing was checked")

// baselineFile is where the baseline of known failures is (README
// "Baseline"): --baseline FILE (relative to the working directory, inside
// the repository), else .evalgate-baseline.json at the root. given says
// --baseline named it.
func (r *run) baselineFile() (abs, rel string, given bool, err error) {
	if r.opts.Baseline == "" {
		return filepath.Join(r.root, baseline.Name), baseline.Name, false, nil
	}
	abs = r.opts.Baseline
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(r.opts.Dir, abs)
	}
	rel, ok := relSlash(r.root, abs)
	if !ok {
		return "", "", true, usagef("--baseline %s: outside the repository %s", r.opts.Baseline, r.root)
	}
	return abs, rel, true, nil
}

// loadBaseline reads the baseline a check or validate applies: none under
// --no-baseline or when it writes one; the default file only when it
// exists, a --baseline file always (missing, it is a usage error). A
// malformed file gives its positioned faults.
func (r *run) loadBaseline() (*baseline.File, []diag.Result, error) {
	if r.opts.NoBaseline || r.opts.WriteBaseline || r.opts.Mode != ModeCheck && r.opts.Mode != ModeValidate {
		return nil, nil, nil
	}
	abs, rel, given, err := r.baselineFile()
	if err != nil {
		return nil, nil, err
	}
	if _, err := os.Lstat(abs); errors.Is(err, os.ErrNotExist) {
		if given {
			return nil, nil, usagef("--baseline %s: no such file", r.opts.Baseline)
		}
		return nil, nil, nil
	}
	fault := func(p diag.Problem) diag.Result {
		return diag.Result{Source: diag.SourceConfig, File: rel, Pos: p.Pos, Check: diag.CheckDefinition,
			Outcome: diag.Fail, Severity: diag.SeverityError, Code: p.Code, Message: p.Message}
	}
	full, err := repofs.Within(r.root, r.root, filepath.FromSlash(rel))
	if err != nil {
		code, why := repofs.Refusal(err)
		return nil, []diag.Result{fault(diag.Problem{Code: code, Message: "the baseline " + why + "; it is not read"})}, nil
	}
	text, err := repofs.ReadFile(full, baseline.MaxSize)
	switch {
	case errors.Is(err, repofs.ErrTooLarge):
		return nil, []diag.Result{fault(diag.Problem{Pos: diag.Pos{Line: 1, Col: 1}, Code: "too_large",
			Message: "the baseline is larger than " + repofs.Size(baseline.MaxSize) + "; it is not read"})}, nil
	case err != nil:
		return nil, []diag.Result{fault(diag.Problem{Code: "target_unreadable", Message: "cannot read the baseline: " + repofs.Reason(err)})}, nil
	}
	f, problems := baseline.Parse(text)
	var out []diag.Result
	for _, p := range problems {
		out = append(out, fault(p))
	}
	return f, out, nil
}

// finishWith finishes the report with the baseline b, if there is one: it marks the fails b
// accepts, in report order, before blocking is decided; a check that sees everything says how many
// entries no longer occur.
func (r *run) finishWith(b *baseline.File) {
	if b == nil {
		r.finish()
		return
	}
	m := b.Marker(report.Fingerprint, report.RuleID)
	r.rep.Baseline = true
	r.rep.Finish(r.opts.FailOn, r.start, m.Mark)
	// validate grades nothing: the fails of graders it did not run are not gone.
	if fixed := m.Fixed(); r.whole && r.opts.Mode == ModeCheck && fixed > 0 {
		r.opts.Notice(baseline.Fixed(fixed))
	}
}

// writeBaseline writes the baseline of the run's fails (`evalgate
// baseline`), replacing the file and any symlink in its place.
func (r *run) writeBaseline() error {
	abs, rel, _, err := r.baselineFile()
	if err != nil {
		return err
	}
	// The file itself may be a symlink, which the write replaces; a folder on its way may not take the
	// write out of the repository or into .git (README "Security model").
	if dir := path.Dir(rel); dir != "." {
		if _, err := repofs.Within(r.root, r.root, filepath.FromSlash(dir)); err != nil {
			_, why := repofs.Refusal(err)
			return usagef("cannot write the baseline %s: its folder %s", rel, why)
		}
	}
	f := baseline.Build(r.rep.Results.All(), report.Fingerprint, report.RuleID)
	if old := r.oldBaseline(abs); old != nil {
		f.Keep(old)
	}
	text, err := f.Marshal()
	if err != nil {
		return err
	}
	if err := repofs.WriteFile(r.root, abs, func(w io.Writer) error { _, err := w.Write(text); return err }); err != nil {
		return usagef("cannot write the baseline %s: %v", rel, err)
	}
	n := 0
	for _, e := range f.Entries {
		n += e.Count
	}
	r.opts.Notice(fmt.Sprintf("evalgate: wrote %s: %s for %s", rel, count(len(f.Entries), "entry", "entries"), count(n, "fail", "fails")))
	return nil
}

// count is "1 entry" or "N entries".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// oldBaseline is the baseline file writeBaseline replaces, when it is there and valid, for the entries of
// the files this run cannot judge (baseline.File.Keep); nil otherwise: an unreadable or malformed file is
// replaced whole.
func (r *run) oldBaseline(abs string) *baseline.File {
	rel, _ := relSlash(r.root, abs)
	full, err := repofs.Within(r.root, r.root, filepath.FromSlash(rel))
	if err != nil {
		return nil
	}
	text, err := repofs.ReadFile(full, baseline.MaxSize)
	if err != nil {
		return nil
	}
	f, _ := baseline.Parse(text)
	return f
}
