package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/evalgate/evalgate/internal/diag"
)

// The JSON report, version 1 (README "Results, outcomes and blocking"). Field order is the order of
// the struct fields; absent values are null, never left out.
type jsonReport struct {
	Version int          `json:"version"`
	Tool    jsonTool     `json:"tool"`
	Scope   jsonScope    `json:"scope"`
	Summary jsonSummary  `json:"summary"`
	Suites  []jsonSuite  `json:"suites"`
	Results []jsonResult `json:"results"`
	Notices []string     `json:"notices"`
}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type jsonScope struct {
	Mode  string   `json:"mode"`
	Base  *string  `json:"base"`
	Files []string `json:"files"`
	// Shard is the part of a sharded run; Config the config file read, with its SHA-256; Baseline
	// says a baseline of known failures was applied (README "Shards" and "Baseline").
	Shard    *jsonShard  `json:"shard"`
	Config   *jsonConfig `json:"config"`
	Baseline bool        `json:"baseline"`
}

type jsonShard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

type jsonConfig struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

type jsonSummary struct {
	Pass      int         `json:"pass"`
	Fail      int         `json:"fail"`
	Error     int         `json:"error"`
	Skip      int         `json:"skip"`
	Pending   int         `json:"pending"`
	Blocking  int         `json:"blocking"`
	Baselined int         `json:"baselined"`
	Score     *float64    `json:"score"`
	Weights   jsonWeights `json:"weights"`
}

// jsonWeights are a score's parts: the weights of passed evals and of graded ones.
type jsonWeights struct {
	Pass  float64 `json:"pass"`
	Total float64 `json:"total"`
}

type jsonSuite struct {
	Name    string      `json:"name"`
	Score   float64     `json:"score"`
	Target  float64     `json:"target"`
	Met     bool        `json:"met"`
	Partial bool        `json:"partial"`
	Weights jsonWeights `json:"weights"`
	Line    *int        `json:"line"`
	Column  *int        `json:"column"`
}

type jsonResult struct {
	Source     string         `json:"source"`
	File       string         `json:"file"`
	Line       *int           `json:"line"`
	Column     *int           `json:"column"`
	Check      string         `json:"check"`
	CaseID     *string        `json:"case_id"`
	Grader     *string        `json:"grader"`
	Type       *string        `json:"type"`
	Outcome    string         `json:"outcome"`
	Severity   string         `json:"severity"`
	Blocking   bool           `json:"blocking"`
	Baselined  bool           `json:"baselined,omitempty"` // only a baselined fail has it (README "Baseline")
	Code       string         `json:"code"`
	Message    string         `json:"message"`
	Weight     *float64       `json:"weight"`
	DurationMS int64          `json:"duration_ms"`
	Evidence   map[string]any `json:"evidence"`
	// Key is the finding's own identity (a link target, a token), part of its SARIF fingerprint;
	// Assertion the eval's; Note marks a note that never enters an eval's verdict.
	Key       *string `json:"key"`
	Assertion *string `json:"assertion"`
	Note      bool    `json:"note,omitempty"`
}

