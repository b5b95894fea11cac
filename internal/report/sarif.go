package report

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/tooldef"
)

// SARIF facts evalgate relies on.
const (
	// sarifMaxResults is the most results GitHub code scanning accepts in one
	// run: it rejects an upload with more (and of those it accepts, it stores
	// and shows the 5,000 most severe).
	sarifMaxResults = 25000
	// sarifFingerprintKey names evalgate's partial fingerprint. A new way of
	// computing it needs a new key, or every alert would close and reopen.
	sarifFingerprintKey = "evalgate/v1"
	// sarifSrcRoot is the uriBaseId of every artifact location: paths are
	// relative to the repository root, which the upload knows as the checkout.
	sarifSrcRoot = "%SRCROOT%"
	// sarifInformationURI is tool.driver.informationUri.
	sarifInformationURI = "https://github.com/evalgate/evalgate"
	// sarifSchema is the $schema of the log: the OASIS-approved SARIF 2.1.0
	// schema (the one go-sarif names by default points at a moving branch).
	sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)

// README sections that document the rules, for helpUri.
const (
	sarifHelpCodes   = sarifInformationURI + "#codes"
	sarifHelpResults = sarifInformationURI + "#results-outcomes-and-blocking"
)

// The SARIF levels evalgate writes (SARIF also has "none").
const (
	sarifError   = "error"
	sarifWarning = "warning"
	sarifNote    = "note"
)

// WriteSARIF writes r as a SARIF 2.1.0 log with one run, for GitHub code
// scanning (README "SARIF, JUnit and the GitHub format"). Only fail and error results become SARIF
// results, at most 25,000 of them (SARIFDropped says how many were left out);
// every rule they name is declared in tool.driver.rules. The output is
// indented JSON with a final newline and depends only on r.
func WriteSARIF(w io.Writer, r *Report) error {
	log, err := sarif.New(sarif.Version210, false)
	if err != nil {
		return err
	}
	log.Schema = sarifSchema

	driver := sarif.NewDriver("evalgate").WithInformationURI(sarifInformationURI)
	if v := sarifToolVersion(r.Tool.Version); v != "" {
		driver.WithVersion(v)
	}
	run := sarif.NewRun(sarif.Tool{Driver: driver})
	run.ColumnKind = "unicodeCodePoints"

	// Rules: one per rule id of the results written, in id order. Each is
	// described by its first result in report order, and its default level
	// is that of its most severe result.
	quota, eligible := sarifQuota(r)
	type rule struct {
		first diag.Result
		level string
	}
	rules := map[string]*rule{}
	kept := 0
	sarifEach(r, quota, false, func(res *diag.Result, _ string) {
		kept++
		id := RuleID(res)
		ru, ok := rules[id]
		if !ok {
			first := *res
			first.Evidence = nil // a rule's description needs none
			ru = &rule{first: first}
			rules[id] = ru
		}
		ru.level = maxLevel(ru.level, sarifLevel(res))
	})
	ruleIndex := make(map[string]int, len(rules))
	for i, id := range slices.Sorted(maps.Keys(rules)) {
		ruleIndex[id] = i
		driver.Rules = append(driver.Rules, sarifRule(id, &rules[id].first, rules[id].level))
	}

	inv := sarif.NewInvocation().WithExecutionSuccess(true)
	if n := eligible - kept; n > 0 {
		inv.AddTToolExecutionNotification(sarif.NewNotification().WithLevel(sarifWarning).WithTextMessage(fmt.Sprintf(
			"evalgate found %d failures and errors; the log holds %d, the most GitHub code scanning accepts in one run. "+
				"%d were left out, lowest severity first (note, then warning, then error; error outcomes last).",
			eligible, kept, n)))
	}
	for _, notice := range r.Notices {
		inv.AddTToolExecutionNotification(sarif.NewNotification().WithLevel(sarifNote).WithTextMessage(notice))
	}
	run.AddInvocations(inv)

	if r.Category != "" {
		// As github/codeql-action/upload-sarif writes a category: with one
		// trailing '/', so the same --category and category: agree.
		id := r.Category
		if !strings.HasSuffix(id, "/") {
			id += "/"
		}
		run.WithAutomationDetails(sarif.NewRunAutomationDetails().WithID(id))
	}
	if r.Partial() {
		// A changed-files run, or one of PATH arguments: code scanning must not read the absence of
		// a result as a fix.
		run.Properties = sarif.Properties{"partial": true}
	}
	log.AddRun(run)

	// The log is encoded without its results, which are then written one at a time where its
	// empty results array is: the bytes are those of encoding the whole log.
	head, err := indentedJSON(log, "")
	if err != nil {
		return err
	}
	marker := []byte("\n      \"results\": []")
	at := bytes.Index(head, marker)
	if at < 0 {
		return fmt.Errorf("report: no results in the encoded SARIF log")
	}
	at += len(marker) - 1
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(guardJSON(head[:at]))
	first := true
	sarifEach(r, quota, true, func(res *diag.Result, fingerprint string) {
		if err != nil {
			return
		}
		id := RuleID(res)
		sr := sarifResult(res, id, ruleIndex[id], fingerprint)
		if r.Baseline {
			// Code scanning reads baselineState: "unchanged" is a known
			// failure the baseline accepts, "new" one it does not.
			sr.WithBaselineState(map[bool]string{true: "unchanged", false: "new"}[res.Baselined])
		}
		var one []byte
		if one, err = indentedJSON(sr, "        "); err != nil {
			return
		}
		sep := ",\n        "
		if first {
			sep, first = "\n        ", false
		}
		bw.WriteString(sep)
		bw.Write(guardJSON(bytes.TrimSuffix(one, []byte("\n"))))
	})
	if err != nil {
		return err
	}
	if err := r.Results.Err(); err != nil {
		return err
	}
	if !first {
		bw.WriteString("\n      ")
	}
	bw.Write(guardJSON(head[at:]))
	return bw.Flush()
}

