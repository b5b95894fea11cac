package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

// Limits of the job summary. GitHub refuses a step summary larger than 1 MiB
// (1,048,576 bytes): it shows none of it and an error annotation instead. So
// the summary stops well short of that and says how many rows it left out.
const (
	// summaryLimit is the most bytes WriteJobSummary writes.
	summaryLimit = 1_000_000
	// cellRunes caps one table cell, counted in code points after OneLine;
	// longer text ends in "…" (the full text is in the log and the reports).
	cellRunes = 300
	// noticeRunes caps one notice of the summary the same way.
	noticeRunes = 1000
)

// WriteJobSummary writes the Markdown job summary of r (README "SARIF, JUnit and the GitHub format"): the
// totals and score, the scope, what the run saw, the notices, the suites, the
// fail and error results, the pending queue and the skips. Text that comes
// from pages, fixtures, graders or paths is escaped with markdownText, so it
// renders as the text it is and never breaks a table. The whole summary stays under
// summaryLimit bytes: the sections share what the header leaves (shareBudget)
// and a table that does not fit its share ends in an "… and N more" row.
func WriteJobSummary(w io.Writer, r *Report) error {
	var b strings.Builder
	writeSummaryHeader(&b, r)

	var secs []section
	if len(r.Notices) > 0 {
		secs = append(secs, noticeSection(r.Notices))
	}
	if len(r.Suites) > 0 {
		secs = append(secs, suiteSection(r.Suites))
	}
	// The tables hold rendered rows, only as many as could fit (rowsUpTo), so the summary of a
	// million results holds a megabyte of rows at most per table.
	var blocking, failed, judged, pending, skipped rowsUpTo
	for res := range r.Results.All() {
		switch res.Outcome {
		case diag.Fail, diag.Error:
			if res.Blocking {
				blocking.add(res, failureRow)
			} else {
				failed.add(res, failureRow)
			}
		case diag.Pending:
			pending.add(res, pendingRow)
		case diag.Skip:
			skipped.add(res, skipRow)
		}
		if isJudged(res) {
			judged.add(res, judgeRow)
		}
	}
	if err := r.Results.Err(); err != nil {
		return err
	}
	// Failures: the blocking ones first (in report order within each group), so a cut table still
	// shows why the gate failed.
	if n := blocking.n + failed.n; n > 0 {
		secs = append(secs, tableSection("Failures", "| location | level | check | code | message | blocking |\n"+
			"| --- | --- | --- | --- | --- | --- |\n", blocking.then(failed), 6))
	}
	if judged.n > 0 {
		secs = append(secs, tableSection("Judge verdicts",
			"| location | check | code | votes | reasoning | quotes |\n| --- | --- | --- | --- | --- | --- |\n", judged, 6))
	}
	if pending.n > 0 {
		secs = append(secs, tableSection("Pending",
			"| location | check | grader | assertion | to review it |\n| --- | --- | --- | --- | --- |\n", pending, 5))
	}
	if skipped.n > 0 {
		secs = append(secs, tableSection("Skipped", "| location | check | code | reason |\n| --- | --- | --- | --- |\n", skipped, 4))
	}
	footer := "\n" + markdownText(r.Tool.Name+" "+r.Tool.Version, cellRunes) + "\n"
	budgets := shareBudget(secs, summaryLimit-b.Len()-len(footer))
	for i, sec := range secs {
		sec.write(&b, budgets[i])
	}
	b.WriteString(footer)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSummaryHeader writes the heading, the totals, the score, the scope,
// what the run saw and the SARIF note: a few kilobytes at most, as every
// page-derived part is capped.
func writeSummaryHeader(b *strings.Builder, r *Report) {
	// Every block after the heading starts with a blank line.
	sm := r.Summary
	name := markdownText(r.Tool.Name, cellRunes)
	if name == "" {
		name = "evalgate"
	}
	switch sm.Blocking {
	case 0:
		fmt.Fprintf(b, "## %s: passed\n", name)
	case 1:
		fmt.Fprintf(b, "## %s: 1 blocking result\n", name)
	default:
		fmt.Fprintf(b, "## %s: %d blocking results\n", name, sm.Blocking)
	}
	score := "n/a" // `validate` grades nothing, so it has no score
	if sm.Score != nil {
		score = FormatScore(*sm.Score)
	}
	b.WriteString("\n| pass | fail | error | skip | pending | blocking | score |\n")
	b.WriteString("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	fmt.Fprintf(b, "| %d | %d | %d | %d | %d | %d | %s |\n",
		sm.Pass, sm.Fail, sm.Error, sm.Skip, sm.Pending, sm.Blocking, score)
	if r.Baseline {
		fmt.Fprintf(b, "\n%s accepted by the baseline of known failures (not blocking).\n",
			plural(sm.Baselined, "fail", "fails"))
	}

	files := plural(len(r.Scope.Files), "file", "files")
	switch r.Scope.Mode {
	case ScopeChanged:
		base := "the base"
		if r.Scope.Base != "" {
			base = markdownText(r.Scope.Base, cellRunes)
		}
		fmt.Fprintf(b, "\nScope: **changed** since %s, %s checked. ", base, files)
		// README "Results, outcomes and blocking": suites seen in part never block, and
		// a partial scan must not be read as fixing the files it skipped.
		b.WriteString("This run saw only part of the repository: files outside the change were not checked, " +
			"and suites it saw in part are partial and never block.\n")
	case ScopePaths:
		fmt.Fprintf(b, "\nScope: **paths** given on the command line, %s checked.\n", files)
	default:
		fmt.Fprintf(b, "\nScope: **%s**, %s checked.\n", markdownText(r.Scope.Mode, cellRunes), files)
	}
	if r.Seen.Unknown {
		b.WriteString("\nSeen: each shard's own job summary says what it saw.\n")
	} else {
		fmt.Fprintf(b, "\nSeen: %s.\n", seenText(r.Seen)) // numbers only (README "On a terminal")
	}
	if n := SARIFDropped(r); n > 0 {
		verb := "are"
		if n == 1 {
			verb = "is"
		}
		fmt.Fprintf(b, "\nThe SARIF file holds at most %d results: %s of the lowest severities %s left out of it.\n",
			sarifMaxResults, plural(n, "result", "results"), verb)
	}
}

// section is one heading with a table (or list) of n rows.
type section struct {
	heading string
	head    string // the table header lines, or "" for a list
	n       int
	row     func(i int) string // row i, with its newline
	more    func(n int) string // the row saying n rows are left out
}

// title is the section's heading and table header.
func (sec section) title() string {
	return fmt.Sprintf("\n### %s (%d)\n\n", sec.heading, sec.n) + sec.head
}

// size is how many bytes sec takes in full, counted no further than limit.
func (sec section) size(limit int) int {
	n := len(sec.title())
	for i := 0; i < sec.n && n <= limit; i++ {
		n += len(sec.row(i))
	}
	return n
}

// write writes sec in at most budget bytes, which must hold its title and
// one "more" row: when the rows do not all fit, those that would cross the
// budget are replaced by one "… and N more" row.
func (sec section) write(b *strings.Builder, budget int) {
	title := sec.title()
	b.WriteString(title)
	full := sec.size(budget) <= budget
	used := len(title)
	for i := range sec.n {
		row := sec.row(i)
		// Row i goes in only if the "more" row for the rows after it
		// would still fit.
		more := ""
		if !full && i < sec.n-1 {
			more = sec.more(sec.n - i - 1)
		}
		if !full && used+len(row)+len(more) > budget {
			b.WriteString(sec.more(sec.n - i))
			return
		}
		b.WriteString(row)
		used += len(row)
	}
}

// shareBudget splits avail bytes between secs fairly: a section that needs
// less than an equal share gets what it needs, and what is left is shared
// equally among the others (sections are served from the smallest up). So a
// flood of notices or suites cannot crowd out the failures, nor the other
// way round.
func shareBudget(secs []section, avail int) []int {
	sizes := make([]int, len(secs))
	order := make([]int, len(secs))
	for i, sec := range secs {
		sizes[i] = sec.size(avail)
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(sizes[a], sizes[b]) })
	budgets := make([]int, len(secs))
	for k, i := range order {
		budgets[i] = min(sizes[i], avail/(len(secs)-k))
		avail -= budgets[i]
	}
	return budgets
}

