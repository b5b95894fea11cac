package diag

import (
	"cmp"
	"sort"
)

// Compare orders results as every report lists them (README "Results, outcomes and blocking"): by
// source, file (bytewise), line, column, check, case id and code, then by key and message, and then by
// what decides blocking (outcome; severity, the most severe first; type, regression first; grader,
// weight), then by assertion and notes after verdicts, so that results sort the same way on every run,
// whatever the timing, and in a merge of shards, whatever the order they are given in (two pages' evals
// of one id on one companion are alike but for their type or assertion): a baseline applied in report
// order marks the same one, and of two fails alike but for what blocks, the one that would block.
// Results that still compare equal differ only in evidence and durations (a tool's findings at one
// place): Sort keeps them in the order they came in, which is their eval's.
func Compare(a, b *Result) int {
	if c := cmp.Compare(a.Source, b.Source); c != 0 {
		return c
	}
	if c := cmp.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Pos.Line, b.Pos.Line); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Pos.Col, b.Pos.Col); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Check, b.Check); c != 0 {
		return c
	}
	if c := cmp.Compare(a.CaseID, b.CaseID); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Code, b.Code); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Key, b.Key); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Message, b.Message); c != 0 {
		return c
	}
	return tieBreak(a, b)
}

// tieBreak orders results alike in every key Compare reads first: asked rarely, so it compares all
// fields at once.
func tieBreak(a, b *Result) int {
	return cmp.Or(
		cmp.Compare(a.Outcome, b.Outcome),
		cmp.Compare(a.Severity, b.Severity),
		cmp.Compare(b.Type, a.Type), // regression before capability
		cmp.Compare(a.Grader, b.Grader),
		cmp.Compare(a.Weight, b.Weight),
		cmp.Compare(a.Assertion, b.Assertion),
		cmp.Compare(boolRank(a.Verdictless), boolRank(b.Verdictless)),
	)
}

// boolRank ranks false before true.
func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Sort sorts results in report order; it is stable, so results equal in every
// key keep the order they were produced in. It compares results in place: a
// comparison function of slices.SortStableFunc takes two copies of them, and a
// Result is some 200 bytes (4,096 random results sort in two thirds of the
// time, results already in order in a third).
func Sort(rs []Result) {
	if len(rs) > 12 {
		sort.Stable(byReport(rs))
		return
	}
	// Insertion sort, as sort.Stable sorts its small blocks, without the interface: a case's
	// few results are sorted this way, 100,000 times for 100,000 cases.
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && Compare(&rs[j-1], &rs[j]) > 0; j-- {
			rs[j-1], rs[j] = rs[j], rs[j-1]
		}
	}
}

type byReport []Result

func (r byReport) Len() int           { return len(r) }
func (r byReport) Less(i, j int) bool { return Compare(&r[i], &r[j]) < 0 }
func (r byReport) Swap(i, j int)      { r[i], r[j] = r[j], r[i] }