// sarifToolVersion is tool.driver.version: the version without the "v" of a
// Go module version ("v1.2.3" is "1.2.3"), because SARIF consumers compare
// versions that start with a number (the SARIF multitool's rule SARIF2005).
func sarifToolVersion(v string) string {
	if len(v) > 1 && v[0] == 'v' && '0' <= v[1] && v[1] <= '9' {
		return v[1:]
	}
	return v
}

// SARIFDropped is how many fail and error results WriteSARIF leaves out of r
// to stay within GitHub's 25,000 results per run; the job summary says so too.
func SARIFDropped(r *Report) int {
	_, eligible := sarifQuota(r)
	return max(0, eligible-sarifMaxResults)
}

// eligibleSARIF says res is a fail or an error, the only outcomes SARIF reports.
func eligibleSARIF(res *diag.Result) bool {
	return res.Outcome == diag.Fail || res.Outcome == diag.Error
}

// dropRank orders results for dropping: the lowest rank goes first. Notes,
// then warnings, then error-level failures; error outcomes (no verdict at
// all) go last.
func dropRank(r *diag.Result) int {
	if r.Outcome == diag.Error {
		return 3
	}
	switch r.Severity {
	case diag.SeverityInfo:
		return 0
	case diag.SeverityWarning:
		return 1
	}
	return 2
}

// sarifQuota counts r's eligible results and says how many of each drop rank the log holds: all
// of them when they fit, else the highest ranks, and of the rank that fits only in part its first
// results in report order.
func sarifQuota(r *Report) (quota [4]int, eligible int) {
	var byRank [4]int
	for res := range r.Results.Brief() {
		if eligibleSARIF(res) {
			byRank[dropRank(res)]++
			eligible++
		}
	}
	room := sarifMaxResults
	for k := len(byRank) - 1; k >= 0; k-- {
		quota[k] = min(byRank[k], room)
		room -= quota[k]
	}
	return quota, eligible
}