func noticeSection(notices []string) section {
	return section{
		heading: "Notices",
		n:       len(notices),
		row:     func(i int) string { return "- " + markdownText(noticeText(notices[i]), noticeRunes) + "\n" },
		more:    func(n int) string { return fmt.Sprintf("- … and %d more\n", n) },
	}
}

func suiteSection(suites []Suite) section {
	return section{
		heading: "Suites",
		head:    "| suite | score | target | state |\n| --- | ---: | ---: | --- |\n",
		n:       len(suites),
		row: func(i int) string {
			su := suites[i]
			state := "met"
			switch {
			case su.Partial:
				state = "partial (seen in part; never blocks)"
			case !su.Met:
				state = "below target"
			}
			return tableRow(markdownText(su.Name, cellRunes), FormatScore(su.Score), FormatScore(su.Target), state)
		},
		more: moreRow(4),
	}
}

// rowsUpTo keeps a table's rendered rows while they fit in a summary, and counts them all: a
// section asks for no row past summaryLimit bytes of rows (section.size and write stop there).
type rowsUpTo struct {
	rows  []string
	bytes int
	n     int
}

func (t *rowsUpTo) add(res *diag.Result, row func(*diag.Result) string) {
	t.n++
	if t.bytes <= summaryLimit && t.n == len(t.rows)+1 {
		r := row(res)
		t.rows = append(t.rows, r)
		t.bytes += len(r)
	}
}

