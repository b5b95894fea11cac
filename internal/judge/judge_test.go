package judge

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

const target = "# Install\n\nRun   the installer,\nthen restart.\n"

func TestParse(t *testing.T) {
	ok := `{"quotes": ["Run the installer, then restart."], "reasoning": "It says how.", "verdict": "pass"}`
	tests := []struct {
		name   string
		reply  string
		fenced bool
		want   string // the verdict, or the start of the error after "invalid verdict: "
	}{
		{"one object", ok, false, "pass"},
		{"white space around", "\n  " + ok + "\n", false, "pass"},
		{"partial", `{"quotes": [], "reasoning": "r", "verdict": "partial"}`, false, "partial"},
		{"an empty quote", `{"quotes": [""], "reasoning": "r", "verdict": "fail"}`, false, "fail"},
		{"fenced, strict asked", "```json\n" + ok + "\n```", false, "the reply is not a JSON object"},
		{"fenced, schema in the prompt", "```json\n" + ok + "\n```", true, "pass"},
		{"a bare fence", "```\n" + ok + "\n```", true, "pass"},
		{"another language's fence", "```yaml\n" + ok + "\n```", true, "the reply is not a JSON object"},
		{"prose", "The page passes.", false, "the reply is not a JSON object"},
		{"prose after", ok + " I hope this helps.", false, "the reply holds more than one JSON object"},
		{"two objects", ok + ok, false, "the reply holds more than one JSON object"},
		{"an unknown field", `{"quotes": [], "reasoning": "r", "verdict": "pass", "score": 1}`, false, `unknown field "score"`},
		{"no reasoning", `{"quotes": [], "verdict": "pass"}`, false, "the verdict needs quotes, reasoning and verdict"},
		{"null quotes", `{"quotes": null, "reasoning": "r", "verdict": "pass"}`, false, "quotes must be a list of strings"},
		{"another verdict", `{"quotes": [], "reasoning": "r", "verdict": "PASS"}`, false, `verdict must be pass, fail or partial, got "PASS"`},
		{"an invented quote", `{"quotes": ["Run the uninstaller"], "reasoning": "r", "verdict": "pass"}`, false, `the quote "Run the uninstaller" is not in the target`},
		{"not JSON", `{"verdict": pass}`, false, "JSON: unexpected 'p'"},
		// Keys exact and once: encoding/json matched VERDICT and took the later of two.
		{"a key in capitals", `{"QUOTES": [], "Reasoning": "r", "VERDICT": "pass"}`, false, `unknown field "QUOTES"`},
		{"a key twice", `{"quotes": [], "reasoning": "r", "verdict": "fail", "verdict": "pass"}`, false, `duplicate key "verdict"`},
	}
	for _, tt := range tests {
		v, err := Parse([]byte(tt.reply), []byte(target), tt.fenced, nil)
		got := v.Verdict
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("%s: error %v does not wrap ErrInvalid", tt.name, err)
			}
			got = strings.TrimPrefix(err.Error(), "invalid verdict: ")
		}
		if !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestConsensus runs 1 to 5 runs of pass, fail, partial, invalid and failed
// runs against agreements 0.5, 0.6, 1.0.
func TestConsensus(t *testing.T) {
	run := func(c byte) Run {
		switch c {
		case 'P':
			return Run{Verdict: &Verdict{Verdict: Pass, Reasoning: "holds"}}
		case 'F':
			return Run{Verdict: &Verdict{Verdict: Fail, Reasoning: "does not hold"}}
		case 'p':
			return Run{Verdict: &Verdict{Verdict: Partial, Reasoning: "half"}}
		case 'i':
			return Run{Err: fmt.Errorf("%w: prose", ErrInvalid)}
		}
		return Run{Err: errors.New("503 Service Unavailable")}
	}
	tests := []struct {
		runs      string // P pass, F fail, p partial, i invalid, x failed request
		agreement float64
		want      string
	}{
		{"P", 1, "pass judge_pass"},
		{"F", 1, "fail judge_fail does not hold"},
		{"p", 1, "fail judge_fail half"},
		{"i", 1, "error judge_failed"},
		{"x", 1, "error judge_failed"},
		{"PP", 1, "pass judge_pass"},
		{"PF", 1, "pending judge_split"},
		{"PF", 0.5, "pending judge_split"}, // a tie has no majority
		{"Pi", 1, "pending judge_incomplete"},
		{"Pi", 0.5, "pass judge_pass"},
		{"PPF", 1, "pending judge_split"},
		{"PPF", 0.6, "pass judge_pass"},
		{"FFp", 1, "fail judge_fail does not hold"},
		{"PPx", 0.6, "pass judge_pass"},
		{"PPx", 1, "pending judge_incomplete"},
		{"ixx", 0.5, "error judge_failed"},
		{"PPPF", 0.75, "pass judge_pass"},
		{"PPPF", 1, "pending judge_split"},
		{"PPPPP", 1, "pass judge_pass"},
		{"PPPFF", 0.6, "pass judge_pass"},
		{"PPPFF", 1, "pending judge_split"},
		{"FFiix", 0.6, "pending judge_incomplete"},
		{"PPpFi", 0.5, "pending judge_split"},
		{"FpFPx", 0.6, "fail judge_fail does not hold"},
	}
	for _, tt := range tests {
		var runs []Run
		for i := 0; i < len(tt.runs); i++ {
			runs = append(runs, run(tt.runs[i]))
		}
		o := Consensus(runs, tt.agreement)
		got := string(o.Outcome) + " " + o.Code
		if o.Outcome == diag.Fail {
			got += " " + o.Message
		}
		if got != tt.want {
			t.Errorf("runs %s, agreement %v: %s (agreement %.2f), want %s", tt.runs, tt.agreement, got, o.Agreement, tt.want)
		}
	}
}

