package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// scripted is a Chat Completions server that answers request i with
// steps[i] (the last step repeats) and records every request.
type scripted struct {
	mu       sync.Mutex
	steps    []func(w http.ResponseWriter)
	requests []recorded
}

type recorded struct {
	path, query string
	header      http.Header
	body        map[string]any
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	json.Unmarshal(b, &body)
	s.mu.Lock()
	i := len(s.requests)
	s.requests = append(s.requests, recorded{r.URL.Path, r.URL.RawQuery, r.Header.Clone(), body})
	step := s.steps[min(i, len(s.steps)-1)]
	s.mu.Unlock()
	step(w)
}

func completion(content string, finish string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		c, _ := json.Marshal(content)
		io.WriteString(w, `{"model": "gpt-answered", "choices": [{"finish_reason": "`+finish+`", "message": {"content": `+string(c)+`}}], "usage": {"total_tokens": 42}}`)
	}
}

func status(code int, header map[string]string, body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

const goodVerdict = `{"quotes": ["Run the installer."], "reasoning": "It says how.", "verdict": "pass"}`

var testPrompt = Render(Input{Assertion: "The page says how to install.", Kind: "body", Path: "docs/i.md", Target: []byte("Run the installer.")})

// TestOpenAI: each scripted server behaviour gives its outcome, with the
// requests, headers and waits it should take.
func TestOpenAI(t *testing.T) {
	hang := func(w http.ResponseWriter) { time.Sleep(300 * time.Millisecond) }
	tests := []struct {
		name     string
		steps    []func(w http.ResponseWriter)
		want     string // the verdict, or the error's start
		requests int
		waits    []time.Duration
	}{
		{"a good answer", []func(http.ResponseWriter){completion(goodVerdict, "stop")}, "pass", 1, nil},
		{"fenced while strict", []func(http.ResponseWriter){completion("```json\n"+goodVerdict+"\n```", "stop")}, "invalid verdict: the reply is not a JSON object", 1, nil},
		{"prose", []func(http.ResponseWriter){completion("It passes.", "stop")}, "invalid verdict: the reply is not a JSON object", 1, nil},
		{"two objects", []func(http.ResponseWriter){completion(goodVerdict+goodVerdict, "stop")}, "invalid verdict: the reply holds more than one", 1, nil},
		{"a refusal", []func(http.ResponseWriter){status(200, nil, `{"choices": [{"finish_reason": "stop", "message": {"content": null, "refusal": "I cannot help."}}]}`)}, "the judge refused: I cannot help.", 1, nil},
		{"cut at the token limit", []func(http.ResponseWriter){completion(`{"quotes": [`, "length")}, "the reply was cut at the token limit: raise ai.max-output-tokens", 1, nil},
		{"no strict output", []func(http.ResponseWriter){status(400, nil, `{"error": {"message": "Unknown parameter: response_format"}}`), completion("```json\n"+goodVerdict+"\n```", "stop")}, "pass", 2, nil},
		{"401", []func(http.ResponseWriter){status(401, nil, `{"error": "bad key"}`)}, "the judge's server answered with an error: Unauthorized", 1, nil},
		{"429 retry-after", []func(http.ResponseWriter){status(429, map[string]string{"Retry-After": "2"}, ""), completion(goodVerdict, "stop")}, "pass", 2, []time.Duration{2 * time.Second}},
		{"429 retry-after-ms", []func(http.ResponseWriter){status(429, map[string]string{"Retry-After-Ms": "1500", "Retry-After": "9"}, ""), completion(goodVerdict, "stop")}, "pass", 2, []time.Duration{1500 * time.Millisecond}},
		{"a long retry-after is capped", []func(http.ResponseWriter){status(429, map[string]string{"Retry-After": "3600"}, ""), completion(goodVerdict, "stop")}, "pass", 2, []time.Duration{time.Minute}},
		{"500 then 503 then an answer", []func(http.ResponseWriter){status(500, nil, ""), status(503, nil, ""), completion(goodVerdict, "stop")}, "pass", 3, []time.Duration{time.Second, 2 * time.Second}},
		{"529 past the retries", []func(http.ResponseWriter){status(529, nil, "")}, "the judge's server answered with an error:  after 2 retries", 3, []time.Duration{time.Second, 2 * time.Second}},
		{"hangs past the timeout", []func(http.ResponseWriter){hang}, "Post", 3, []time.Duration{time.Second, 2 * time.Second}},
	}
	temp := 0.0
	for _, tt := range tests {
		srv := &scripted{steps: tt.steps}
		ts := httptest.NewServer(srv)
		var waits []time.Duration
		o := &OpenAI{BaseURL: ts.URL + "/v1/", Key: "sk-test-secret", Model: "gpt-4.1", MaxOutputTokens: 1024,
			Timeout: 100 * time.Millisecond, Retries: 2, Client: ts.Client(), Query: map[string]string{"api-version": "x"},
			Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
		if tt.name == "a good answer" {
			o.Temperature = &temp
		}
		reply, err := o.Ask(context.Background(), testPrompt)
		ts.Close() // waits for a handler still running past the timeout
		got := ""
		if err == nil {
			v, perr := Parse(reply.Text, []byte("Run the installer."), reply.Fenced, nil)
			got = v.Verdict
			if perr != nil {
				got = perr.Error()
			}
		} else {
			got = err.Error()
		}
		if !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
		if strings.Contains(got, "sk-test-secret") {
			t.Errorf("%s: the key is in %q", tt.name, got)
		}
		if len(srv.requests) != tt.requests || len(waits) != len(tt.waits) {
			t.Errorf("%s: %d requests, waits %v; want %d, %v", tt.name, len(srv.requests), waits, tt.requests, tt.waits)
		}
		for i := range min(len(waits), len(tt.waits)) {
			if waits[i] != tt.waits[i] {
				t.Errorf("%s: wait %d is %v, want %v", tt.name, i, waits[i], tt.waits[i])
			}
		}
		if len(srv.requests) == 0 {
			continue
		}
		r := srv.requests[0]
		if r.path != "/v1/chat/completions" || r.query != "api-version=x" || r.header.Get("Authorization") != "Bearer sk-test-secret" ||
			r.body["model"] != "gpt-4.1" || r.body["max_completion_tokens"] != float64(1024) {
			t.Errorf("%s: request %s?%s %v %v", tt.name, r.path, r.query, r.header, r.body)
		}
		for k, vs := range r.header {
			if k != "Authorization" && strings.Contains(strings.Join(vs, " "), "sk-test") {
				t.Errorf("%s: the key is in header %s", tt.name, k)
			}
		}
		if _, sent := r.body["temperature"]; sent != (tt.name == "a good answer") {
			t.Errorf("%s: temperature sent = %v", tt.name, sent)
		}
		rf, _ := r.body["response_format"].(map[string]any)
		if js, _ := rf["json_schema"].(map[string]any); rf["type"] != "json_schema" || js["strict"] != true {
			t.Errorf("%s: response_format %v", tt.name, r.body["response_format"])
		}
		if tt.name == "no strict output" {
			second := srv.requests[1]
			msgs, _ := second.body["messages"].([]any)
			user, _ := msgs[len(msgs)-1].(map[string]any)
			if _, has := second.body["response_format"]; has || !strings.Contains(user["content"].(string), `"additionalProperties":false`) {
				t.Errorf("the fallback request %v", second.body)
			}
		}
	}
}

// TestOpenAIAuth: api-key (Azure) and none.
func TestOpenAIAuth(t *testing.T) {
	for _, auth := range []string{"api-key", "none"} {
		srv := &scripted{steps: []func(http.ResponseWriter){completion(goodVerdict, "stop")}}
		ts := httptest.NewServer(srv)
		o := &OpenAI{BaseURL: ts.URL, Key: "k-123", Auth: auth, Model: "m", Timeout: time.Second, Client: ts.Client()}
		if _, err := o.Ask(context.Background(), testPrompt); err != nil {
			t.Fatal(err)
		}
		h := srv.requests[0].header
		if h.Get("Authorization") != "" || (auth == "api-key") != (h.Get("api-key") == "k-123") {
			t.Errorf("auth %s: headers %v", auth, h)
		}
		ts.Close()
	}
	ctx, stopped := context.WithCancel(context.Background())
	stopped()
	o := &OpenAI{BaseURL: "http://127.0.0.1:1", Model: "m", Timeout: time.Second, Retries: 3}
	if _, err := o.Ask(ctx, testPrompt); !errors.Is(err, context.Canceled) {
		t.Errorf("a stopped run: %v", err)
	}
}

// TestOpenAIEchoesNoKey: a server whose error body quotes the key, plainly, JSON-escaped (\/ or
// \u0073...) or across the clip of 80, hands it to no error text: the body is decoded before it is
// masked, and masked before it is clipped. A reply is read as sent: its words are masked where they
// are read (the engine's verdicts), so that a short key cannot break a valid verdict.
func TestOpenAIEchoesNoKey(t *testing.T) {
	const key = "sk-test/SECRET123"
	escaped := strings.ReplaceAll(key, "/", `\/`)
	var unicode strings.Builder
	for _, c := range key {
		fmt.Fprintf(&unicode, `\u%04x`, c)
	}
	for _, body := range []string{
		strings.Repeat("P", 57) + "Bearer " + key, // the key across the clip of 80
		`{"error": "bad key ` + escaped + `"}`,
		`{"error": {"message": "bad key ` + unicode.String() + `"}}`,
	} {
		srv := &scripted{steps: []func(http.ResponseWriter){status(403, nil, body)}}
		ts := httptest.NewServer(srv)
		o := &OpenAI{BaseURL: ts.URL, Key: key, Model: "m", Timeout: time.Second, Client: ts.Client()}
		if _, err := o.Ask(context.Background(), testPrompt); err == nil || strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), "***") {
			t.Errorf("%s: the error: %v", body, err)
		}
		ts.Close()
	}
	// A valid verdict holding a short key's letters is read as it was sent.
	srv := &scripted{steps: []func(http.ResponseWriter){func(w http.ResponseWriter) {
		c, _ := json.Marshal(`{"quotes": [], "reasoning": "it passes", "verdict": "pass"}`)
		io.WriteString(w, `{"model": "m", "choices": [{"finish_reason": "stop", "message": {"content": `+string(c)+`}}]}`)
	}}}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	o := &OpenAI{BaseURL: ts.URL, Key: "pass", Model: "m", Timeout: time.Second, Client: ts.Client()}
	reply, err := o.Ask(context.Background(), testPrompt)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := Parse(reply.Text, []byte("Run the installer."), reply.Fenced, nil); err != nil || !v.Passed() {
		t.Errorf("a key of 'pass': %v, %v", v, err)
	}
}

// TestRetryWait: a server's wait is capped at a minute however large, Inf included; NaN and negative
// waits are no waits of a server's, and the backoff stands.
func TestRetryWait(t *testing.T) {
	for _, c := range []struct {
		header, value string
		want          time.Duration
	}{
		{"retry-after", "1e10", maxRetryWait},
		{"retry-after", "2", 2 * time.Second},
		{"retry-after-ms", "Inf", maxRetryWait},
		{"retry-after-ms", "1e300", maxRetryWait},
		{"retry-after-ms", "250", 250 * time.Millisecond},
		{"retry-after", "NaN", time.Second},
		{"retry-after", "-5", time.Second},
	} {
		h := http.Header{}
		h.Set(c.header, c.value)
		if got := retryWait(h, 0); got != c.want {
			t.Errorf("%s: %s: %v, want %v", c.header, c.value, got, c.want)
		}
	}
}
