package report

import (
	"bytes"
	"encoding/json"
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
}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type jsonScope struct {
	Mode  string   `json:"mode"`
	Base  *string  `json:"base"`
	Files []string `json:"files"`
}

type jsonSummary struct {
	Pass      int      `json:"pass"`
	Fail      int      `json:"fail"`
	Error     int      `json:"error"`
	Skip      int      `json:"skip"`
	Pending   int      `json:"pending"`
	Blocking  int      `json:"blocking"`
	Baselined int      `json:"baselined"`
	Score     *float64 `json:"score"`
}

type jsonSuite struct {
	Name    string  `json:"name"`
	Score   float64 `json:"score"`
	Target  float64 `json:"target"`
	Met     bool    `json:"met"`
	Partial bool    `json:"partial"`
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
}

// WriteJSON writes the JSON report, indented, with a final newline.
func WriteJSON(w io.Writer, r *Report) error {
	out := jsonReport{
		Version: 1,
		Tool:    jsonTool{Name: r.Tool.Name, Version: r.Tool.Version},
		Scope:   jsonScope{Mode: r.Scope.Mode, Base: optString(r.Scope.Base), Files: nonNil(r.Scope.Files)},
		Summary: jsonSummary{
			Pass: r.Summary.Pass, Fail: r.Summary.Fail, Error: r.Summary.Error,
			Skip: r.Summary.Skip, Pending: r.Summary.Pending, Blocking: r.Summary.Blocking,
			Baselined: r.Summary.Baselined,
		},
		Suites:  make([]jsonSuite, 0, len(r.Suites)),
		Results: make([]jsonResult, 0, len(r.Results)),
	}
	if r.Summary.Score != nil {
		s := roundScore(*r.Summary.Score)
		out.Summary.Score = &s
	}
	for _, s := range r.Suites {
		out.Suites = append(out.Suites, jsonSuite{
			Name: s.Name, Score: roundScore(s.Score), Target: s.Target, Met: s.Met, Partial: s.Partial,
		})
	}
	for i := range r.Results {
		out.Results = append(out.Results, toJSONResult(&r.Results[i]))
	}
	return writeIndentedJSON(w, out)
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
	}
	if j.Evidence == nil {
		j.Evidence = map[string]any{}
	}
	if r.Pos.Line > 0 {
		line := r.Pos.Line
		j.Line = &line
		if r.Pos.Col > 0 {
			col := r.Pos.Col
			j.Column = &col
		}
	}
	if r.Weight > 0 {
		w := r.Weight
		j.Weight = &w
	}
	return j
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
