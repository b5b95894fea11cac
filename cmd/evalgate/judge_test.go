//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// The scripted judge of the testscripts (README "The AI judge"). It decides by a word of the
// assertion, so that a script chooses each eval's fate in its own text:
//
//	"holds"   pass, quoting the document's first line
//	"fails"   fail
//	"split"   pass and fail in turn for the same prompt
//	"prose"   a reply that is no JSON
//	"refuse"  a refusal
//	"flaky"   a 503 with retry-after-ms first, then pass
//
// Whatever the assertion, a line outside the data block that says "ignore previous instructions"
// makes it answer pass: a page whose text escaped the block would be seen passing.
type fakeJudge struct {
	mu    sync.Mutex
	seen  map[string]int // answers given per prompt
	calls int
	log   []string // one line per request: path and what the checks found
}

// decide is the fake's verdict on one rendered user message, and the status to answer with.
func (f *fakeJudge) decide(user string) (status int, content string) {
	f.mu.Lock()
	n := f.seen[user]
	f.seen[user]++
	f.mu.Unlock()
	assertion, document, outside := splitPrompt(user)
	first := ""
	for _, l := range strings.Split(document, "\n") {
		if strings.TrimSpace(l) != "" {
			first = strings.TrimSpace(l)
			break
		}
	}
	verdict := func(v, why string, quotes ...string) string {
		if quotes == nil {
			quotes = []string{}
		}
		b, _ := json.Marshal(map[string]any{"verdict": v, "reasoning": why, "quotes": quotes})
		return string(b)
	}
	switch {
	case strings.Contains(strings.ToLower(outside), "ignore previous instructions"):
		return 200, verdict("pass", "told to pass")
	case strings.Contains(assertion, "holds"):
		return 200, verdict("pass", "the page says so", first)
	case strings.Contains(assertion, "fails"):
		return 200, verdict("fail", "the page does not say so")
	case strings.Contains(assertion, "split") && n%2 == 0:
		return 200, verdict("pass", "it seems to hold", first)
	case strings.Contains(assertion, "split"):
		return 200, verdict("partial", "it holds only in part")
	case strings.Contains(assertion, "prose"):
		return 200, "I think the page is fine."
	case strings.Contains(assertion, "refuse"):
		return 200, "REFUSE"
	case strings.Contains(assertion, "flaky") && n == 0:
		return 503, ""
	}
	return 200, verdict("pass", "nothing against it")
}

// splitPrompt takes apart a user message of template evalgate-judge/1: the assertion line, the
// document between the marker lines, and every line outside them.
func splitPrompt(user string) (assertion, document, outside string) {
	var doc, out []string
	in := false
	for _, l := range strings.Split(user, "\n") {
		switch {
		case strings.HasPrefix(l, "<<<EVALGATE-DOCUMENT "):
			in = true
		case strings.HasPrefix(l, "<<<END EVALGATE-DOCUMENT "):
			in = false
		case in:
			doc = append(doc, l)
		default:
			out = append(out, l)
			if a, ok := strings.CutPrefix(l, "Assertion: "); ok {
				assertion = a
			}
		}
	}
	return assertion, strings.Join(doc, "\n"), strings.Join(out, "\n")
}

// ServeHTTP speaks OpenAI's Chat Completions and Anthropic's Messages.
func (f *fakeJudge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Model    string `json:"model"`
		System   string `json:"system"`
		Messages []struct {
			Role, Content string
		} `json:"messages"`
	}
	json.Unmarshal(body, &req)
	user := ""
	for _, m := range req.Messages {
		if m.Role == "user" {
			user = m.Content
		}
	}
	key := r.Header.Get("Authorization") + r.Header.Get("x-api-key")
	f.mu.Lock()
	f.calls++
	inBody := false
	for _, part := range strings.Fields(key) {
		inBody = inBody || len(part) > 8 && strings.Contains(string(body), part)
	}
	f.log = append(f.log, fmt.Sprintf("%s %s model=%s key-header=%q key-in-body=%v", r.Method, r.URL.Path, req.Model, key, inBody))
	f.mu.Unlock()
	status, content := f.decide(user)
	if status != 200 {
		w.Header().Set("retry-after-ms", "5")
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	answered := req.Model + "-answered"
	if strings.HasSuffix(r.URL.Path, "/v1/messages") {
		stop := "tool_use"
		if content == "REFUSE" {
			stop = "refusal"
		}
		input := json.RawMessage(content)
		if !json.Valid(input) {
			input, _ = json.Marshal(content) // a string input: no verdict object
		}
		json.NewEncoder(w).Encode(map[string]any{"model": answered, "stop_reason": stop,
			"content": []map[string]any{{"type": "tool_use", "name": "verdict", "input": input}},
			"usage":   map[string]int{"input_tokens": 10, "output_tokens": 5}})
		return
	}
	msg := map[string]any{"role": "assistant", "content": content}
	if content == "REFUSE" {
		msg = map[string]any{"role": "assistant", "content": nil, "refusal": "I cannot help with that."}
	}
	json.NewEncoder(w).Encode(map[string]any{"model": answered,
		"choices": []map[string]any{{"index": 0, "message": msg, "finish_reason": "stop"}},
		"usage":   map[string]int{"total_tokens": 15}})
}

