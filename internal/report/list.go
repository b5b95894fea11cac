package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
)

// Listing is what `evalgate list` shows (README "evalgate list"): the
// selected pages with their resolved evals, then the selected EvalCase
// fixtures and jevcheck contracts with their case counts, each group sorted
// by path.
type Listing struct {
	Pages     []ListedPage
	Fixtures  []ListedFile
	Contracts []ListedFile
}

// ListedPage is one selected page.
type ListedPage struct {
	File     string
	HasEvals bool   // the frontmatter has an evals or eval-* key, or a suite applies by path
	Suite    string // eval-suite, when it names a suite of the config
	// ByPath are the suites that apply to the page by path, in config order.
	ByPath []string
	Skip   bool // eval-skip: true
	// Faults counts the page's definition faults, which leave entries out
	// of Evals; `evalgate validate` shows them.
	Faults int
	Evals  []ListedEval // the resolved plan, in plan order
}

// Where a listed eval comes from.
const (
	FromPage   = "page"       // an entry written on the page
	FromSuite  = "eval-suite" // an eval of the page's suite
	FromByPath = "suite"      // an eval of a suite that applies to the page by path
	FromUse    = "use"        // a use: entry naming an eval of the config
)

// ListedEval is one resolved eval of a page.
type ListedEval struct {
	ID     string
	Grader string
	From   string   // FromPage, FromSuite, FromByPath or FromUse
	Name   string   // the suite (FromSuite, FromByPath) or the named eval (FromUse); "" for FromPage
	Pos    diag.Pos // the entry on the page (a suite's eval: the eval-suite key; by path: line 1)
	Skip   bool     // skip: true
}

// ListedFile is one EvalCase fixture or jevcheck contract.
type ListedFile struct {
	File string
	// Cases is the number of cases: a fixture's non-blank lines, a valid
	// contract's cases; 0 when the file has faults.
	Cases int
	// Faults counts what keeps the file from being read or, for a
	// contract, from being valid; `evalgate validate` shows them.
	Faults  int
	Answers string // a contract's replay, "" when none
	From    string // a contract's baseline replay (compare), "" when none
}

// WriteListText writes the listing as plain text: one block per file, a
// header line and, for a page, one indented line per eval (id, grader and
// where it comes from: page, eval-suite NAME or use: NAME, in columns), then
// one summary line. Every line is
// escaped by Line.
func WriteListText(w io.Writer, l *Listing) error {
	bw := bufio.NewWriter(w)
	line := func(s string) {
		bw.WriteString(Line(s))
		bw.WriteByte('\n')
	}
	evals, withEvals := 0, 0
	for _, p := range l.Pages {
		line(pageHeader(p))
		if p.HasEvals {
			withEvals++
		}
		evals += len(p.Evals)
		wID, wGrader := 0, 0
		for _, ev := range p.Evals {
			wID = max(wID, len([]rune(OneLine(ev.ID))))
			wGrader = max(wGrader, len([]rune(OneLine(ev.Grader))))
		}
		for _, ev := range p.Evals {
			from := ev.From
			switch {
			case ev.From == FromUse:
				from = "use: " + OneLine(ev.Name)
			case ev.Name != "":
				from += " " + OneLine(ev.Name)
			}
			if ev.Skip {
				from += " (skip: true)"
			}
			line(fmt.Sprintf("  %s  %s  %s", pad(OneLine(ev.ID), wID), pad(OneLine(ev.Grader), wGrader), from))
		}
	}
	cases := [2]int{}
	for i, group := range [][]ListedFile{l.Fixtures, l.Contracts} {
		kind := [2]string{"EvalCase fixture", "jevcheck contract"}[i]
		for _, f := range group {
			cases[i] += f.Cases
			line(fileHeader(kind, f))
		}
	}
	line(fmt.Sprintf("evalgate: %s (%d with evals), %s; %s, %s; %s, %s",
		count(len(l.Pages), "page"), withEvals, count(evals, "eval"),
		count(len(l.Fixtures), "fixture"), count(cases[0], "case"),
		count(len(l.Contracts), "contract"), count(cases[1], "case")))
	return bw.Flush()
}

