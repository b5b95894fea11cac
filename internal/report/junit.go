package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
)

// The JUnit XML report (README "SARIF, JUnit and the GitHub format"), in the shape CI test reporters read:
// <testsuites> holds a <testsuite> per file, which holds a <testcase> per
// result. Field order is attribute and element order.
type junitCase struct {
	XMLName   xml.Name      `xml:"testcase"`
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
	Skipped   *junitSkipped `xml:"skipped"`
}

// junitProblem is a <failure> or an <error>: message and type as attributes,
// the details as text.
type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// junitCounts are what a <testsuites> and a <testsuite> say of themselves:
// a name, their cases by outcome, a time.
type junitCounts struct {
	Name     string `xml:"name,attr"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Time     string `xml:"time,attr"`
}

// junitFile is a file's counts, as the first reading of WriteJUnit keeps them.
type junitFile struct {
	tests, failures, errors, skipped int32
	ms                               int64 // its evals' durations
}

func (f *junitFile) add(r *diag.Result) {
	var c junitCounts
	c.add(r)
	f.tests += int32(c.Tests)
	f.failures += int32(c.Failures)
	f.errors += int32(c.Errors)
	f.skipped += int32(c.Skipped)
}

// counts are f's counts as the <testsuite> of the file name carries them.
func (f *junitFile) counts(name string) junitCounts {
	return junitCounts{Name: name, Tests: int(f.tests), Failures: int(f.failures), Errors: int(f.errors),
		Skipped: int(f.skipped), Time: junitSeconds(f.ms)}
}

func (c *junitCounts) add(r *diag.Result) {
	c.Tests++
	switch r.Outcome {
	case diag.Fail:
		if r.Baselined {
			c.Skipped++ // written as <skipped>, so counted as one
			break
		}
		c.Failures++
	case diag.Error:
		c.Errors++
	case diag.Skip, diag.Pending:
		c.Skipped++
	}
}

// WriteJUnit writes r as JUnit XML: a <testsuite> per file, in report order (by source, then file
// bytewise), a <testcase> per result in report order. A fail is a <failure>, an error an <error>, a
// skip or pending result <skipped> with its reason; passes are plain testcases. Every count matches
// the testcases. Times (README "SARIF, JUnit and the GitHub format"): the testsuites time is the
// run's wall time (r.Duration), a testcase's its eval's own duration, a file's testsuite the sum of
// its evals' durations (each eval once).
//
// Text from pages, fixtures and graders goes through OneLine and guardLine,
// as in the text report: XML 1.0 cannot hold most C0 controls at all, invalid
// UTF-8 stays readable as \xNN, and a CI tool that prints a name or message
// to the Actions log prints no workflow command. The output depends only on
// r: times come from r.Duration and DurationMS, and there is no timestamp.
//
// It reads the results twice and holds one testcase at a time: once for each file's counts, which
// its <testsuite> tag carries, then to write them.
func WriteJUnit(w io.Writer, r *Report) error {
	total := junitCounts{Name: "evalgate", Time: junitSeconds(max(0, r.Duration.Milliseconds()))}
	// Each file's counts, in report order, without its name (the second reading has it): a run of a
	// million files holds these few words each (README "Memory").
	var suites []junitFile
	var file string
	evals := map[string]int64{} // the file's evals' durations, each eval once
	closeSuite := func() {
		if len(suites) > 0 {
			for _, d := range evals {
				suites[len(suites)-1].ms += d
			}
		}
		clear(evals)
	}
	for res := range r.Results.Brief() {
		if len(suites) == 0 || res.File != file {
			closeSuite()
			suites, file = append(suites, junitFile{}), res.File
		}
		suites[len(suites)-1].add(res)
		total.add(res)
		evals[res.Check] = max(evals[res.Check], res.DurationMS)
	}
	closeSuite()
	if err := r.Results.Err(); err != nil {
		return err
	}

	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(xml.Header)
	enc := xml.NewEncoder(bw)
	enc.Indent("", "  ")
	if err := enc.EncodeToken(junitStart("testsuites", total)); err != nil {
		return err
	}
	next := 0 // the suite of the file being written, plus one
	for res := range r.Results.All() {
		if next == 0 || res.File != file {
			if next > 0 {
				if err := enc.EncodeToken(xml.EndElement{Name: xml.Name{Local: "testsuite"}}); err != nil {
					return err
				}
			}
			file = res.File
			if next == len(suites) {
				return fmt.Errorf("report: the results changed between two readings") // a file the first did not see
			}
			suite := suites[next].counts(junitText(file))
			if err := enc.EncodeToken(junitStart("testsuite", suite)); err != nil {
				return err
			}
			next++
		}
		if err := enc.Encode(junitTestCase(res)); err != nil {
			return err
		}
	}
	if err := r.Results.Err(); err != nil {
		return err
	}
	if next > 0 {
		if err := enc.EncodeToken(xml.EndElement{Name: xml.Name{Local: "testsuite"}}); err != nil {
			return err
		}
	}
	if err := enc.EncodeToken(xml.EndElement{Name: xml.Name{Local: "testsuites"}}); err != nil {
		return err
	}
	if err := enc.Flush(); err != nil {
		return err
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

// junitStart is the start tag of a <testsuites> or <testsuite> with its counts.
func junitStart(name string, c junitCounts) xml.StartElement {
	attr := func(k, v string) xml.Attr { return xml.Attr{Name: xml.Name{Local: k}, Value: v} }
	return xml.StartElement{Name: xml.Name{Local: name}, Attr: []xml.Attr{
		attr("name", c.Name), attr("tests", strconv.Itoa(c.Tests)), attr("failures", strconv.Itoa(c.Failures)),
		attr("errors", strconv.Itoa(c.Errors)), attr("skipped", strconv.Itoa(c.Skipped)), attr("time", c.Time),
	}}
}

// junitTestCase converts one result.
func junitTestCase(r *diag.Result) junitCase {
	c := junitCase{
		Name:      junitCaseName(r),
		Classname: junitText(r.File),
		Time:      junitSeconds(max(0, r.DurationMS)),
	}
	switch {
	case r.Baselined:
		// A known failure the baseline accepts (README "Baseline").
		c.Skipped = &junitSkipped{Message: junitText("baselined: " + r.Message)}
	case r.Outcome == diag.Fail:
		c.Failure = &junitProblem{Message: junitText(r.Message), Type: junitText(r.Code), Text: junitDetails(r)}
	case r.Outcome == diag.Error:
		c.Error = &junitProblem{Message: junitText(r.Message), Type: junitText(r.Code), Text: junitDetails(r)}
	case r.Outcome == diag.Skip || r.Outcome == diag.Pending:
		c.Skipped = &junitSkipped{Message: junitText(string(r.Outcome) + ": " + r.Message)}
	}
	return c
}

// junitCaseName is "CHECK [CODE] line N": the check, the case id when there
// is one, the code, and the line when it is known. EvalCase and jev results
// of one assertion or field differ only by their case, so it is part of the
// name.
func junitCaseName(r *diag.Result) string {
	var b strings.Builder
	b.WriteString(r.Check)
	if r.CaseID != "" {
		b.WriteString(" ")
		b.WriteString(r.CaseID)
	}
	if r.Code != "" {
		fmt.Fprintf(&b, " [%s]", r.Code)
	}
	if r.Pos.Line > 0 {
		fmt.Fprintf(&b, " line %d", r.Pos.Line)
	}
	return junitText(b.String())
}

// junitDetails is the text of a <failure> or <error>: the text report's line
// for the result, then its case id and evidence, one line each.
func junitDetails(r *diag.Result) string {
	label := r.Severity.String()
	if r.Outcome == diag.Error {
		label = "error"
	}
	lines := []string{fmt.Sprintf("%s: %s: %s: %s [%s]",
		OneLine(r.Location()), label, OneLine(r.Check), OneLine(r.Message), OneLine(r.Code))}
	if r.CaseID != "" {
		lines = append(lines, "case_id: "+OneLine(r.CaseID))
	}
	if len(r.Evidence) > 0 {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(r.Evidence); err == nil {
			lines = append(lines, "evidence: "+OneLine(string(bytes.TrimSuffix(guardJSON(buf.Bytes()), []byte("\n")))))
		}
	}
	for i, l := range lines {
		lines[i] = guardLine(l)
	}
	return strings.Join(lines, "\n")
}

// junitText escapes page, fixture and grader text for an attribute.
func junitText(s string) string { return guardLine(OneLine(s)) }

// junitSeconds writes milliseconds as seconds with three decimals, exactly.
func junitSeconds(ms int64) string {
	return fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
}
