// Package review is the file of human reviews (README "Human reviews"): one JSON record a line, each the
// verdict a person gave one eval of one page, with the hash of what they reviewed, so that a review goes
// stale when the page or the eval changes. It reads and writes the file; what the hash covers is the
// caller's.
package review

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/shape"
)

// Name is the reviews file when the config names none.
const Name = ".evalgate/reviews.jsonl"

// MaxSize bounds the file evalgate reads: 64 MiB.
const MaxSize = 64 << 20

// Record is one review.
type Record struct {
	File    string `json:"file"`    // the page, repository-relative
	Eval    string `json:"eval"`    // the eval's id
	Verdict string `json:"verdict"` // pass or fail
	By      string `json:"by"`
	At      string `json:"at"` // RFC 3339, UTC
	Note    string `json:"note"`
	SHA256  string `json:"sha256"` // of the eval's resolved definition and its target bytes
	Line    int    `json:"-"`      // where it was read
}

var recordShape = &shape.Object{Name: "a review", Fields: []shape.Field{
	{Name: "file", Type: shape.NonEmptyString, Required: true},
	{Name: "eval", Type: shape.NonEmptyString, Required: true},
	{Name: "verdict", Type: &shape.Type{Kind: shape.String, Enum: []string{"pass", "fail"}}, Required: true},
	{Name: "by", Type: &shape.Type{Kind: shape.String}},
	{Name: "at", Type: &shape.Type{Kind: shape.String}},
	{Name: "note", Type: &shape.Type{Kind: shape.String}},
	{Name: "sha256", Type: &shape.Type{Kind: shape.String, Pattern: shape.NewPattern(`^[0-9a-f]{64}$`, "64 lowercase hex digits", "")}, Required: true},
}}

// Parse reads a reviews file: blank lines are skipped, every other line is one record. A line with a
// fault is left out, its faults positioned; the other records still count.
func Parse(text []byte) ([]Record, []diag.Problem) {
	var out []Record
	var problems diag.FileProblems
	line := 0
	for raw := range bytes.Lines(text) {
		line++
		raw = bytes.TrimRight(raw, "\r\n")
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		n, ps := frontmatter.ParseJSON(raw, line)
		if len(ps) > 0 {
			problems.Add(ps...)
			continue
		}
		var k shape.Checker
		if !k.Value(n, &shape.Type{Kind: shape.Map, Object: recordShape}, "") || k.Faults() > 0 {
			problems.Add(k.Problems()...)
			continue
		}
		text := func(key string) string {
			if e := n.Get(key); e != nil {
				return e.Value.Text
			}
			return ""
		}
		out = append(out, Record{File: text("file"), Eval: text("eval"), Verdict: text("verdict"), By: text("by"),
			At: text("at"), Note: text("note"), SHA256: text("sha256"), Line: line})
	}
	return out, problems.List()
}

// Index is the reviews by page and eval: the last record of each pair in the file.
func Index(records []Record) map[[2]string]Record {
	ix := make(map[[2]string]Record, len(records))
	for _, r := range records {
		ix[[2]string{r.File, r.Eval}] = r
	}
	return ix
}

// Add returns records with r in the place of any record of the same page and eval, sorted by file and
// eval, so that branches that review different evals merge without a conflict.
func Add(records []Record, r Record) []Record {
	out := slices.DeleteFunc(slices.Clone(records), func(x Record) bool { return x.File == r.File && x.Eval == r.Eval })
	out = append(out, r)
	slices.SortStableFunc(out, func(a, b Record) int { return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Eval, b.Eval)) })
	return out
}

// Marshal is the file's text: one record a line, keys in the format's order, no HTML escaping.
func Marshal(records []Record) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, r := range records {
		if err := enc.Encode(r); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}
