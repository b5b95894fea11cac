package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/testfs"
)

// replies is a Chat Completions server that answers request i with steps[i] (the last step
// repeats) and counts requests.
type replies struct {
	mu    sync.Mutex
	steps []func(w http.ResponseWriter)
	n     int
	keys  []string // the Authorization header of each request
}

func (s *replies) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	s.mu.Lock()
	step := s.steps[min(s.n, len(s.steps)-1)]
	s.n++
	s.keys = append(s.keys, r.Header.Get("Authorization"))
	s.mu.Unlock()
	step(w)
}

func answer(content, finish string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		c, _ := json.Marshal(content)
		fmt.Fprintf(w, `{"model": "m-answered", "choices": [{"finish_reason": %q, "message": {"content": %s}}]}`, finish, c)
	}
}

func statusOnly(code int, retryMS string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		if retryMS != "" {
			w.Header().Set("retry-after-ms", retryMS)
		}
		w.WriteHeader(code)
		fmt.Fprint(w, `{"error": {"message": "echoing the key sk-engine-key-123"}}`)
	}
}

const (
	passVerdict    = `{"quotes": ["Run the installer."], "reasoning": "It says how.", "verdict": "pass"}`
	failVerdict    = `{"quotes": [], "reasoning": "No version named.", "verdict": "fail"}`
	partialVerdict = `{"quotes": [], "reasoning": "Only in part.", "verdict": "partial"}`
)

// judgeRun checks a one-page repository whose ai eval (runs runs) is judged by a server with steps,
// and returns the eval's result and the number of requests.
func judgeRun(t *testing.T, steps []func(http.ResponseWriter), runs int, extra string) (diag.Result, int, []string) {
	t.Helper()
	srv := &replies{steps: steps}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir := testfs.Tree(t, map[string]string{
		".evalgate.yaml": fmt.Sprintf(`version: 1
ai:
  judge: main
  providers:
    main: {kind: openai, base-url: %q, api-key-env: JUDGE_KEY, model: m}
  retries: 1
  timeout-ms: 200
  cache: ""
%s`, ts.URL, extra),
		"docs/a.md": fmt.Sprintf("---\nevals:\n  - id: says\n    runs: %d\n    assertion: The page says how to install.\n---\nRun the installer.\n", runs),
	})
	rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true, Env: []string{"JUDGE_KEY=sk-engine-key-123"}})
	if err != nil {
		t.Fatal(err)
	}
	ts.Close() // waits for a handler still running past a timeout
	srv.mu.Lock()
	defer srv.mu.Unlock()
	for _, r := range rep.Results.Slice() {
		if r.Check == "says" && !r.Verdictless {
			return r, srv.n, srv.keys
		}
	}
	t.Fatalf("no result for the eval in %+v", rep.Results.Slice())
	return diag.Result{}, 0, nil
}