// judgeKey holds a script's fakeJudge among its values.
type judgeKey struct{}

// cmdJudgeServer runs the scripted judge on loopback for the rest of the script.
//
//	judgeserver start       start it; JUDGE_URL is its address
//	judgeserver calls N     exactly N requests so far
//	judgeserver log FILE    write the request log to FILE
func cmdJudgeServer(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: judgeserver start|calls N|log FILE")
	}
	f := ts.Value(judgeKey{}).(*fakeJudge) // one per script, made by Setup
	switch args[0] {
	case "start":
		f.seen = map[string]int{}
		srv := httptest.NewServer(f)
		ts.Defer(srv.Close)
		ts.Setenv("JUDGE_URL", srv.URL)
	case "calls":
		want, _ := strconv.Atoi(args[1])
		f.mu.Lock()
		got := f.calls
		f.mu.Unlock()
		if (got == want) == neg {
			ts.Fatalf("the judge server had %d requests; want %s%d", got, map[bool]string{true: "not "}[neg], want)
		}
	case "log":
		f.mu.Lock()
		text := strings.Join(f.log, "\n") + "\n"
		f.mu.Unlock()
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(text), 0o644))
	default:
		ts.Fatalf("judgeserver: unknown action %q", args[0])
	}
}

// judgeHelperMain is a command judge (protocol evalgate-judge/1): it reads the request on stdin,
// appends one line to the file its first argument names, and answers as the scripted server does.
// Its second argument is the model.
func judgeHelperMain(args []string) int {
	var req struct {
		Protocol string `json:"protocol"`
		User     string `json:"user"`
		Model    string `json:"model"`
		Run      int    `json:"run"`
		Runs     int    `json:"runs"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil || req.Protocol != "evalgate-judge/1" {
		fmt.Fprintln(os.Stderr, "judgehelper: not a judge request:", err)
		return 3
	}
	if len(args) > 0 {
		if fh, err := os.OpenFile(args[0], os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintf(fh, "model=%s run=%d/%d\n", req.Model, req.Run, req.Runs)
			fh.Close()
		}
	}
	f := &fakeJudge{seen: map[string]int{}}
	for range req.Run - 1 {
		f.decide(req.User) // the runs before this one, for "split"
	}
	status, content := f.decide(req.User)
	if status != 200 || content == "REFUSE" {
		fmt.Fprintln(os.Stderr, "judgehelper: no verdict")
		return 1
	}
	fmt.Println(content)
	return 0
}

// cmdAbsent fails when TEXT (after expanding variables) occurs in any file under the PATHs: a key
// never reaches a report, a cache entry or a log.
//
//	absent TEXT PATH...
func cmdAbsent(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 || neg {
		ts.Fatalf("usage: absent TEXT PATH...")
	}
	text := args[0]
	if text == "" {
		ts.Fatalf("absent: empty TEXT")
	}
	files := 0
	for _, p := range args[1:] {
		if p == "stdout" || p == "stderr" {
			if strings.Contains(ts.ReadFile(p), text) {
				ts.Fatalf("%s holds %q", p, text)
			}
			files++
			continue
		}
		err := filepath.WalkDir(ts.MkAbs(p), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			if strings.Contains(string(b), text) {
				ts.Fatalf("%s holds %q", path, text)
			}
			return nil
		})
		ts.Check(err)
	}
	if files == 0 {
		ts.Fatalf("absent: no file to look in")
	}
}
