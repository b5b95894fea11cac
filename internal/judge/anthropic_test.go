package judge

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func message(stop, content string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		io.WriteString(w, `{"model": "claude-answered", "stop_reason": "`+stop+`", "content": [`+content+`], "usage": {"input_tokens": 10, "output_tokens": 5}}`)
	}
}

// TestAnthropic: the forced tool call's input is the verdict; a refusal, a
// reply cut at max_tokens and a reply without the call are no verdict; 529
// is retried.
func TestAnthropic(t *testing.T) {
	tool := `{"type": "tool_use", "name": "verdict", "input": ` + goodVerdict + `}`
	tests := []struct {
		name     string
		steps    []func(http.ResponseWriter)
		want     string
		requests int
	}{
		{"a verdict", []func(http.ResponseWriter){message("tool_use", `{"type": "text", "text": "Let me judge."}, `+tool)}, "pass", 1},
		{"a refusal", []func(http.ResponseWriter){message("refusal", "")}, "the judge refused", 1},
		{"cut", []func(http.ResponseWriter){message("max_tokens", `{"type": "text", "text": "{"}`)}, "the reply was cut", 1},
		{"prose only", []func(http.ResponseWriter){message("end_turn", `{"type": "text", "text": "It passes."}`)}, "invalid verdict: the reply made no verdict tool call", 1},
		{"529 then a verdict", []func(http.ResponseWriter){status(529, nil, `{"type": "error", "error": {"type": "overloaded_error"}}`), message("tool_use", tool)}, "pass", 2},
	}
	for _, tt := range tests {
		srv := &scripted{steps: tt.steps}
		ts := httptest.NewServer(srv)
		a := &Anthropic{BaseURL: ts.URL, Key: "sk-ant-secret", Model: "claude-sonnet-4", MaxOutputTokens: 512,
			Timeout: time.Second, Retries: 2, Client: ts.Client(), Sleep: func(context.Context, time.Duration) error { return nil }}
		reply, err := a.Ask(context.Background(), testPrompt)
		got := ""
		if err != nil {
			got = err.Error()
		} else if v, perr := Parse(reply.Text, []byte("Run the installer."), false, nil); perr != nil {
			got = perr.Error()
		} else {
			got = v.Verdict
		}
		if !strings.HasPrefix(got, tt.want) || len(srv.requests) != tt.requests {
			t.Errorf("%s: got %q after %d requests, want %q after %d", tt.name, got, len(srv.requests), tt.want, tt.requests)
		}
		r := srv.requests[0]
		choice, _ := r.body["tool_choice"].(map[string]any)
		if r.path != "/v1/messages" || r.header.Get("x-api-key") != "sk-ant-secret" || r.header.Get("anthropic-version") != AnthropicVersion ||
			r.header.Get("Authorization") != "" || r.body["max_tokens"] != float64(512) || choice["name"] != "verdict" || r.body["system"] == nil {
			b, _ := json.Marshal(r.body)
			t.Errorf("%s: request %s %v %s", tt.name, r.path, r.header, b)
		}
		tools, _ := r.body["tools"].([]any)
		if len(tools) != 1 {
			t.Fatalf("%s: tools %v", tt.name, r.body["tools"])
		}
		schema, _ := tools[0].(map[string]any)["input_schema"].(map[string]any)
		if schema["additionalProperties"] != false || schema["type"] != "object" {
			t.Errorf("%s: the tool's input_schema is %v", tt.name, schema)
		}
		if _, sent := r.body["temperature"]; sent {
			t.Errorf("%s: temperature sent though not set", tt.name)
		}
		ts.Close()
	}
}
