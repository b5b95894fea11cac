package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/repofs"
)

// ReadJSON reads a JSON report that WriteJSON wrote (README "Shards": `evalgate merge` joins them)
// back into the Report it was written from, except for what the JSON report leaves out (Seen, the
// wall time, the category). A report of another version, or one whose values are out of their
// range, is an error that says where.
func ReadJSON(rd io.Reader) (*Report, error) {
	r := &Report{}
	in, err := readJSONReport(rd, &r.Results)
	if err != nil {
		r.Results.Close()
		return nil, err
	}
	if in.Version != 1 {
		return nil, fmt.Errorf("report version %d; this evalgate reads version 1", in.Version)
	}
	r.Tool = Tool{Name: in.Tool.Name, Version: in.Tool.Version}
	r.Scope = Scope{Mode: in.Scope.Mode, Files: in.Scope.Files}
	r.Notices = in.Notices
	r.Summary = Summary{Score: in.Summary.Score, Weights: Weights(in.Summary.Weights)}
	if err := checkWeights("summary.weights", in.Summary.Weights); err != nil {
		return nil, err
	}
	for i, s := range in.Suites {
		if err := checkWeights(fmt.Sprintf("suites[%d].weights", i), s.Weights); err != nil {
			return nil, err
		}
	}
	if !slices.Contains([]string{ScopeAll, ScopePaths, ScopeChanged}, r.Scope.Mode) {
		return nil, fmt.Errorf("scope.mode %q is not all, paths or changed", r.Scope.Mode)
	}
	if in.Scope.Base != nil {
		r.Scope.Base = *in.Scope.Base
	}
	if sh := in.Scope.Shard; sh != nil {
		if sh.Count < 1 || sh.Index < 1 || sh.Index > sh.Count {
			return nil, fmt.Errorf("scope.shard %d/%d is no part of a split", sh.Index, sh.Count)
		}
		r.Scope.Shard = &Shard{Index: sh.Index, Count: sh.Count}
	}
	if c := in.Scope.Config; c != nil {
		if !repoPath(c.File) {
			return nil, fmt.Errorf("scope.config.file %q is no path inside a repository", c.File)
		}
		r.Scope.Config = &ConfigFile{File: c.File, SHA256: c.SHA256}
	}
	for i, f := range r.Scope.Files {
		if f == "" || !repoPath(f) {
			return nil, fmt.Errorf("scope.files[%d] %q is no path inside a repository", i, f)
		}
		// As every run writes them: sorted, each once. A name that is not UTF-8 is sorted as it is and
		// written with U+FFFD, so two of them may read alike, or out of order, once written.
		if prev := r.Scope.Files[max(i-1, 0)]; i > 0 && f <= prev && !strings.ContainsRune(f+prev, utf8.RuneError) {
			return nil, fmt.Errorf("scope.files[%d] %q does not come after %q: a run lists each file once, in order", i, f, prev)
		}
	}
	r.Baseline = in.Scope.Baseline
	for _, s := range in.Suites {
		r.Suites = append(r.Suites, Suite{Name: s.Name, Score: s.Score, Target: s.Target, Met: s.Met, Partial: s.Partial,
			Weights: Weights(s.Weights), Pos: pos(s.Line, s.Column)})
	}
	r.Count()
	return r, nil
}

// readJSONReport reads a JSON report's members, each key once and no other; its results one at a
// time into results, so that a shard's report is never held whole (README "Memory").
func readJSONReport(rd io.Reader, results *Results) (jsonReport, error) {
	var in jsonReport
	lim := &valueLimit{r: rd, left: maxMemberBytes}
	dec := json.NewDecoder(lim)
	dec.DisallowUnknownFields()
	bad := func(err error) (jsonReport, error) { return in, fmt.Errorf("not an evalgate JSON report: %v", err) }
	if tok, err := dec.Token(); err != nil {
		return bad(err)
	} else if tok != json.Delim('{') {
		return bad(fmt.Errorf("it starts with %v, not an object", tok))
	}
	members := map[string]any{"version": &in.Version, "tool": &in.Tool, "scope": &in.Scope, "summary": &in.Summary,
		"suites": &in.Suites, "notices": &in.Notices, "results": nil}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return bad(err)
		}
		key, _ := tok.(string)
		to, known := members[key]
		switch {
		case !known:
			return bad(fmt.Errorf("unknown field %q", key))
		case seen[key]:
			return bad(fmt.Errorf("field %q twice", key))
		}
		seen[key] = true
		if key != "results" {
			lim.left = maxMemberBytes
			if err := decodeOnce(dec, to); err != nil {
				return bad(fmt.Errorf("%s: %v", key, err))
			}
			continue
		}
		if tok, err := dec.Token(); err != nil {
			return bad(err)
		} else if tok == nil {
			continue // "results": null, as encoding/json reads it: none
		} else if tok != json.Delim('[') {
			return bad(fmt.Errorf("results is %v, not an array", tok))
		}
		for i := 0; dec.More(); i++ {
			var j jsonResult
			lim.left = maxResultBytes
			if err := decodeOnce(dec, &j); err != nil {
				return bad(fmt.Errorf("results[%d]: %v", i, err))
			}
			res, err := fromJSONResult(j)
			if err != nil {
				return in, fmt.Errorf("results[%d]: %v", i, err)
			}
			results.Add(res)
		}
		lim.left = maxMemberBytes
		if _, err := dec.Token(); err != nil { // ]
			return bad(err)
		}
	}
	if _, err := dec.Token(); err != nil { // }
		return bad(err)
	}
	return in, nil
}

