package engine

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/baseline"
	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/report"
)

// MergeOptions are `evalgate merge`'s.
type MergeOptions struct {
	Dir      string   // the working directory, absolute
	Files    []string // the shards' JSON reports, as given
	FailOn   diag.Severity
	Category string
	Baseline string // the baseline file to apply, as check's --baseline: the shards' own when they applied one
}

// Merge joins the JSON reports of one shard set into the report one unsharded run would have written
// (README "Shards"): it checks that they are one complete set (the same evalgate and config, each
// shard of N exactly once), joins their results in report order, adds up the suites' weights, adds
// suite_below_target where a suite seen whole misses its target, and recomputes the summary, the
// score and blocking. A set that is not complete is a *UsageError naming what is wrong. When the shards
// applied a baseline, it is applied again to the joined results in report order, as one run applies it:
// each shard marked its own fails against every entry's whole count, and saw no suite whole.
func Merge(o MergeOptions) (*report.Report, error) {
	start := time.Now()
	if len(o.Files) == 0 {
		return nil, usagef("merge: give the JSON reports of a shard set (evalgate check --all --shard K/N --json FILE)")
	}
	reps := make([]*report.Report, len(o.Files))
	for i, name := range o.Files {
		path := name
		if !filepath.IsAbs(path) {
			path = filepath.Join(o.Dir, name)
		}
		r, err := readReport(path)
		if err != nil {
			return nil, usagef("merge: %s: %v", name, err)
		}
		reps[i] = r
	}
	if err := checkShardSet(o.Files, reps); err != nil {
		return nil, err
	}
	first := reps[0]
	m := &report.Report{
		Tool:     first.Tool,
		Scope:    report.Scope{Mode: report.ScopeAll, Config: first.Scope.Config},
		Category: o.Category,
		Seen:     report.Seen{Unknown: true},
	}
	m.Results.Decide(o.FailOn)
	// A file a shard checked is that shard's: another's result of it is no part of the set.
	owner := map[string]int{}
	for _, r := range reps {
		for _, f := range r.Scope.Files {
			owner[f] = r.Scope.Shard.Index
		}
	}
	var sum report.Weights
	noticed := map[string]bool{} // each shard's notices are kept once (a linear search was quadratic)
	suites := map[string]*report.Suite{}
	scored := false
	// In shard order, whatever the order given (checkShardSet saw each K of N once): results alike but
	// for their evidence then come as one run hands them on, the same way every time.
	inOrder := make([]int, len(reps))
	for i, r := range reps {
		inOrder[r.Scope.Shard.Index-1] = i
	}
	for _, i := range inOrder {
		r := reps[i]
		m.Scope.Files = append(m.Scope.Files, r.Scope.Files...)
		for res := range r.Results.All() {
			if k, ok := owner[res.File]; ok && k != r.Scope.Shard.Index {
				return nil, usagef("merge: %s, shard %d/%d, holds a result of %s, which shard %d/%d checked",
					o.Files[i], r.Scope.Shard.Index, r.Scope.Shard.Count, res.File, k, r.Scope.Shard.Count)
			}
			m.Results.Add(*res)
		}
		if err := r.Results.Err(); err != nil {
			return nil, err
		}
		r.Results.Close()
		m.Baseline = m.Baseline || r.Baseline
		for _, n := range r.Notices {
			if !noticed[n] {
				noticed[n] = true
				m.Notices = append(m.Notices, n)
			}
		}
		if r.Summary.Score != nil {
			scored = true
			sum.Add(r.Summary.Weights)
		}
		for _, s := range r.Suites {
			su := suites[s.Name]
			if su == nil {
				su = &report.Suite{Name: s.Name, Target: s.Target, Pos: s.Pos}
				suites[s.Name] = su
			} else if su.Target != s.Target {
				return nil, usagef("merge: suite %s has target %v in one report and %v in another: the shards of a set read one config", s.Name, su.Target, s.Target)
			}
			su.Weights.Add(s.Weights)
		}
	}
	slices.Sort(m.Scope.Files)
	m.Scope.Files = slices.Compact(m.Scope.Files)
	if scored {
		score := sum.Score()
		m.Summary.Score, m.Summary.Weights = &score, sum
	}
	cfgFile := ""
	if c := m.Scope.Config; c != nil {
		cfgFile = c.File
	}
	for _, name := range slices.Sorted(maps.Keys(suites)) {
		su := suites[name]
		su.Score = su.Weights.Score()
		su.Met = su.Score >= su.Target
		m.Suites = append(m.Suites, *su)
		if !su.Met {
			m.Results.Add(suiteBelowTarget(cfgFile, su.Pos, name, su.Score, su.Target))
		}
	}
	// The marks are the merge's own, so a --baseline applies whether or not the shards applied one.
	if !m.Baseline && o.Baseline == "" {
		m.Finish(o.FailOn, start, nil)
		return m, nil
	}
	bl, err := mergeBaseline(o)
	if err != nil {
		return nil, err
	}
	m.Baseline = true
	marker := bl.Marker(report.Fingerprint, report.RuleID)
	m.Finish(o.FailOn, start, func(res *diag.Result) {
		res.Baselined = false
		marker.Mark(res)
	})
	// validate grades nothing, so its shards (which have no score) cannot tell what is fixed.
	if fixed := marker.Fixed(); fixed > 0 && scored {
		m.Notices = append(m.Notices, baseline.Fixed(fixed))
	}
	return m, nil
}