// TestJudgeOutcomes: each server behaviour gives the eval its outcome and code (README "The AI
// judge"), in the number of requests the retries allow, and no message holds the key.
func TestJudgeOutcomes(t *testing.T) {
	hang := func(http.ResponseWriter) { time.Sleep(400 * time.Millisecond) }
	tests := []struct {
		name     string
		steps    []func(http.ResponseWriter)
		runs     int
		outcome  diag.Outcome
		code     string
		requests int
	}{
		{"pass", []func(http.ResponseWriter){answer(passVerdict, "stop")}, 1, diag.Pass, "judge_pass", 1},
		{"fail", []func(http.ResponseWriter){answer(failVerdict, "stop")}, 1, diag.Fail, "judge_fail", 1},
		{"partial is a fail", []func(http.ResponseWriter){answer(partialVerdict, "stop")}, 1, diag.Fail, "judge_fail", 1},
		{"prose", []func(http.ResponseWriter){answer("Looks fine to me.", "stop")}, 1, diag.Error, "judge_failed", 1},
		{"fenced while strict", []func(http.ResponseWriter){answer("```json\n"+passVerdict+"\n```", "stop")}, 1, diag.Error, "judge_failed", 1},
		{"two objects", []func(http.ResponseWriter){answer(passVerdict+passVerdict, "stop")}, 1, diag.Error, "judge_failed", 1},
		{"an invented quote", []func(http.ResponseWriter){answer(`{"quotes": ["Download the zip."], "reasoning": "", "verdict": "pass"}`, "stop")}, 1, diag.Error, "judge_failed", 1},
		{"cut at the limit", []func(http.ResponseWriter){answer(`{"quotes": [`, "length")}, 1, diag.Error, "judge_failed", 1},
		{"a refusal", []func(http.ResponseWriter){func(w http.ResponseWriter) {
			fmt.Fprint(w, `{"choices": [{"finish_reason": "stop", "message": {"content": null, "refusal": "No."}}]}`)
		}}, 1, diag.Error, "judge_refused", 1},
		{"a content filter", []func(http.ResponseWriter){answer("", "content_filter")}, 1, diag.Error, "judge_refused", 1},
		{"400 on response_format", []func(http.ResponseWriter){func(w http.ResponseWriter) {
			w.WriteHeader(400)
			fmt.Fprint(w, `{"error": {"message": "response_format is not supported"}}`)
		}, answer("```json\n"+passVerdict+"\n```", "stop")}, 1, diag.Pass, "judge_pass", 2},
		{"401", []func(http.ResponseWriter){statusOnly(401, "")}, 1, diag.Error, "judge_failed", 1},
		{"429 then pass", []func(http.ResponseWriter){statusOnly(429, "1"), answer(passVerdict, "stop")}, 1, diag.Pass, "judge_pass", 2},
		{"500 past the retries", []func(http.ResponseWriter){statusOnly(500, "1")}, 1, diag.Error, "judge_failed", 2},
		{"503 then pass", []func(http.ResponseWriter){statusOnly(503, "1"), answer(passVerdict, "stop")}, 1, diag.Pass, "judge_pass", 2},
		{"529 then pass", []func(http.ResponseWriter){statusOnly(529, "1"), answer(passVerdict, "stop")}, 1, diag.Pass, "judge_pass", 2},
		{"hangs past the timeout", []func(http.ResponseWriter){hang}, 1, diag.Error, "judge_failed", 2},
		{"runs that disagree", []func(http.ResponseWriter){answer(passVerdict, "stop"), answer(failVerdict, "stop")}, 2, diag.Pending, "judge_split", 2},
		{"runs that agree, one failed", []func(http.ResponseWriter){answer(passVerdict, "stop"), answer("prose", "stop")}, 2, diag.Pending, "judge_incomplete", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, n, keys := judgeRun(t, tt.steps, tt.runs, "")
			if res.Outcome != tt.outcome || res.Code != tt.code || n != tt.requests {
				t.Errorf("got %s %s in %d requests (%s); want %s %s in %d", res.Outcome, res.Code, n, res.Message, tt.outcome, tt.code, tt.requests)
			}
			js, _ := json.Marshal(res)
			if strings.Contains(string(js), "sk-engine-key-123") {
				t.Errorf("the key reached the result: %s", js)
			}
			for _, k := range keys {
				if k != "Bearer sk-engine-key-123" {
					t.Errorf("request header Authorization %q", k)
				}
			}
		})
	}
}

// TestJudgeAgreement: agreement below 1 lets a majority stand; the evidence counts the votes.
func TestJudgeAgreement(t *testing.T) {
	steps := []func(http.ResponseWriter){answer(passVerdict, "stop"), answer(passVerdict, "stop"), answer(failVerdict, "stop")}
	res, n, _ := judgeRun(t, steps, 3, "  agreement: 0.6\n")
	votes, _ := res.Evidence["votes"].(map[string]any)
	if res.Code != "judge_pass" || n != 3 || votes["pass"] != 2 || votes["fail"] != 1 {
		t.Errorf("got %s in %d requests, votes %v", res.Code, n, res.Evidence["votes"])
	}
}

// TestJudgeInputTooLarge: a target over ai.max-target-bytes is never sent, and never truncated.
func TestJudgeInputTooLarge(t *testing.T) {
	res, n, _ := judgeRun(t, []func(http.ResponseWriter){answer(passVerdict, "stop")}, 1, "  max-target-bytes: 8\n")
	if res.Code != "judge_input_too_large" || res.Outcome != diag.Error || n != 0 {
		t.Errorf("got %s %s in %d requests", res.Outcome, res.Code, n)
	}
}