// sarifEach calls fn on each result the log holds, in report order, with its
// partialFingerprints["evalgate/v1"]: Fingerprint, and for results of a file that share it ":2",
// ":3", ... in report order, so that each stays a distinct, stable alert. Occurrences are counted
// over every eligible result before any is dropped, so that dropping never renumbers those kept.
// A file's results come together in report order, so the count starts again with each file (a
// fingerprint names its file).
//
// Without prints, fingerprints are not computed, fn gets "", and results come without their evidence
// (Results.Brief).
func sarifEach(r *Report, quota [4]int, prints bool, fn func(res *diag.Result, fingerprint string)) {
	seen := map[string]int{}
	file := ""
	left := quota[0] + quota[1] + quota[2] + quota[3]
	results := r.Results.Brief()
	if prints {
		results = r.Results.All()
	}
	for res := range results {
		if left == 0 {
			return // the rest is dropped
		}
		if !eligibleSARIF(res) {
			continue
		}
		fp := ""
		if prints {
			if res.File != file {
				clear(seen)
				file = res.File
			}
			fp = Fingerprint(res)
			seen[fp]++
			if n := seen[fp]; n > 1 {
				fp += ":" + strconv.Itoa(n)
			}
		}
		if k := dropRank(res); quota[k] > 0 {
			quota[k]--
			left--
			fn(res, fp)
		}
	}
}

// Fingerprint is the evalgate/v1 fingerprint of a result before its
// occurrence suffix: the hex SHA-256 of its rule id, file, case id, code and
// key, each with its length first. The baseline of known failures counts
// results by it (README "Baseline").
func Fingerprint(res *diag.Result) string {
	var buf []byte
	for _, field := range []string{RuleID(res), res.File, res.CaseID, res.Code, res.Key} {
		buf = binary.AppendUvarint(buf, uint64(len(field)))
		buf = append(buf, field...)
	}
	sum := sha256.Sum256(buf)
	return hex.EncodeToString(sum[:])
}

// sarifLevels names each level in SARIF.
var sarifLevels = [levels]string{levelError: sarifError, levelWarning: sarifWarning, levelNote: sarifNote}

// sarifLevel is a result's SARIF level.
func sarifLevel(r *diag.Result) string {
	return sarifLevels[resultLevel(r)]
}