// mergeBaseline reads the baseline the shards applied, as check reads it: the default file of the
// repository Dir is in, or o.Baseline.
func mergeBaseline(o MergeOptions) (*baseline.File, error) {
	r, err := newRun(Options{Mode: ModeCheck, Dir: o.Dir, Baseline: o.Baseline})
	if err != nil {
		return nil, err
	}
	bl, faults, err := r.loadBaseline()
	switch {
	case err != nil:
		return nil, err
	case len(faults) > 0:
		return nil, usagef("merge: the baseline the shards applied is invalid: %s: %s", faults[0].Location(), faults[0].Message)
	case bl == nil:
		return nil, usagef("merge: the shards applied a baseline, and %s is not here: merge in the repository they checked, or give --baseline FILE as they did", baseline.Name)
	}
	return bl, nil
}

// readReport reads one shard's JSON report.
func readReport(path string) (*report.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read it: %s", repofs.Reason(err))
	}
	defer f.Close()
	return report.ReadJSON(bufio.NewReaderSize(f, 1<<16))
}

// checkShardSet says what keeps reports from being one complete shard set, naming the files.
func checkShardSet(files []string, reps []*report.Report) error {
	first := reps[0]
	for i, r := range reps {
		if r.Scope.Shard == nil && configInvalid(r) {
			return usagef("merge: %s is the report of a run its config stopped (it is invalid: see evalgate validate), not a shard's", files[i])
		}
	}
	if first.Scope.Shard == nil {
		return usagef("merge: %s is not a shard's report (its scope.shard is null): write each with evalgate check --all --shard K/N --json FILE", files[0])
	}
	n := first.Scope.Shard.Count
	given := map[int]string{} // the file of each shard index; a count is the reports', not to allocate by
	for i, r := range reps {
		sh := r.Scope.Shard
		switch {
		case sh == nil:
			return usagef("merge: %s is not a shard's report (its scope.shard is null)", files[i])
		case sh.Count != n:
			return usagef("merge: %s is shard %d/%d but %s is shard %d/%d: one set splits into one number of shards", files[i], sh.Index, sh.Count, files[0], first.Scope.Shard.Index, n)
		case r.Tool != first.Tool:
			return usagef("merge: %s was written by %s %s, %s by %s %s: a set comes from one evalgate", files[i], r.Tool.Name, r.Tool.Version, files[0], first.Tool.Name, first.Tool.Version)
		case configHash(r) != configHash(first):
			return usagef("merge: %s and %s were checked with different configs (sha256 %s and %s)", files[0], files[i], configHash(first), configHash(r))
		case given[sh.Index] != "":
			return usagef("merge: shard %d/%d is given twice: %s and %s", sh.Index, n, given[sh.Index], files[i])
		case r.Scope.Mode != report.ScopeAll:
			return usagef("merge: %s checked scope %s: a shard is a part of everything (check --all --shard K/N)", files[i], r.Scope.Mode)
		case (r.Summary.Score == nil) != (first.Summary.Score == nil):
			// validate gives no score, check always one.
			return usagef("merge: %s and %s come from different commands (check and validate): a set comes from one", files[0], files[i])
		}
		given[sh.Index] = files[i]
		// Each file is its shard's alone: a report that holds another's results is no part of this set.
		for _, f := range r.Scope.Files {
			// A name that is not UTF-8 is written with U+FFFD: its shard is the name's, which the
			// report no longer holds.
			if !InShard(f, *sh) && !strings.ContainsRune(f, utf8.RuneError) {
				return usagef("merge: %s, shard %d/%d, checked %s, which is another shard's", files[i], sh.Index, n, f)
			}
		}
	}
	// At most ten are named: a report may say it is one of 2^63 shards.
	var missing []string
	for k := 1; k <= n && len(missing) < 10; k++ {
		if given[k] == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", k, n))
		}
	}
	switch {
	case len(missing) == 0:
		return nil
	case n-len(given) == 1:
		return usagef("merge: shard %s is missing", missing[0])
	case n-len(given) > len(missing):
		return usagef("merge: shards %s and %d more are missing", strings.Join(missing, ", "), n-len(given)-len(missing))
	}
	return usagef("merge: shards %s are missing", strings.Join(missing, ", "))
}

// configInvalid reports whether r holds a fault of its config: a run that stopped there, before any
// shard was taken.
func configInvalid(r *report.Report) bool {
	for res := range r.Results.Brief() {
		if res.Source == diag.SourceConfig && res.Check == diag.CheckDefinition && res.Outcome == diag.Fail && !res.Verdictless {
			return true
		}
	}
	return false
}

// configHash is the SHA-256 of a report's config, or "none".
func configHash(r *report.Report) string {
	if r.Scope.Config == nil {
		return "none"
	}
	return r.Scope.Config.SHA256
}
