package diag

import (
	"cmp"
	"slices"
)

// Compare orders results as every report lists them (README "Results, outcomes and blocking"): by
// source, file (bytewise), line, column, check, case id and code, then by
// message so that equal keys still sort the same way on every run.
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
	return cmp.Compare(a.Message, b.Message)
}

// Sort sorts results in report order; it is stable, so results equal in every
// key keep the order they were produced in.
func Sort(rs []Result) {
	slices.SortStableFunc(rs, func(a, b Result) int { return Compare(&a, &b) })
}
