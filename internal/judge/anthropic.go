package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// AnthropicVersion is the Messages API version requested.
const AnthropicVersion = "2023-06-01"

// Anthropic is a judge on Anthropic's Messages API (README "The AI judge"): POST {BaseURL}/v1/messages
// with one tool, verdict, whose input schema is the verdict's, and a tool_choice that forces the call.
type Anthropic struct {
	BaseURL, Key, Model string
	Headers             map[string]string

	Temperature     *float64
	MaxOutputTokens int // max_tokens, which the API requires
	Timeout         time.Duration
	Retries         int

	Client *http.Client
	Sleep  func(ctx context.Context, d time.Duration) error
}

// Ask sends one run's prompt, retried as [OpenAI.Ask] is (529 overloaded too), and returns the
// verdict tool's input as the reply.
func (a *Anthropic) Ask(ctx context.Context, p Prompt) (Reply, error) {
	req := map[string]any{
		"model":      a.Model,
		"max_tokens": max(a.MaxOutputTokens, 1),
		"system":     p.System,
		"messages":   []map[string]string{{"role": "user", "content": p.User}},
		"tools": []map[string]any{{"name": "verdict", "description": "Record the verdict on the assertion.",
			"input_schema": json.RawMessage(schemaJSON)}},
		"tool_choice": map[string]string{"type": "tool", "name": "verdict"},
	}
	if a.Temperature != nil {
		req["temperature"] = *a.Temperature
	}
	buf, err := json.Marshal(req)
	if err != nil {
		return Reply{}, err
	}
	body, err := ask(ctx, a.Retries, a.Sleep, a.Key, func() ([]byte, int, http.Header, error) {
		rctx, cancel := context.WithTimeout(ctx, a.Timeout)
		defer cancel()
		hr, err := http.NewRequestWithContext(rctx, http.MethodPost, strings.TrimRight(a.BaseURL, "/")+"/v1/messages", bytes.NewReader(buf))
		if err != nil {
			return nil, 0, nil, err
		}
		hr.Header.Set("Content-Type", "application/json")
		for k, v := range a.Headers {
			hr.Header.Set(k, v)
		}
		hr.Header.Set("anthropic-version", AnthropicVersion)
		hr.Header.Set("x-api-key", a.Key)
		return send(a.Client, hr)
	})
	if err != nil {
		return Reply{}, err
	}
	var r struct {
		Model      string `json:"model"`
		StopReason string `json:"stop_reason"`
		Content    []struct {
			Type  string          `json:"type"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
			Text  string          `json:"text"`
		} `json:"content"`
		Usage struct {
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return Reply{}, fmt.Errorf("%w: the server's response is not a message", ErrInvalid)
	}
	switch r.StopReason {
	case "refusal":
		return Reply{}, fmt.Errorf("%w: the model declined to answer", ErrRefused)
	case "max_tokens":
		return Reply{}, fmt.Errorf("%w: raise ai.max-output-tokens", ErrCut)
	}
	for _, c := range r.Content {
		if c.Type == "tool_use" && c.Name == "verdict" {
			return Reply{Text: bytes.TrimSpace(c.Input), Model: r.Model, Tokens: r.Usage.InputTokens + r.Usage.OutputTokens}, nil
		}
	}
	return Reply{}, fmt.Errorf("%w: the reply made no verdict tool call", ErrInvalid)
}