// then is t's rows followed by u's.
func (t rowsUpTo) then(u rowsUpTo) rowsUpTo {
	out := rowsUpTo{n: t.n + u.n, bytes: t.bytes, rows: t.rows}
	if len(t.rows) == t.n { // all of t's rows are kept: u's follow them
		out.rows = append(slices.Clip(t.rows), u.rows...)
		out.bytes += u.bytes
	}
	return out
}

// tableSection is a table of rendered rows with cols columns.
func tableSection(heading, head string, t rowsUpTo, cols int) section {
	return section{
		heading: heading,
		head:    head,
		n:       t.n,
		row: func(i int) string {
			if i < len(t.rows) {
				return t.rows[i]
			}
			return "" // never asked for: the rows kept run past any budget
		},
		more: moreRow(cols),
	}
}

func failureRow(res *diag.Result) string {
	level := "error" // an error outcome: the grader reached no verdict
	if res.Outcome == diag.Fail {
		level = res.Severity.String()
	}
	blocking := "no"
	if res.Blocking {
		blocking = "yes"
	}
	return tableRow(markdownText(res.Location(), cellRunes), level, markdownText(res.Check, cellRunes),
		markdownText(res.Code, cellRunes), markdownText(res.Message, cellRunes), blocking)
}

// pendingRow is a row of the queue of evals waiting for a human, a judge or command generation:
// what a reviewer has to look at, with the command that records a review of a human eval (README
// "Human reviews").
func pendingRow(res *diag.Result) string {
	what := res.Assertion
	if what == "" {
		what = res.Message
	}
	record := ""
	if reviewable(res) {
		page := res.File
		if strings.HasPrefix(page, "-") {
			page = "./" + page // not a flag: "-root.md" was taken for one
		}
		record = "evalgate review " + shellWord(page) + " " + shellWord(res.Check) + " --pass (or --fail)"
	}
	return tableRow(markdownText(res.Location(), cellRunes), markdownText(res.Check, cellRunes),
		markdownText(res.Grader, cellRunes), markdownText(what, cellRunes), markdownText(record, cellRunes))
}

// reviewable says a pending result is one a recorded review decides (README "Human reviews"): a
// human eval, or an ai eval whose judge's runs did not agree.
func reviewable(res *diag.Result) bool {
	switch {
	case res.Source != diag.SourcePage:
		return false
	case res.Grader == "human":
		return true
	}
	return res.Grader == "ai" && (res.Code == "judge_split" || res.Code == "judge_incomplete" || res.Code == "review_stale")
}

// isJudged says a judge decided res or left it split: its evidence holds the runs.
func isJudged(res *diag.Result) bool {
	_, ok := res.Evidence["run_details"].([]any)
	return res.Grader == "ai" && ok
}