func pageHeader(p ListedPage) string {
	var parts []string
	switch {
	case !p.HasEvals:
		parts = append(parts, "no evals")
	default:
		parts = append(parts, count(len(p.Evals), "eval"))
	}
	if p.Suite != "" {
		parts = append(parts, "eval-suite "+OneLine(p.Suite))
	}
	for _, s := range p.ByPath {
		parts = append(parts, "suite "+OneLine(s)+" by path")
	}
	if p.Skip {
		parts = append(parts, "eval-skip: true")
	}
	if p.Faults > 0 {
		parts = append(parts, count(p.Faults, "definition fault")+" (see evalgate validate)")
	}
	return OneLine(p.File) + ": " + strings.Join(parts, ", ")
}

func fileHeader(kind string, f ListedFile) string {
	parts := []string{kind}
	if f.Faults > 0 {
		parts = append(parts, count(f.Faults, "fault")+" (see evalgate validate)")
	} else {
		parts = append(parts, count(f.Cases, "case"))
	}
	if f.Answers != "" {
		parts = append(parts, "answers "+OneLine(f.Answers))
	}
	if f.From != "" {
		parts = append(parts, "from "+OneLine(f.From))
	}
	return OneLine(f.File) + ": " + strings.Join(parts, ", ")
}

// count is "1 page", "2 pages".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// pad pads s with spaces to width code points.
func pad(s string, width int) string {
	if n := len([]rune(s)); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

// The JSON listing, version 1: field order is struct order; absent values
// are null, lists are never null.
type jsonListing struct {
	Version   int            `json:"version"`
	Pages     []jsonListPage `json:"pages"`
	Fixtures  []jsonListFile `json:"fixtures"`
	Contracts []jsonListFile `json:"contracts"`
}

type jsonListPage struct {
	File     string         `json:"file"`
	HasEvals bool           `json:"has_evals"`
	Suite    *string        `json:"suite"`
	ByPath   []string       `json:"suites_by_path"`
	Skip     bool           `json:"skip"`
	Faults   int            `json:"faults"`
	Evals    []jsonListEval `json:"evals"`
}

type jsonListEval struct {
	ID     string  `json:"id"`
	Grader string  `json:"grader"`
	From   string  `json:"from"`
	Name   *string `json:"name"`
	Line   *int    `json:"line"`
	Column *int    `json:"column"`
	Skip   bool    `json:"skip"`
}

type jsonListFile struct {
	File    string  `json:"file"`
	Cases   int     `json:"cases"`
	Faults  int     `json:"faults"`
	Answers *string `json:"answers"`
	From    *string `json:"from"`
}

// WriteListJSON writes the listing as indented JSON with a final newline,
// escaped as the JSON report is.
func WriteListJSON(w io.Writer, l *Listing) error {
	out := jsonListing{
		Version:   1,
		Pages:     make([]jsonListPage, 0, len(l.Pages)),
		Fixtures:  listFiles(l.Fixtures),
		Contracts: listFiles(l.Contracts),
	}
	for _, p := range l.Pages {
		jp := jsonListPage{File: p.File, HasEvals: p.HasEvals, Suite: optString(p.Suite), ByPath: append([]string{}, p.ByPath...), Skip: p.Skip,
			Faults: p.Faults, Evals: make([]jsonListEval, 0, len(p.Evals))}
		for _, ev := range p.Evals {
			je := jsonListEval{ID: ev.ID, Grader: ev.Grader, From: ev.From, Name: optString(ev.Name), Skip: ev.Skip}
			if ev.Pos.Known() {
				je.Line = &ev.Pos.Line
				if ev.Pos.Col > 0 {
					je.Column = &ev.Pos.Col
				}
			}
			jp.Evals = append(jp.Evals, je)
		}
		out.Pages = append(out.Pages, jp)
	}
	return writeIndentedJSON(w, out)
}

func listFiles(files []ListedFile) []jsonListFile {
	out := make([]jsonListFile, 0, len(files))
	for _, f := range files {
		out = append(out, jsonListFile{File: f.File, Cases: f.Cases, Faults: f.Faults,
			Answers: optString(f.Answers), From: optString(f.From)})
	}
	return out
}