// TestSelfPreference: the note comes when the judge model wrote the page or proposed the eval.
func TestSelfPreference(t *testing.T) {
	for _, tt := range []struct {
		front string
		note  bool
	}{
		{"generated-by: M\n", true},
		{"eval-provenance:\n  - generated-by: m\n    evals: [says]\n", true},
		{"eval-provenance:\n  - generated-by: m\n", true},
		{"eval-provenance:\n  - generated-by: m\n    evals: [other]\n", false},
		{"generated-by: another-model\n", false},
	} {
		dir := testfs.Tree(t, map[string]string{
			"docs/a.md":      "---\n" + tt.front + "evals:\n  - id: says\n    assertion: It holds.\n---\nText.\n",
			".evalgate.yaml": "version: 1\nai:\n  judge: main\n  providers:\n    main: {kind: openai, api-key-env: K, model: m}\n",
		})
		rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true})
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, r := range rep.Results.Slice() {
			if r.Code == "judge_self_preference" {
				got = r.Severity == diag.SeverityWarning && r.Verdictless
			}
		}
		if got != tt.note {
			t.Errorf("%q: note = %v, want %v", tt.front, got, tt.note)
		}
	}
}

// TestPageDocument: a page's ai evals that judge the same bytes share one prompt document, and a
// target of other bytes, even of the same length, gets its own: every prompt is Render's.
func TestPageDocument(t *testing.T) {
	ps := &pageState{}
	body, other := []byte("Run the installer.\n"), []byte("Run the uninstall.\n")
	for _, target := range [][]byte{body, body, other, body[:4], body, nil, {}} {
		in := judge.Input{Assertion: "It says how.", Kind: "body", Path: "p.md", Target: target}
		if got, want := judge.RenderDocument(in, ps.document(target)), judge.Render(in); got != want {
			t.Fatalf("target %q: prompt\n%q\nwant\n%q", target, got.User, want.User)
		}
	}
	ps.document(body)
	if !sameBytes(ps.judged.of, body) || sameBytes(body, other) || sameBytes(body, body[:4]) {
		t.Error("sameBytes or the page's document does not follow the target")
	}
}

// TestJudgeRedirectKeepsKey: a redirect to another origin is not followed, so no header of the request
// (x-api-key, api-key, a configured header) reaches the other host; the eval is an error that says why.
// A redirect within base-url's origin is followed.
func TestJudgeRedirectKeepsKey(t *testing.T) {
	var mu sync.Mutex
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		leaked = append(leaked, r.Header.Get("api-key"), r.Header.Get("Authorization"))
		mu.Unlock()
		answer(passVerdict, "stop")(w)
	}))
	defer other.Close()
	var base *httptest.Server
	base = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away/chat/completions":
			http.Redirect(w, r, other.URL+"/v1/chat/completions", http.StatusTemporaryRedirect)
		case "/here/chat/completions":
			http.Redirect(w, r, base.URL+"/v1/chat/completions", http.StatusTemporaryRedirect)
		default:
			if r.Header.Get("api-key") != "sk-engine-key-123" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			answer(passVerdict, "stop")(w)
		}
	}))
	defer base.Close()
	for _, tt := range []struct{ path, outcome, says string }{
		{"/away", "error", "another origin"},
		{"/here", "pass", ""},
	} {
		dir := testfs.Tree(t, map[string]string{
			".evalgate.yaml": fmt.Sprintf("version: 1\nai:\n  judge: main\n  providers:\n    main: {kind: openai, auth: api-key, base-url: %q, api-key-env: JUDGE_KEY, model: m}\n  retries: 0\n  cache: \"\"\n", base.URL+tt.path),
			"docs/a.md":      "---\nevals:\n  - id: says\n    assertion: The page says how to install.\n---\nRun the installer.\n",
		})
		rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true, Env: []string{"JUDGE_KEY=sk-engine-key-123"}})
		if err != nil {
			t.Fatal(err)
		}
		var got *diag.Result
		for _, r := range rep.Results.Slice() {
			if r.Check == "says" && !r.Verdictless {
				got = &r
			}
		}
		if got == nil || string(got.Outcome) != tt.outcome || !strings.Contains(got.Message, tt.says) || strings.Contains(got.Message, "sk-engine") {
			t.Errorf("%s: got %+v, want outcome %s saying %q", tt.path, got, tt.outcome, tt.says)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) > 0 {
		t.Errorf("the other origin was asked, with headers %q", leaked)
	}
}