// A value of a report is read with a budget (valueLimit): a result of evalgate's is at most a few
// hundred KiB (its message 4 KiB, its evidence 64 KiB, escaped), so a result past maxResultBytes is no
// run's, and one of 300 MB took 2 GB to read; the other members (scope's list of files above all: a
// million paths of 60 bytes) may take maxMemberBytes.
const (
	maxResultBytes = 8 << 20
	maxMemberBytes = 64 << 20
)

// errValueTooLarge is what valueLimit says of a value past its budget.
var errValueTooLarge = errors.New("a value larger than any report evalgate writes holds")

// valueLimit reads r for a json.Decoder, at most left more bytes: the caller sets left before each
// value. What the decoder read ahead of a value counts for the one before, so a value may take up to
// twice its budget, never more.
type valueLimit struct {
	r    io.Reader
	left int64
}

func (l *valueLimit) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errValueTooLarge
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// repoPath says p is a path a report may name: relative, clean, inside the repository and not under
// .git ("" for none). A merged shard's results become annotations and SARIF locations: one naming
// ../../etc/passwd or .git/config is no shard's.
func repoPath(p string) bool {
	return p == "" || !strings.HasPrefix(p, "/") && path.Clean(p) == p && p != "." && p != ".." &&
		!strings.HasPrefix(p, "../") && !repofs.InGit(p)
}

// decodeOnce decodes the next value of dec into to, as dec.Decode does (no unknown field), and refuses
// a key given twice at any depth, which encoding/json would take last-wins: a merged report must be
// the one its shard wrote.
func decodeOnce(dec *json.Decoder, to any) error {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	if _, problems := frontmatter.ParseJSON(raw, 1); len(problems) > 0 && problems[0].Code == "duplicate_key" {
		what, _, _ := strings.Cut(problems[0].Message, ";") // its positions are the value's, not the file's
		return errors.New(what)
	}
	strict := json.NewDecoder(bytes.NewReader(raw))
	strict.DisallowUnknownFields()
	return strict.Decode(to)
}

const maxEvidenceDepth = 1000

// deeper reports whether v nests lists and maps more than n levels deep.
func deeper(v any, n int) bool {
	if n < 0 {
		return true
	}
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if deeper(e, n-1) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if deeper(e, n-1) {
				return true
			}
		}
	}
	return false
}

// checkWeights refuses weights no run writes: a score's parts are sums of eval weights, at least 0,
// the passed ones at most the total, and far below 2^53, so that a merge's sums stay exact (two shards
// of 1e308 would add up to +Inf, and the score to NaN).
func checkWeights(where string, w jsonWeights) error {
	if !(w.Pass >= 0 && w.Pass <= w.Total && w.Total <= 1<<53) {
		return fmt.Errorf("%s {pass: %v, total: %v} are no weights of a run: 0 <= pass <= total <= 2^53", where, w.Pass, w.Total)
	}
	return nil
}

func fromJSONResult(j jsonResult) (diag.Result, error) {
	if !repoPath(j.File) {
		return diag.Result{}, fmt.Errorf("file %q is no path inside a repository", j.File)
	}
	res := diag.Result{
		File: j.File, Pos: pos(j.Line, j.Column), Check: j.Check, Outcome: diag.Outcome(j.Outcome),
		Blocking: j.Blocking, Baselined: j.Baselined, Code: j.Code, Message: j.Message, DurationMS: j.DurationMS,
		Evidence: j.Evidence, Verdictless: j.Note,
	}
	for _, f := range []struct {
		to   *string
		from *string
	}{{&res.CaseID, j.CaseID}, {&res.Grader, j.Grader}, {&res.Type, j.Type}, {&res.Key, j.Key}, {&res.Assertion, j.Assertion}} {
		if f.from != nil {
			*f.to = *f.from
		}
	}
	if j.Weight != nil {
		res.Weight = *j.Weight
	}
	if len(res.Evidence) == 0 {
		res.Evidence = nil
	}
	if deeper(res.Evidence, maxEvidenceDepth) {
		// As every JSON value evalgate reads (README "Limits"); each level indents the report's lines,
		// so 10,000 levels made a 21 KB shard a 200 MB report.
		return res, fmt.Errorf("evidence nests deeper than %d levels", maxEvidenceDepth)
	}
	src := slices.IndexFunc(sources, func(s diag.Source) bool { return s.String() == j.Source })
	if src < 0 {
		return res, fmt.Errorf("source %q is not config, page, evalcase or jev", j.Source)
	}
	res.Source = sources[src]
	sev := slices.IndexFunc(diag.Severities, func(s diag.Severity) bool { return s.String() == j.Severity })
	if sev < 0 {
		return res, fmt.Errorf("severity %q is not error, warning or info", j.Severity)
	}
	res.Severity = diag.Severities[sev]
	if !slices.Contains(diag.Outcomes, res.Outcome) {
		return res, fmt.Errorf("outcome %q is not one of %v", j.Outcome, diag.Outcomes)
	}
	return res, nil
}

// sources are the results' sources, in report order.
var sources = []diag.Source{diag.SourceConfig, diag.SourcePage, diag.SourceEvalCase, diag.SourceJev}

func pos(line, col *int) diag.Pos {
	var p diag.Pos
	if line != nil {
		p.Line = *line
	}
	if col != nil {
		p.Col = *col
	}
	return p
}
