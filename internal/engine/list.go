package engine

import (
	"context"
	"slices"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/evalcase"
	"github.com/evalgate/evalgate/internal/jev"
	"github.com/evalgate/evalgate/internal/report"
)

// List is `evalgate list` (README "evalgate list"): the files a validate run
// with the same options would select, the selected pages with their resolved
// evals (a page without evals is listed as having none), and the selected
// fixtures and contracts with their case counts. It grades nothing and
// reports no finding. An invalid config returns its results and no listing
// (exit 2, as for check); an error is a *UsageError or an internal failure.
func List(ctx context.Context, opts Options) (*report.Listing, []diag.Result, error) {
	// The selection of validate: PATH arguments are taken as given, without
	// the pages that depend on them, and no page's bytes are kept.
	opts.Mode = ModeValidate
	r, err := newRun(opts)
	if err != nil {
		return nil, nil, err
	}
	r.listing = true
	cfg, cfgResults, err := r.loadConfig()
	if err != nil {
		return nil, nil, err
	}
	if len(cfgResults) > 0 {
		diag.Sort(cfgResults)
		return nil, cfgResults, nil
	}
	r.cfg = cfg
	r.setupCommands()
	sel, err := r.selectFiles(ctx)
	if err != nil {
		return nil, nil, err
	}
	l := &report.Listing{}
	for chunk := range slices.Chunk(sel.pages, pageChunk) {
		for _, ps := range r.loadPages(ctx, chunk) {
			if !ps.gone { // deleted in the working tree, as check sees it
				l.Pages = append(l.Pages, listedPage(ps))
			}
		}
	}
	for _, f := range r.fx.cases {
		if !r.inScope(f) {
			continue
		}
		lf := report.ListedFile{File: f}
		n, err := evalcase.CountCases(r.root, f)
		if err != nil {
			lf.Faults = 1
		} else {
			lf.Cases = n
		}
		l.Fixtures = append(l.Fixtures, lf)
	}
	for _, e := range r.fx.jev {
		if !r.inScope(e.Contract) && !r.inScope(e.Answers) && !r.inScope(e.From) {
			continue
		}
		n, faults := jev.CountCases(r.root, e.Contract)
		l.Contracts = append(l.Contracts, report.ListedFile{
			File: e.Contract, Cases: n, Faults: len(faults), Answers: e.Answers, From: e.From,
		})
	}
	byFile := func(a, b report.ListedFile) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return strings.Compare(a.Answers+"\x00"+a.From, b.Answers+"\x00"+b.From)
	}
	slices.SortStableFunc(l.Fixtures, byFile)
	slices.SortStableFunc(l.Contracts, byFile)
	return l, nil, nil
}

// listedPage is one loaded page as the listing shows it.
func listedPage(ps *pageState) report.ListedPage {
	lp := report.ListedPage{File: ps.rel}
	for _, res := range ps.results {
		if res.Check == diag.CheckDefinition {
			lp.Faults++
		}
	}
	p := ps.page
	if p == nil {
		return lp // no frontmatter, or no evals key
	}
	lp.HasEvals, lp.Suite, lp.Skip = p.HasEvals, p.Suite, p.Skip
	for _, s := range p.Suites {
		if s != p.Suite {
			lp.ByPath = append(lp.ByPath, s)
		}
	}
	for _, ev := range p.Evals {
		le := report.ListedEval{ID: ev.ID, Grader: ev.Grader, From: report.FromPage, Pos: ev.Pos, Skip: ev.Skip}
		switch {
		case ev.Suite != "" && ev.Suite == p.Suite && ev.Pos == p.SuitePos:
			// A suite's evals sit at the eval-suite key, or at line 1 when
			// the suite applies by path; a page entry that replaces one
			// is the page's.
			le.From, le.Name = report.FromSuite, p.Suite
		case ev.Suite != "":
			le.From, le.Name = report.FromByPath, ev.Suite
		case ev.Use != "":
			le.From, le.Name = report.FromUse, ev.Use
		}
		lp.Evals = append(lp.Evals, le)
	}
	return lp
}
