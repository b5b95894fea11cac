package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/tooldef"
)

// validateTargets adds what `validate` reports beyond definitions: unknown
// tools and judge providers, targets outside the repository and missing companions, each a fail
// of severity error at the eval's entry (README "Use it in GitHub Actions"). These are the errors `check`
// meets when it runs an eval, so an eval `check` would not run (`eval-skip: true` on its page, `skip: true`
// on its entry) has none: validate fails where check fails.
func (r *run) validateTargets(pages []*pageState) {
	for _, ps := range pages {
		if ps.page == nil || ps.page.Skip {
			continue
		}
		for _, ev := range ps.page.Evals {
			if ev.Skip {
				continue
			}
			base := evalResult(ps, ev)
			base.Severity = diag.SeverityError
			fail := func(code, msg string) {
				r.rep.Results.Add(with(base, diag.Fail, code, msg))
			}
			if strings.HasPrefix(ev.Grader, "tool:") && tooldef.Lookup(ev.Grader) == nil {
				if _, ok := r.cfg.Tools[ev.Grader]; !ok {
					fail("unknown_tool", r.unknownTool(ev.Grader))
				}
			}
			if _, ok := r.cfg.AI.Providers[ev.Provider]; ev.Provider != "" && !ok {
				fail("unknown_provider", unknownProvider(r.cfg.AI, ev.Provider))
			}
			if ev.Target.Kind == docmeta.TargetFile {
				r.checkPath(fail, "target", filepath.Dir(ps.abs), ev.Target.Path)
			}
			for _, opt := range optionPaths(ev) {
				r.checkPath(fail, opt.name, r.evalDir(ps, ev), opt.path)
			}
		}
	}
}

func (r *run) checkPath(fail func(code, msg string), what, base, rel string) {
	abs, err := repofs.Within(r.root, base, rel)
	if err != nil {
		code, why := repofs.Refusal(err)
		fail(code, fmt.Sprintf("%s path %q %s", what, rel, why))
		return
	}
	if _, err := os.Stat(abs); err != nil {
		fail("target_unreadable", fmt.Sprintf("%s %q does not exist", what, rel))
	}
}
