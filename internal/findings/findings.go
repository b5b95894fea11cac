// Package findings turns a command tool's output into findings (README "Findings from command tools"):
// SARIF 2.1.0 on stdout, or each output line matched against an RE2 pattern with named groups. It knows
// nothing of pages: lines are the target's, and the caller maps them to the file.
package findings

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/shape"
)

// Groups are the named groups a pattern may use; line is required.
var Groups = []string{"line", "column", "severity", "code", "message"}

// Spec says how a tool reports: SARIF, or a line pattern.
type Spec struct {
	SARIF   bool
	Pattern *regexp.Regexp
}

// Finding is one finding of the tool, in the target's lines (1-based; Col 0 when not given, Line 0 for
// a SARIF result about the whole target).
type Finding struct {
	Line, Col int
	// Level is SARIF's level (error, warning, note, none) or the pattern's severity word, as written;
	// "" when the tool gave none.
	Level   string
	Code    string
	Message string
}

// CheckPattern reports what is wrong with a pattern for findings: it must compile as RE2, hold a
// named group line, and name no other group than Groups.
func CheckPattern(expr string) error {
	re, err := regexp.Compile(expr)
	if err != nil {
		return fmt.Errorf("is not a valid RE2 pattern: %v", err)
	}
	names := re.SubexpNames()
	if !slices.Contains(names, "line") {
		return errors.New("needs a named group line, as in (?P<line>\\d+)")
	}
	for _, n := range names {
		if n != "" && !slices.Contains(Groups, n) {
			return fmt.Errorf("names the group %q; the groups are line, column, severity, code and message", n)
		}
	}
	return nil
}

// MaxFindings bounds the findings of one eval, as the built-in tools are bounded.
const MaxFindings = 1000

// MaxWord bounds, in code points, a finding's code and severity word, which a report repeats (a SARIF
// rule's id, name and descriptions): a tool's 4 MB ruleId made a 32 MB SARIF file.
const MaxWord = 128

// MaxOutput is how much of each output stream of a tool with findings is kept and read: the last 4 MiB.
const MaxOutput = 4 << 20

// Parse reads the findings of a tool's output, the first MaxFindings of them (more says there were
// more): the last MaxOutput bytes of each stream, cut saying that a stream was longer (its start is
// gone). A pattern reads stdout, or stderr when stdout is empty; a line it does not match, or whose line
// group is no positive number, is no finding, and the first line of a cut stream is only the end of a
// line. SARIF reads stdout; output that is not SARIF, or SARIF longer than MaxOutput, is an error: the
// tool reached no verdict evalgate can read. So is a pattern that would take more than
// shape.MatchBudget steps at worst on the output, as a tool:contains pattern does (README "Limits"):
// Go's regexp cannot be stopped once it matches. A stopped ctx stops the reading between lines.
func (s Spec) Parse(ctx context.Context, stdout, stderr []byte, stdoutCut, stderrCut bool) (fs []Finding, more bool, err error) {
	if s.SARIF {
		if stdoutCut {
			return nil, false, fmt.Errorf("the tool's SARIF is longer than %d MiB, more than evalgate reads", MaxOutput>>20)
		}
		return parseSARIF(stdout)
	}
	out, cut := stdout, stdoutCut
	if len(bytes.TrimSpace(out)) == 0 {
		out, cut = stderr, stderrCut
	}
	if cut {
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			out = out[i+1:]
		}
	}
	if err := shape.MatchWork(s.Pattern, len(out)); err != nil {
		return nil, false, fmt.Errorf("findings: %w", err)
	}
	idx := map[string]int{}
	for i, n := range s.Pattern.SubexpNames() {
		if n != "" {
			idx[n] = i
		}
	}
	group := func(m [][]byte, name string) string {
		if i, ok := idx[name]; ok && m[i] != nil {
			return strings.TrimSpace(string(m[i]))
		}
		return ""
	}
	lines := 0
	for line := range bytes.Lines(out) {
		if lines++; lines%256 == 0 && ctx.Err() != nil {
			return nil, false, context.Cause(ctx)
		}
		m := s.Pattern.FindSubmatch(bytes.TrimRight(line, "\r\n"))
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(group(m, "line"))
		if err != nil || n < 1 {
			continue
		}
		if len(fs) == MaxFindings {
			return fs, true, nil
		}
		col, _ := strconv.Atoi(group(m, "column"))
		fs = append(fs, Finding{Line: n, Col: max(col, 0), Level: word(group(m, "severity")), Code: word(group(m, "code")), Message: group(m, "message")})
	}
	return fs, false, nil
}

// word is a code or severity word cut to MaxWord code points.
func word(s string) string { return diag.ClipRunes(s, MaxWord) }

// sarifLog is the part of SARIF 2.1.0 findings need.
type sarifLog struct {
	Version string `json:"version"`
	Runs    []struct {
		Results []struct {
			RuleID  string `json:"ruleId"`
			Level   string `json:"level"`
			Message struct {
				Text string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					Region struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

func parseSARIF(stdout []byte) ([]Finding, bool, error) {
	var log sarifLog
	if err := json.Unmarshal(stdout, &log); err != nil {
		return nil, false, fmt.Errorf("the tool's output is not SARIF: %v", err)
	}
	if log.Version != "2.1.0" {
		return nil, false, fmt.Errorf("the tool's output is not SARIF 2.1.0 (version %q)", log.Version)
	}
	var fs []Finding
	for _, run := range log.Runs {
		for _, r := range run.Results {
			if len(fs) == MaxFindings {
				return fs, true, nil
			}
			f := Finding{Level: word(r.Level), Code: word(r.RuleID), Message: r.Message.Text}
			if f.Level == "" {
				f.Level = "warning" // SARIF's default level
			}
			if len(r.Locations) > 0 {
				// Without a region the finding is about the whole target: Line 0.
				reg := r.Locations[0].PhysicalLocation.Region
				f.Line, f.Col = max(reg.StartLine, 0), max(reg.StartColumn, 0)
			}
			fs = append(fs, f)
		}
	}
	return fs, false, nil
}