// maxLevel is the more severe of two levels ("" is less than any).
func maxLevel(a, b string) string {
	rank := func(l string) int {
		switch l {
		case sarifError:
			return 3
		case sarifWarning:
			return 2
		case sarifNote:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// sarifRule declares one rule. GitHub's ingestion wants shortDescription,
// fullDescription and help; the level of its most severe result becomes
// defaultConfiguration.level.
func sarifRule(id string, first *diag.Result, level string) *sarif.ReportingDescriptor {
	desc := RuleDescription(first)
	// The short description is one line: an eval's assertion may span lines.
	short := strings.Join(strings.Fields(desc), " ")
	full := sentence(desc)
	var help, helpURI string
	switch {
	case strings.HasPrefix(id, rulePrefixEval):
		help = fmt.Sprintf("%s The eval %s did not pass on the pages it is reported on; the result's message says why. "+
			"Fix the page, or the eval's definition (in the page's frontmatter or in the config).", full, strings.TrimPrefix(id, rulePrefixEval))
		helpURI = sarifHelpResults
	case strings.HasPrefix(id, rulePrefixSuite):
		help = full + " A suite's score is the weighted pass rate of the evals on the pages that name it " +
			"(eval-suite); below its target-pass-rate in the config, the suite fails. The failing evals are reported " +
			"on their pages."
		helpURI = sarifHelpResults
	case strings.HasPrefix(id, rulePrefixEvalCase):
		help = fmt.Sprintf("%s The EvalCase assertion %s failed for a candidate; the code of each result names the "+
			"first fault and its properties.evidence lists them all.", full, strings.TrimPrefix(id, rulePrefixEvalCase))
		helpURI = sarifHelpCodes
	default:
		help = fmt.Sprintf("%s evalgate reports this with the code %s; the README's Codes section lists every code.",
			full, first.Code)
		helpURI = sarifHelpCodes
	}
	helpText := sarif.NewMultiformatMessageString(help)
	if info, ok := tooldef.LookupCode(first.Code); ok && !strings.HasPrefix(id, rulePrefixEval) && !strings.HasPrefix(id, rulePrefixSuite) &&
		!strings.HasPrefix(id, rulePrefixEvalCase) { // one code per rule: its registry entry
		// The registry's own words (what `evalgate explain CODE` prints): what it means, an example, the fix.
		helpText = sarif.NewMultiformatMessageString(help + " " + info.Doc + " Fix: " + info.Fix).
			WithMarkdown(codeHelpMarkdown(full, info))
	}
	return sarif.NewRule(id).
		WithName(ruleName(id)).
		WithShortDescription(sarif.NewMultiformatMessageString(short)).
		WithFullDescription(sarif.NewMultiformatMessageString(full)).
		WithHelp(helpText).
		WithHelpURI(helpURI).
		WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(level))
}

// codeHelpMarkdown is a rule's help in Markdown from the code registry: the description, what the code
// means, an example that gives it (fenced, so that its text stays text) and the fix.
func codeHelpMarkdown(full string, info diag.CodeInfo) string {
	fence := "```"
	for strings.Contains(info.Example, fence) {
		fence += "`"
	}
	return fmt.Sprintf("%s\n\n**`%s`**: %s\n\nExample:\n\n%s\n%s\n%s\n\n**Fix:** %s\n",
		full, info.Code, info.Doc, fence, info.Example, fence, info.Fix)
}

// sentence ends s with a period unless it ends with punctuation already.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

// sarifResult converts one fail or error result.
func sarifResult(res *diag.Result, ruleID string, ruleIndex int, fingerprint string) *sarif.Result {
	region := (*sarif.Region)(nil)
	if res.Pos.Line > 0 {
		// Only a known line makes a region: a result about a whole file must
		// not point at line 1.
		region = sarif.NewRegion().WithStartLine(res.Pos.Line)
		if res.Pos.Col > 0 {
			region.WithStartColumn(res.Pos.Col)
		}
	}
	phys := sarif.NewPhysicalLocation().WithArtifactLocation(
		sarif.NewSimpleArtifactLocation(sarifURI(res.File)).WithUriBaseId(sarifSrcRoot))
	if region != nil {
		phys.WithRegion(region)
	}

	props := sarif.Properties{
		"check":    res.Check,
		"outcome":  string(res.Outcome),
		"code":     res.Code,
		"blocking": res.Blocking,
	}
	if res.Baselined {
		props["baselined"] = true
	}
	if res.CaseID != "" {
		props["case_id"] = res.CaseID
	}
	if res.Grader != "" {
		props["grader"] = res.Grader
	}
	if res.Type != "" {
		props["type"] = res.Type
	}
	if res.Weight > 0 {
		props["weight"] = res.Weight
	}
	if len(res.Evidence) > 0 {
		props["evidence"] = res.Evidence
	}

	out := sarif.NewRuleResult(ruleID).
		WithRuleIndex(ruleIndex).
		WithLevel(sarifLevel(res)).
		// SARIF requires message text; the engine always writes a message.
		WithMessage(sarif.NewTextMessage(cmp.Or(res.Message, codeTitle(res.Code)))).
		WithLocations([]*sarif.Location{sarif.NewLocationWithPhysicalLocation(phys)}).
		WithPartialFingerPrints(map[string]any{sarifFingerprintKey: fingerprint})
	out.Properties = props
	return out
}

// sarifURI turns a repository-relative path with '/' into a relative URI
// reference (RFC 3986): every byte but the unreserved characters and '/' is
// percent-encoded, so spaces, non-ASCII names and a ':' in the first segment
// (which would read as a scheme) stay one valid path.
func sarifURI(file string) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(file); i++ {
		c := file[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~', c == '/':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&0xf])
		}
	}
	return b.String()
}