// TestJudgeKeyEscapedNeverCached: a judge whose reasoning holds the key JSON-escaped (\u0073\u006b...),
// which decodes to the key in clear, has it masked in its cache entry too: the entry, which a later
// run without the key (a fork's) replays, held it in clear. The entry's reasoning is also bounded as
// evidence's is, so that the cache can read it back.
func TestJudgeKeyEscapedNeverCached(t *testing.T) {
	const key = "sk-engine-key-123"
	var escaped strings.Builder
	for _, c := range key {
		fmt.Fprintf(&escaped, `\u%04x`, c)
	}
	verdict := `{"quotes": [], "reasoning": "your key is ` + escaped.String() + ` ` + strings.Repeat("R", 3<<20) + `", "verdict": "fail"}`
	srv := &replies{steps: []func(http.ResponseWriter){func(w http.ResponseWriter) {
		fmt.Fprintf(w, `{"model": "m", "choices": [{"finish_reason": "stop", "message": {"content": %q}}]}`, verdict)
	}}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir := testfs.Tree(t, map[string]string{
		".evalgate.yaml": fmt.Sprintf("version: 1\nai:\n  judge: main\n  providers:\n    main: {kind: openai, base-url: %q, api-key-env: JUDGE_KEY, model: m}\n", ts.URL),
		"docs/a.md":      "---\nevals:\n  - The page says how to install.\n---\nRun the installer.\n",
	})
	for _, env := range [][]string{{"JUDGE_KEY=" + key}, nil} { // then the cache alone
		rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true, Env: env})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Results.Slice() {
			if b, _ := json.Marshal(r); r.Grader == "ai" && (strings.Contains(string(b), key) || !strings.Contains(string(b), "your key is ***")) {
				t.Errorf("key %v: the result %s", env != nil, b)
			}
		}
	}
	if srv.n != 1 {
		t.Errorf("%d requests: the run was not replayed from the cache", srv.n)
	}
	filepath.WalkDir(filepath.Join(dir, ".evalgate"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), key) || len(b) > 1<<20 {
				t.Errorf("%s: %d bytes, the key in clear: %v", p, len(b), strings.Contains(string(b), key))
			}
		}
		return err
	})
}

// installPages is a repository of n pages of about size bytes, each with one ai eval, judged by the
// OpenAI-compatible server at url, with no cache.
func installPages(t *testing.T, url string, n, size int) string {
	files := map[string]string{".evalgate.yaml": fmt.Sprintf("version: 1\nai:\n  judge: main\n  cache: \"\"\n  providers:\n    main: {kind: openai, base-url: %q, api-key-env: JUDGE_KEY, model: m}\n", url)}
	body := "Run the installer.\n" + strings.Repeat("Some more words about the tool.\n", size/32)
	for i := range n {
		files[fmt.Sprintf("docs/p%03d.md", i)] = "---\nevals:\n  - The page says how to install.\n---\n" + body
	}
	return testfs.Tree(t, files)
}

// TestJudgePlansReleased: an ai eval's plan (its target and prompt) is let go once the eval is graded.
// The chunk's jobs are kept to the end for their verdicts, and 500 plans on 200 KB pages held 375 MB.
// When the last eval is graded, what is still live (a collection counts it) is far less than the
// plans would be.
func TestJudgePlansReleased(t *testing.T) {
	const pages, size = 150, 200 << 10
	srv := &replies{steps: []func(http.ResponseWriter){answer(passVerdict, "stop")}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir := installPages(t, ts.URL, pages, size)
	var live uint64
	progress := func(done, total int) {
		if done == pages && total == pages {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			live = m.HeapAlloc
		}
	}
	rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true, Progress: progress, Env: []string{"JUDGE_KEY=sk-engine-key-123"}})
	if err != nil || rep.Summary.Pass != pages {
		t.Fatalf("%v, %+v", err, rep.Summary)
	}
	t.Logf("%d MB live", live>>20)
	if plans := uint64(pages * size); live == 0 || live > plans/2 {
		t.Errorf("%d MB live when the last eval was graded; the plans alone are %d MB", live>>20, plans>>20)
	}
}