// WriteJSON writes the JSON report, indented, with a final newline.
func WriteJSON(w io.Writer, r *Report) error {
	out := jsonReport{
		Version: 1,
		Tool:    jsonTool{Name: r.Tool.Name, Version: r.Tool.Version},
		Scope: jsonScope{Mode: r.Scope.Mode, Base: optString(r.Scope.Base), Files: nonNil(r.Scope.Files),
			Baseline: r.Baseline},
		Summary: jsonSummary{
			Pass: r.Summary.Pass, Fail: r.Summary.Fail, Error: r.Summary.Error,
			Skip: r.Summary.Skip, Pending: r.Summary.Pending, Blocking: r.Summary.Blocking,
			Baselined: r.Summary.Baselined, Weights: jsonWeights(r.Summary.Weights),
		},
		Suites:  make([]jsonSuite, 0, len(r.Suites)),
		Results: []jsonResult{},
		Notices: nonNil(r.Notices),
	}
	if sh := r.Scope.Shard; sh != nil {
		out.Scope.Shard = &jsonShard{Index: sh.Index, Count: sh.Count}
	}
	if c := r.Scope.Config; c != nil {
		out.Scope.Config = &jsonConfig{File: c.File, SHA256: c.SHA256}
	}
	if r.Summary.Score != nil {
		s := roundScore(*r.Summary.Score)
		out.Summary.Score = &s
	}
	for _, s := range r.Suites {
		js := jsonSuite{Name: s.Name, Score: roundScore(s.Score), Target: s.Target, Met: s.Met, Partial: s.Partial,
			Weights: jsonWeights(s.Weights)}
		js.Line, js.Column = optPos(s.Pos)
		out.Suites = append(out.Suites, js)
	}
	return writeReportJSON(w, out, &r.Results)
}

// writeReportJSON writes out with results as its results, one result at a time: the encoded report
// is never held whole, only one result's JSON (README "Results, outcomes and blocking"). The bytes
// are those of encoding out with every result in it, indented.
func writeReportJSON(w io.Writer, out jsonReport, results *Results) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	head, err := indentedJSON(out, "")
	if err != nil {
		return err
	}
	// head ends `"results": [],\n  "notices": ...\n}\n`: the results go between the brackets.
	at := bytes.LastIndex(head, []byte(`"results": []`))
	if at < 0 {
		return fmt.Errorf("report: no results in the encoded report")
	}
	at += len(`"results": [`)
	bw.Write(guardJSON(head[:at]))
	first := true
	var one []byte
	for res := range results.All() {
		sep := ",\n    "
		if first {
			sep, first = "\n    ", false
		}
		var err error
		if one, err = appendResultJSON(one[:0], res); err != nil {
			return err
		}
		bw.WriteString(sep)
		bw.Write(one) // guarded as it was written
	}
	if err := results.Err(); err != nil {
		return err
	}
	if !first {
		bw.WriteString("\n  ")
	}
	bw.Write(guardJSON(head[at:]))
	return bw.Flush()
}

// indentedJSON is v encoded as writeIndentedJSON does, each line after the first starting with prefix.
func indentedJSON(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	err := enc.Encode(v)
	return buf.Bytes(), err
}

func toJSONResult(r *diag.Result) jsonResult {
	j := jsonResult{
		Source:     r.Source.String(),
		File:       r.File,
		Check:      r.Check,
		CaseID:     optString(r.CaseID),
		Grader:     optString(r.Grader),
		Type:       optString(r.Type),
		Outcome:    string(r.Outcome),
		Severity:   r.Severity.String(),
		Blocking:   r.Blocking,
		Baselined:  r.Baselined,
		Code:       r.Code,
		Message:    r.Message,
		DurationMS: r.DurationMS,
		Evidence:   r.Evidence,
		Key:        optString(r.Key),
		Assertion:  optString(r.Assertion),
		Note:       r.Verdictless,
	}
	if j.Evidence == nil {
		j.Evidence = map[string]any{}
	}
	j.Line, j.Column = optPos(r.Pos)
	if r.Weight > 0 {
		w := r.Weight
		j.Weight = &w
	}
	return j
}

// optPos is a position's line and column, each nil when unknown.
func optPos(p diag.Pos) (line, col *int) {
	if p.Line > 0 {
		l := p.Line
		line = &l
		if p.Col > 0 {
			c := p.Col
			col = &c
		}
	}
	return line, col
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// roundScore rounds to four decimals so reports do not show float noise.
func roundScore(f float64) float64 {
	return math.Round(f*10000) / 10000
}

// writeIndentedJSON writes v as indented JSON, HTML characters as they are, with the escapes of guardJSON
// (README "Results, outcomes and blocking": nothing in it can act as a workflow command).
func writeIndentedJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(guardJSON(buf.Bytes()))
	return err
}
