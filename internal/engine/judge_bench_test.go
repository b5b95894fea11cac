package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/judge"
	"github.com/evalgate/evalgate/internal/testfs"
)

// The judge's benchmarks (README "The AI judge"). Each runs evalgate and its baseline in turns, one
// of each an iteration (inTurns), and reports their ratio as a metric; read it with benchstat as it is:
//
//	go test ./internal/engine -run '^$' -bench 'Judge|Cached' -count 6 | tee judge.txt
//	benchstat judge.txt
//
// Judge checks 200 ai evals against a loopback server with no cache (evalgate); its baseline (bare)
// makes the same 200 requests (the same bodies, answered the same way) with net/http alone, four at a
// time as the judge's concurrency does, decoding each reply. The ratio is evalgate's own overhead per
// judged eval: reading pages, rendering prompts, parsing verdicts, reporting. The server answers at
// once (latency=0s, the overhead at its largest) or after 2 ms (latency=2ms, faster than any model).
//
// Cached checks 1,000 ai evals whose verdicts are all in the cache (ai), and the same 1,000 evals as
// tool:contains; per-page=1 spreads them over 1,000 pages, per-page=10 over 100.

const (
	judgedPages  = 20
	evalsPerPage = 10
	cachedEvals  = 1000
)

// verdictServer answers every request, after latency, with one passing verdict on the page text
// "Run the installer."
func verdictServer(latency time.Duration) *httptest.Server {
	body := []byte(`{"model": "m", "choices": [{"finish_reason": "stop", "message": {"content": ` +
		`"{\"quotes\": [\"Run the installer.\"], \"reasoning\": \"It says how.\", \"verdict\": \"pass\"}"}}]}`)
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		time.Sleep(latency)
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
}

// judgeTree writes pages×per ai evals (or tool:contains evals) under a config judging with url.
func judgeTree(b *testing.B, url string, pages, per int, contains bool) string {
	files := map[string]string{".evalgate.yaml": fmt.Sprintf(`version: 1
ai:
  judge: main
  providers:
    main: {kind: openai, base-url: %q, api-key-env: K, model: m}
  concurrency: 4
`, url)}
	for p := range pages {
		var page strings.Builder
		page.WriteString("---\nevals:\n")
		for e := range per {
			if contains {
				fmt.Fprintf(&page, "  - id: e%d\n    grader: tool:contains\n    options: {text: \"Run the installer.\"}\n", e)
			} else {
				fmt.Fprintf(&page, "  - id: e%d\n    assertion: Page %d says how to install, point %d.\n", e, p, e)
			}
		}
		page.WriteString("---\n# Install\n\nRun the installer.\n")
		files[fmt.Sprintf("docs/p%03d.md", p)] = page.String()
	}
	return testfs.Tree(b, files)
}

func BenchmarkJudge(b *testing.B) {
	for _, latency := range []time.Duration{0, 2 * time.Millisecond} {
		b.Run("latency="+latency.String(), func(b *testing.B) { benchJudge(b, latency) })
	}
}