// FuzzParse: any reply is a verdict or an ErrInvalid, never a panic; a
// verdict's quotes are all in the target.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"quotes": ["Run the installer,"], "reasoning": "r", "verdict": "pass"}`), []byte(target), false)
	f.Add([]byte("```json\n{\"quotes\": [], \"reasoning\": \"\", \"verdict\": \"fail\"}\n```"), []byte("x"), true)
	f.Add([]byte(`{"quotes": ["\u00a0"], "reasoning": "r", "verdict": "partial"}{`), []byte(""), false)
	f.Fuzz(func(t *testing.T, reply, tgt []byte, fenced bool) {
		v, err := Parse(reply, tgt, fenced, nil)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v is not ErrInvalid", err)
			}
			return
		}
		if v.Verdict != Pass && v.Verdict != Fail && v.Verdict != Partial {
			t.Fatalf("verdict %q", v.Verdict)
		}
		for _, q := range v.Quotes {
			if f := fold(q); f != "" && !strings.Contains(fold(string(tgt)), f) {
				t.Fatalf("quote %q is not in the target", q)
			}
		}
	})
}

// TestModelTextBounded: what a message quotes of a model is at most MaxMessage code points: a 3 MB
// reasoning made every report three times that, a 3 MB verdict the error of every run.
func TestModelTextBounded(t *testing.T) {
	long := strings.Repeat("é", 3*MaxMessage)
	o := Consensus([]Run{{Verdict: &Verdict{Verdict: Fail, Reasoning: long}}}, 0.5)
	if n := utf8.RuneCountInString(o.Message); o.Code != "judge_fail" || n != MaxMessage+1 || !strings.HasSuffix(o.Message, "…") {
		t.Errorf("judge_fail message of %d code points, want %d and an ellipsis", n, MaxMessage)
	}
	_, err := Parse([]byte(`{"quotes": [], "reasoning": "r", "verdict": "`+long+`"}`), []byte("x"), false, nil)
	if err == nil || len(err.Error()) > 400 {
		t.Errorf("the error of a long verdict is %d bytes", len(fmt.Sprint(err)))
	}
}

// TestParseMasksBeforeTheCut: what an error quotes of the reply is masked, then cut to 80 code points: a
// secret across the cut was left with all but its last characters in clear.
func TestParseMasksBeforeTheCut(t *testing.T) {
	const secret = "sk-SECRETKEY123456"
	mask := func(s string) string { return strings.ReplaceAll(s, secret, "***") }
	pad := strings.Repeat("x", 70)
	for _, reply := range []string{
		`{"quotes": [], "reasoning": "r", "verdict": "` + pad + secret + `"}`,
		`{"quotes": ["` + pad + secret + `"], "reasoning": "r", "verdict": "pass"}`,
		`{"quotes": [], "reasoning": "r", "verdict": "pass", "` + pad + secret + `": 1}`,
	} {
		_, err := Parse([]byte(reply), []byte("target"), false, mask)
		if err == nil || strings.Contains(err.Error(), secret[:8]) || !strings.Contains(err.Error(), "***") {
			t.Errorf("%.40s...: error %v", reply, err)
		}
	}
}