// TestReadAheadBytesBounded: while a judge is slow, the pages read ahead of it are bounded in bytes, not
// only in number: 64 pages of 8 MiB held 512 MiB. The judge answers once reading has had to wait for
// graded pages to let go of theirs; all along, what reading holds stays within the bound and a page a
// reader.
func TestReadAheadBytesBounded(t *testing.T) {
	const pages, size = 40, 200 << 10 // under max-target-bytes
	old := aheadBytes
	aheadBytes = 2 << 20
	full := make(chan struct{})
	var once sync.Once
	var peak atomic.Int64
	var mu sync.Mutex // the hook is called under the budget's lock; peak is read after the run
	aheadHeld = func(used int64, waiting bool) {
		mu.Lock()
		defer mu.Unlock()
		peak.Store(max(peak.Load(), used))
		if waiting {
			once.Do(func() { close(full) })
		}
	}
	defer func() { aheadBytes, aheadHeld = old, nil }()
	srv := &replies{steps: []func(http.ResponseWriter){func(w http.ResponseWriter) {
		select {
		case <-full:
		case <-time.After(20 * time.Second): // no bound: reading never waited, and the check below fails
		}
		answer(passVerdict, "stop")(w)
	}}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir := installPages(t, ts.URL, pages, size)
	const jobs = 2
	rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true, Jobs: jobs, Env: []string{"JUDGE_KEY=sk-engine-key-123"}})
	if err != nil || rep.Summary.Pass != pages {
		t.Fatalf("%v, %+v", err, rep.Summary)
	}
	select {
	case <-full:
	default:
		t.Fatal("reading never waited for the bytes it held: nothing bounds them")
	}
	// Each reader may have a page under way when the bound is reached, and the feeder one more.
	if p := peak.Load(); p > aheadBytes+(jobs+1)*(size+4096) {
		t.Errorf("reading held %d KiB ahead of a stalled judge; the bound is %d KiB and a page a reader", p>>10, aheadBytes>>10)
	}
}

// TestJudgeSecretsMasked: no secret reaches a report or the cache, whichever way a judge hands it back.
// The key's variable has a name no credential pattern knows (OPENAI_SK): it is still kept from every
// command. A reasoning that ends in the key across the 1,000-character cut, and a refusal across the
// 80-character cut, are masked before they are cut. A command judge's verdict is its output, masked as
// a command's is: every removed variable's value.
func TestJudgeSecretsMasked(t *testing.T) {
	const key, removed = "sk-SECRETKEY123456", "hunter2-VALUE-xyz"
	srv := &replies{steps: []func(http.ResponseWriter){
		answer(`{"quotes": [], "reasoning": "`+strings.Repeat("x", 1001-len(key))+key+`", "verdict": "fail"}`, "stop"),
		func(w http.ResponseWriter) {
			fmt.Fprintf(w, `{"model": "m", "choices": [{"finish_reason": "stop", "message": {"content": null, "refusal": %q}}]}`,
				strings.Repeat("r", 70)+key)
		},
	}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir := testfs.Tree(t, map[string]string{
		".evalgate.yaml": fmt.Sprintf("version: 1\nai:\n  judge: main\n  retries: 0\n  providers:\n"+
			"    main: {kind: openai, base-url: %q, api-key-env: OPENAI_SK, model: m}\n"+
			"    cli: {kind: command, command: [./judge.sh]}\n", ts.URL),
		"judge.sh": "#!/bin/sh\nprintf '%s' '{\"quotes\": [], \"reasoning\": \"found " + removed + "\", \"verdict\": \"fail\"}'\n",
		"env.sh":   "#!/bin/sh\nenv\nexit 1\n", // fails, so that its output is the result's evidence
		"docs/a.md": "---\nevals:\n  - id: env\n    grader: command\n    command: [../env.sh]\n" +
			"  - id: long\n    assertion: The page says hello.\n  - id: refused\n    assertion: The page says goodbye.\n" +
			"  - id: cli\n    provider: cli\n    assertion: The page says hi.\n---\nhello\n",
	})
	for _, script := range []string{"judge.sh", "env.sh"} {
		if err := os.Chmod(filepath.Join(dir, script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "OPENAI_SK=" + key, "MY_SECRET=" + removed}
	rep, err := Run(context.Background(), Options{Mode: ModeCheck, Dir: dir, All: true, Env: env, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range rep.Results.Slice() {
		b, _ := json.Marshal(r)
		seen[r.Check] = true
		if strings.Contains(string(b), key[:8]) || strings.Contains(string(b), removed) {
			t.Errorf("a secret in the result %s", b)
		}
		if r.Check == "env" && (!strings.Contains(string(b), "PATH=") || strings.Contains(string(b), "OPENAI_SK")) {
			t.Errorf("the key's variable reached a command: %s", b)
		}
	}
	if !seen["env"] || !seen["long"] || !seen["refused"] || !seen["cli"] {
		t.Fatalf("results of %v, want env, long, refused and cli", seen)
	}
	filepath.WalkDir(filepath.Join(dir, ".evalgate"), func(p string, d fs.DirEntry, err error) error {
		if b, _ := os.ReadFile(p); err == nil && !d.IsDir() && (strings.Contains(string(b), key[:8]) || strings.Contains(string(b), removed)) {
			t.Errorf("%s holds a secret", p)
		}
		return err
	})
}