func benchJudge(b *testing.B, latency time.Duration) {
	srv := verdictServer(latency)
	defer srv.Close()
	n := judgedPages * evalsPerPage
	opts := Options{Mode: ModeCheck, Dir: judgeTree(b, srv.URL, judgedPages, evalsPerPage, false), All: true, Env: []string{"K=key"},
		Judging: JudgeOptions{NoCache: true}}
	evalgate := func() {
		rep, err := Run(context.Background(), opts)
		if err != nil || rep.Summary.Pass != n {
			b.Fatalf("%v, %+v", err, rep.Summary)
		}
	}
	// The same requests evalgate sends: the rendered prompts, given, in the strict request, encoded
	// for each request as any client must (the schema's part once).
	prompts := make([]judge.Prompt, n)
	for i := range prompts {
		prompts[i] = judge.Render(judge.Input{Assertion: fmt.Sprintf("Page %d says how to install, point %d.", i/evalsPerPage, i%evalsPerPage),
			Kind: "body", Path: "docs/p.md", Target: []byte("# Install\n\nRun the installer.\n")})
	}
	format, _ := json.Marshal(map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "verdict", "strict": true, "schema": judge.Schema}})
	client := &http.Client{}
	ask := func(i int) {
		body, _ := json.Marshal(map[string]any{"model": "m", "max_completion_tokens": 1024, "response_format": json.RawMessage(format),
			"messages": []map[string]string{{"role": "system", "content": prompts[i].System}, {"role": "user", "content": prompts[i].User}}})
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/chat/completions", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer key")
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			b.Error(err)
			return
		}
		var r struct {
			Choices []struct{ Message struct{ Content string } }
		}
		json.NewDecoder(resp.Body).Decode(&r)
		resp.Body.Close()
		var v judge.Verdict
		if len(r.Choices) == 0 || json.Unmarshal([]byte(r.Choices[0].Message.Content), &v) != nil {
			b.Error("no verdict")
		}
	}
	bare := func() { parallel(4, n, ask) } // a plain pool of four goroutines, as the judge's concurrency
	inTurns(b, [2]string{"evalgate", "bare"}, evalgate, bare)
}

// inTurns runs first and then second once an iteration, so that a busy machine slows both alike, and
// reports the time of each and their ratio (first over second), and the ratio of their CPU time (user
// and system, of the whole process: the steadier measure where other work shares the cores) where the
// system reports it.
func inTurns(b *testing.B, names [2]string, first, second func()) {
	var wall, cpu [2]time.Duration
	for b.Loop() {
		for k, f := range [2]func(){first, second} {
			start, startCPU := time.Now(), cpuTime()
			f()
			wall[k] += time.Since(start)
			cpu[k] += cpuTime() - startCPU
		}
	}
	for k, name := range names {
		b.ReportMetric(wall[k].Seconds()*1e3/float64(b.N), name+"-ms/op")
	}
	b.ReportMetric(wall[0].Seconds()/wall[1].Seconds(), "ratio")
	if cpu[1] > 0 {
		b.ReportMetric(cpu[0].Seconds()/cpu[1].Seconds(), "cpu-ratio")
	}
}

func BenchmarkCached(b *testing.B) {
	for _, per := range []int{1, 10} {
		b.Run(fmt.Sprintf("per-page=%d", per), func(b *testing.B) { benchCached(b, cachedEvals/per, per) })
	}
}

// benchCached checks the cached ai evals and the tool:contains ones in turns (inTurns).
func benchCached(b *testing.B, pages, per int) {
	n := pages * per
	srv := verdictServer(0)
	ai := Options{Mode: ModeCheck, Dir: judgeTree(b, srv.URL, pages, per, false), All: true, Env: []string{"K=key"}}
	if rep, err := Run(context.Background(), ai); err != nil || rep.Summary.Pass != n { // fills the cache
		b.Fatalf("%v, %+v", err, rep.Summary)
	}
	srv.Close() // every verdict must now come from the cache
	ai.Env = nil
	contains := Options{Mode: ModeCheck, Dir: judgeTree(b, "http://127.0.0.1:1", pages, per, true), All: true}
	run := func(opts Options, cached int) func() {
		return func() {
			rep, err := Run(context.Background(), opts)
			if err != nil || rep.Summary.Pass != n || rep.Seen.JudgeCached != cached {
				b.Fatalf("%v, %+v, %+v", err, rep.Summary, rep.Seen)
			}
		}
	}
	inTurns(b, [2]string{"ai", "contains"}, run(ai, n), run(contains, 0))
	if m, _ := filepath.Glob(filepath.Join(ai.Dir, ".evalgate", "cache", "judge", "*", "*.json")); len(m) != n {
		b.Fatalf("%d cache entries, want %d", len(m), n)
	}
}