// judgeRow shows a judged eval's verdict with the votes, the reasoning and the quotes it relied on
// (README "The AI judge"): the run whose verdict is the outcome's, else the first.
func judgeRow(res *diag.Result) string {
	runs, _ := res.Evidence["run_details"].([]any)
	votes, _ := res.Evidence["votes"].(map[string]any)
	var shown map[string]any
	for _, r := range runs {
		d, _ := r.(map[string]any)
		v, _ := d["verdict"].(string)
		if v == "" {
			continue
		}
		if shown == nil {
			shown = d
		}
		if res.Outcome == diag.Pass && v == "pass" || res.Outcome == diag.Fail && v != "pass" {
			shown = d
			break
		}
	}
	reasoning, _ := shown["reasoning"].(string)
	raw, _ := shown["quotes"].([]any)
	quotes := make([]string, 0, len(raw))
	for _, q := range raw {
		if q, ok := q.(string); ok {
			quotes = append(quotes, "“"+q+"”")
		}
	}
	return tableRow(markdownText(res.Location(), cellRunes), markdownText(res.Check, cellRunes),
		markdownText(res.Code, cellRunes), fmt.Sprintf("%v pass, %v fail of %d", votes["pass"], votes["fail"], len(runs)),
		markdownText(reasoning, cellRunes), markdownText(strings.Join(quotes, " "), cellRunes))
}

// shellWord quotes s for a POSIX shell when it needs it: a path with a
// space or a quote still pastes as one argument. A name OneLine would escape
// (a control character, a line break, a bidi or zero-width character, an
// invalid byte) is written in bash's $'...' with those escapes, so that the
// command still names the file, which the summary cannot show raw.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-") == "" {
		return s
	}
	if OneLine(s) == s {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1 || r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case OneLine(string(r)) != string(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteString("'")
	return b.String()
}

func skipRow(res *diag.Result) string {
	return tableRow(markdownText(res.Location(), cellRunes), markdownText(res.Check, cellRunes),
		markdownText(res.Code, cellRunes), markdownText(res.Message, cellRunes))
}

// tableRow joins cells that are already escaped.
func tableRow(cells ...string) string {
	return "| " + strings.Join(cells, " | ") + " |\n"
}

// moreRow returns the "… and N more" row of a table with cols columns.
func moreRow(cols int) func(int) string {
	return func(n int) string {
		cells := make([]string, cols)
		cells[0] = fmt.Sprintf("… and %d more", n)
		return tableRow(cells...)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// markdownEscaper backslash-escapes the ASCII punctuation that GitHub
// Flavored Markdown would read as markup in running text or a table cell
// (CommonMark lets any ASCII punctuation be escaped), and writes &, < and >
// as entities so no HTML or autolink can be formed. "#" and "[" are escaped
// too, so no "##[" survives for the runner's legacy command parser. GFM's
// extended autolinks need no brackets: a bare https://host, www.host or
// name@host in page text became a live link in the job summary. Their
// marks are written as entities, which the autolinker does not read as
// those characters: "://", "www." and "@".
var markdownEscaper = strings.NewReplacer(
	"://", "&#58;//",
	"www.", "www&#46;",
	"@", "&#64;",
	`\`, `\\`,
	"|", `\|`,
	"`", "\\`",
	"*", `\*`,
	"_", `\_`,
	"~", `\~`,
	"[", `\[`,
	"]", `\]`,
	"#", `\#`,
	"$", `\$`, // GitHub renders $…$ as math
	"&", "&amp;",
	"<", "&lt;",
	">", "&gt;",
)

// markdownText makes s safe inline Markdown for a table cell or a list item:
// OneLine first (so it holds no line break), then cut to at most limit code
// points (ending in "…"; limit <= 0 means no cut), then markup escaped. The
// cut comes before the escaping, so it never splits an escape.
func markdownText(s string, limit int) string {
	s = OneLine(s)
	if limit > 0 && utf8.RuneCountInString(s) > limit {
		n := 0
		for i := range s {
			if n == limit-1 {
				s = s[:i] + "…"
				break
			}
			n++
		}
	}
	return markdownEscaper.Replace(s)
}
