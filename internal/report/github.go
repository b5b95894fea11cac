package report

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/sethvargo/go-githubactions"
)

// GitHubOptions configures WriteGitHub.
type GitHubOptions struct {
	// Getenv reads the environment: os.Getenv in production (also when
	// nil), a map in tests. GITHUB_OUTPUT and GITHUB_STEP_SUMMARY name the
	// files the step outputs and the job summary are appended to.
	Getenv func(string) string
	// SARIFFile is the absolute path of --sarif, "" when none: the step
	// output sarif-file.
	SARIFFile string
	// JSONFile is the absolute path of --json, "" when none: the step
	// output json-file.
	JSONFile string
	// Token returns the stop-commands token; nil means a fresh random one
	// (32 hex digits from crypto/rand). Tests inject a fixed one.
	Token func() string
}

// annotationCap is the most annotations of one level (error, warning,
// notice) the Actions runner shows for one step; it drops the rest.
const annotationCap = 10

// WriteGitHub writes r for GitHub Actions (README "SARIF, JUnit and the GitHub format"):
//
//  1. to w, the text report between "::stop-commands::TOKEN" and "::TOKEN::",
//     so that nothing a page or grader printed acts as a workflow command;
//  2. to w, each of r.Notices as a ::notice (starting "evalgate: ");
//  3. to w, annotations for fail and error results: at most 10 errors, then
//     at most 10 warnings, then notices (info), preceded by one notice saying
//     how many results are left out, when some are;
//  4. the job summary (WriteJobSummary), appended to GITHUB_STEP_SUMMARY;
//  5. the step outputs pass, fail, error, skip, pending, score, sarif-file
//     and json-file, appended to GITHUB_OUTPUT.
//
// Steps 4 and 5 are skipped silently when their variable is unset (a local
// or pre-commit run): the library would panic. Text from pages, fixtures and
// graders reaches w only inside the stop-commands block or as an annotation
// message or property, passed as a %s argument after OneLine; it never
// reaches an output, whose delimiter the library fixes. A write that fails
// is returned as an error; what could be written is written.
func WriteGitHub(w io.Writer, r *Report, o GitHubOptions) error {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	token := o.Token
	if token == nil {
		token = randomToken
	}
	a := githubactions.New(githubactions.WithWriter(w), githubactions.WithGetenv(getenv))

	// The library panics when it cannot write to w or to a file.
	var errs []error
	if err := catch(func() error { return writeStopped(a, w, r, token()) }); err != nil {
		// The block may be open: writing commands after it would only
		// print them as text, so stop here.
		return err
	}
	errs = append(errs, catch(func() error {
		for _, n := range r.Notices {
			a.Noticef("%s", annotationText(noticeText(n)))
		}
		annotate(a, r, o.SARIFFile != "")
		return nil
	}))
	if getenv("GITHUB_STEP_SUMMARY") != "" {
		errs = append(errs, catch(func() error {
			var b strings.Builder
			if err := WriteJobSummary(&b, r); err != nil {
				return err
			}
			// AddStepSummary adds its own final newline.
			a.AddStepSummary(strings.TrimSuffix(b.String(), "\n"))
			return nil
		}))
	}
	if getenv("GITHUB_OUTPUT") != "" {
		errs = append(errs, catch(func() error { return setOutputs(a, r, o) }))
	}
	return errors.Join(errs...)
}

// writeStopped writes the text report between ::stop-commands::TOKEN and
// ::TOKEN::. Until the runner sees a line "::TOKEN::" it processes no
// workflow command; WriteText's lines never start with "::" (guardLine), so
// none of them can end the block early, whatever token a page might guess.
func writeStopped(a *githubactions.Action, w io.Writer, r *Report, token string) error {
	if !validToken(token) {
		return fmt.Errorf("github: invalid stop-commands token %q", token)
	}
	a.IssueCommand(&githubactions.Command{Name: "stop-commands", Message: token})
	if err := WriteText(w, r); err != nil {
		return err
	}
	a.IssueCommand(&githubactions.Command{Name: token})
	return nil
}

// validToken accepts a token the runner takes as a command name and the
// library writes unchanged: letters, digits, '-' and '_', at least 16.
func validToken(t string) bool {
	if len(t) < 16 {
		return false
	}
	for _, c := range []byte(t) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// randomToken returns 32 hex digits (128 bits) from crypto/rand.
func randomToken() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand, Go 1.24+)
	return hex.EncodeToString(b[:])
}

// catch runs f and turns a panic of the library into an error.
func catch(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("github: %v", p)
		}
	}()
	return f()
}

// annotate writes the annotations of r's fail and error results. The runner
// shows at most annotationCap annotations per level and step, and the run's
// own notices and the "more" notice count against the notice cap, so fewer
// info results get one. The "more" notice comes before the annotations.
func annotate(a *githubactions.Action, r *Report, sarif bool) {
	// Only the first annotationCap results of each level can be shown: those are kept, the others
	// counted.
	var byLevel [levels][]diag.Result
	var count [levels]int
	total := 0
	for res := range r.Results.Brief() {
		if res.Outcome != diag.Fail && res.Outcome != diag.Error || res.Baselined {
			continue // a baselined fail is accepted for now: no annotation (README "Baseline")
		}
		l := resultLevel(res)
		if count[l] < annotationCap {
			byLevel[l] = append(byLevel[l], *res)
		}
		count[l]++
		total++
	}
	limits := [levels]int{annotationCap, annotationCap, max(0, annotationCap-len(r.Notices))}
	shown := func() int {
		n := 0
		for l := range count {
			n += min(count[l], limits[l])
		}
		return n
	}
	if shown() < total && limits[levelNote] > 0 {
		limits[levelNote]-- // room for the "more" notice itself
	}
	if left := total - shown(); left > 0 {
		where := "see the job summary"
		if sarif {
			where += " and the SARIF file"
		}
		if left == 1 {
			a.Noticef("%s", "evalgate: 1 more result is not annotated: "+where)
		} else {
			a.Noticef("%s", "evalgate: "+strconv.Itoa(left)+" more results are not annotated: "+where)
		}
	}
	for l := range byLevel {
		for i := range byLevel[l][:min(len(byLevel[l]), limits[l])] {
			res := &byLevel[l][i]
			an := a.WithFieldsMap(annotationFields(res))
			msg := annotationText(res.Message)
			switch level(l) {
			case levelError:
				an.Errorf("%s", msg)
			case levelWarning:
				an.Warningf("%s", msg)
			default:
				an.Noticef("%s", msg)
			}
		}
	}
}

// annotationFields are an annotation's properties: file, line and col when
// known (a line is never invented), and the title "CHECK [CODE]". The
// library escapes property values (% CR LF : , as %25 %0D %0A %3A %2C).
func annotationFields(res *diag.Result) map[string]string {
	f := map[string]string{
		"title": annotationText(res.Check + " [" + res.Code + "]"),
	}
	if res.File != "" {
		f["file"] = annotationText(res.File)
		if res.Pos.Line > 0 {
			f["line"] = strconv.Itoa(res.Pos.Line)
			if res.Pos.Col > 0 {
				f["col"] = strconv.Itoa(res.Pos.Col)
			}
		}
	}
	return f
}

// annotationText prepares page text for an annotation. The library escapes
// only %, CR and LF in a message, which the runner turns back into line
// breaks; README "SARIF, JUnit and the GitHub format" wants every line break and control escaped as in
// the other formats, so OneLine comes first. "##[" is written "#\#[" as in
// the text report, for the runner's legacy parser.
func annotationText(s string) string {
	return strings.ReplaceAll(OneLine(s), "##[", `#\#[`)
}

// setOutputs writes the step outputs: counts, the score and the two paths,
// never page text. The library writes each as "NAME<<DELIM", the value and
// "DELIM" on lines of their own, with a fixed DELIM; the runner ends the
// value at the first line equal to DELIM. So a value may hold no line break:
// a path that does could forge outputs, and is refused.
func setOutputs(a *githubactions.Action, r *Report, o GitHubOptions) error {
	s := r.Summary
	score := ""
	if s.Score != nil {
		score = FormatScore(*s.Score)
	}
	var errs []error
	path := func(name, p string) string {
		if strings.ContainsAny(p, "\r\n") {
			errs = append(errs, fmt.Errorf("github: the %s path %q holds a line break; output %s is left empty", name, OneLine(p), name))
			return ""
		}
		return p
	}
	outputs := []struct{ name, value string }{
		{"pass", strconv.Itoa(s.Pass)},
		{"fail", strconv.Itoa(s.Fail)},
		{"error", strconv.Itoa(s.Error)},
		{"skip", strconv.Itoa(s.Skip)},
		{"pending", strconv.Itoa(s.Pending)},
		{"score", score},
		{"sarif-file", path("sarif-file", o.SARIFFile)},
		{"json-file", path("json-file", o.JSONFile)},
	}
	for _, out := range outputs {
		a.SetOutput(out.name, out.value)
	}
	return errors.Join(errs...)
}
