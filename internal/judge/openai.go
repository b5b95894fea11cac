package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/evalgate/evalgate/internal/envpolicy"
)

// Schema is the verdict's JSON Schema, strict: what a provider is asked to answer.
var Schema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"quotes":    map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		"reasoning": map[string]any{"type": "string"},
		"verdict":   map[string]any{"type": "string", "enum": []string{Pass, Fail, Partial}},
	},
	"required":             []string{"quotes", "reasoning", "verdict"},
	"additionalProperties": false,
}

// OpenAI is a judge on the Chat Completions API of OpenAI and every compatible server (README "The AI
// judge"): POST {BaseURL}/chat/completions, strict json_schema output, and the schema in the prompt when
// the server rejects response_format with a 400.
type OpenAI struct {
	BaseURL string
	Key     string // "" with Auth none
	Auth    string // bearer (default), api-key (Azure) or none
	Model   string
	Headers map[string]string
	Query   map[string]string

	Temperature     *float64 // sent only when set
	MaxOutputTokens int
	Timeout         time.Duration // one request
	Retries         int

	Client *http.Client
	// Sleep waits between retries; tests inject a clock. nil is a real wait that ends with ctx.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Reply is one answer of a provider: the text that should be the verdict, and how to read it.
type Reply struct {
	Text   []byte
	Fenced bool   // the schema went in the prompt: a ```json fence is accepted
	Model  string // the model that answered, as the server says
	Tokens int    // total tokens, when the server says
}

// Errors of a request, besides transport errors.
var (
	ErrRefused = errors.New("the judge refused")                         // judge_refused
	ErrCut     = errors.New("the reply was cut at the token limit")      // an invalid run
	ErrStatus  = errors.New("the judge's server answered with an error") // after the retries
)

// maxRetryWait caps a server's retry-after.
const maxRetryWait = 60 * time.Second

// maxReply bounds a response body.
const maxReply = 4 << 20

// Ask sends one run's prompt and returns the reply. Connection errors, timeouts, 408, 409, 429, 5xx and
// 529 are retried up to Retries times, waiting retry-after-ms or retry-after (capped at a minute) or a
// growing backoff; a 400 that names response_format is asked again once with the schema in the prompt.
func (o *OpenAI) Ask(ctx context.Context, p Prompt) (Reply, error) {
	strict := true
	body, err := ask(ctx, o.Retries, o.Sleep, o.Key, func() ([]byte, int, http.Header, error) {
		body, status, header, err := o.post(ctx, p, strict)
		if err == nil && status == http.StatusBadRequest && strict && bytes.Contains(body, []byte("response_format")) {
			strict = false // the server has no strict output: the schema goes in the prompt
			body, status, header, err = o.post(ctx, p, strict)
		}
		return body, status, header, err
	})
	if err != nil {
		return Reply{}, err
	}
	return o.read(body, !strict)
}

// ask makes a request until it succeeds, fails for good, or the retries are spent (README "The AI
// judge"); it returns a 200's body.
func ask(ctx context.Context, retries int, sleep func(context.Context, time.Duration) error, key string,
	do func() ([]byte, int, http.Header, error)) ([]byte, error) {
	if sleep == nil {
		sleep = wait
	}
	for attempt := 0; ; attempt++ {
		body, status, header, err := do()
		switch {
		case err == nil && status == http.StatusOK:
			return body, nil
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err == nil && !retryable(status):
			// Masked before the clip, so that no clip cuts the mask short.
			return nil, fmt.Errorf("%w: %s: %s", ErrStatus, http.StatusText(status), clip(maskText(plainJSON(body), key)))
		case attempt >= retries && err != nil:
			return nil, maskKey(err, key)
		case attempt >= retries:
			return nil, fmt.Errorf("%w: %s after %d retries", ErrStatus, http.StatusText(status), retries)
		}
		if serr := sleep(ctx, retryWait(header, attempt)); serr != nil {
			return nil, serr
		}
	}
}

// wait is a real wait that ends with ctx.
func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// retryable says which statuses are worth asking again.
func retryable(status int) bool {
	return status == 408 || status == 409 || status == 429 || status >= 500
}

// retryWait is the wait before retry attempt+1: the server's retry-after-ms or retry-after (seconds),
// capped, else a backoff of 1 s, 2 s, 4 s...
func retryWait(h http.Header, attempt int) time.Duration {
	if h != nil {
		// Capped as floats: 1e10 seconds, or Inf, overflows a Duration into no wait at all.
		if ms, err := strconv.ParseFloat(h.Get("retry-after-ms"), 64); err == nil && ms >= 0 {
			return time.Duration(min(ms, float64(maxRetryWait.Milliseconds())) * float64(time.Millisecond))
		}
		if s, err := strconv.ParseFloat(h.Get("retry-after"), 64); err == nil && s >= 0 {
			return time.Duration(min(s, maxRetryWait.Seconds()) * float64(time.Second))
		}
	}
	return min(time.Second<<attempt, maxRetryWait)
}

// schemaJSON is Schema, encoded once.
var schemaJSON, _ = json.Marshal(Schema)

// strictFormat is the response_format that asks for the verdict's schema, strictly.
var strictFormat = json.RawMessage(`{"type":"json_schema","json_schema":{"name":"verdict","strict":true,"schema":` + string(schemaJSON) + `}}`)

// chatRequest is a Chat Completions request body.
type chatRequest struct {
	Model          string          `json:"model"`
	Messages       []chatMessage   `json:"messages"`
	ResponseFormat json.RawMessage `json:"response_format,omitempty"`
	Temperature    *float64        `json:"temperature,omitempty"`
	MaxTokens      int             `json:"max_completion_tokens,omitempty"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// post makes one request; a transport error or a timeout is err.
func (o *OpenAI) post(ctx context.Context, p Prompt, strict bool) ([]byte, int, http.Header, error) {
	req := chatRequest{Model: o.Model, Temperature: o.Temperature, MaxTokens: o.MaxOutputTokens}
	user := p.User
	if strict {
		req.ResponseFormat = strictFormat
	} else {
		user += "\nAnswer with one JSON object that matches this JSON Schema:\n" + string(schemaJSON) + "\n"
	}
	req.Messages = []chatMessage{{Role: "system", Content: p.System}, {Role: "user", Content: user}}
	buf, err := json.Marshal(req)
	if err != nil {
		return nil, 0, nil, err
	}
	u, err := url.Parse(strings.TrimRight(o.BaseURL, "/") + "/chat/completions")
	if err != nil {
		return nil, 0, nil, err
	}
	if len(o.Query) > 0 {
		q := u.Query()
		for k, v := range o.Query {
			q.Set(k, v)
		}
		u.RawQuery = q.Encode()
	}
	rctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(rctx, http.MethodPost, u.String(), bytes.NewReader(buf))
	if err != nil {
		return nil, 0, nil, err
	}
	hr.Header.Set("Content-Type", "application/json")
	for k, v := range o.Headers {
		hr.Header.Set(k, v)
	}
	switch o.Auth {
	case "none":
	case "api-key":
		hr.Header.Set("api-key", o.Key)
	default:
		hr.Header.Set("Authorization", "Bearer "+o.Key)
	}
	return send(o.Client, hr)
}

// send makes one request and reads its bounded body. The body is not masked here: a key in it may be
// escaped (\u0073\u006b..., \/), and masking the raw bytes broke a valid reply whose words held a short
// key. The key is masked in what is read from the body (plainJSON, the engine's verdicts and results).
func send(client *http.Client, hr *http.Request) ([]byte, int, http.Header, error) {
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(hr)
	if err != nil {
		return nil, 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxReply))
	if err != nil {
		return nil, 0, nil, err
	}
	return body, resp.StatusCode, resp.Header, nil
}

// plainJSON is an error body as text to quote: a JSON body decoded and written again without the
// escapes it needs not (\/, \u0073), so that a key the server quoted escaped is plain for the mask;
// any other body as it is.
func plainJSON(body []byte) string {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return string(body)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return string(body)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// maskKey keeps the key out of an error's text (README "The AI judge": keys never reach a report).
func maskKey(err error, key string) error {
	if err == nil || len(key) < envpolicy.MinMasked || !strings.Contains(err.Error(), key) {
		return err
	}
	return errors.New(maskText(err.Error(), key))
}

// maskText is s with every copy of key written ***.
func maskText(s, key string) string {
	if len(key) < envpolicy.MinMasked {
		return s
	}
	return strings.ReplaceAll(s, key, "***")
}

// read takes the verdict text out of a Chat Completions response.
func (o *OpenAI) read(body []byte, fenced bool) (Reply, error) {
	var r struct {
		Model   string `json:"model"`
		Choices []struct {
			FinishReason string `json:"finish_reason"`
			Message      struct {
				Content *string `json:"content"`
				Refusal *string `json:"refusal"`
			} `json:"message"`
		} `json:"choices"`
		Usage struct {
			TotalTokens int `json:"total_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(body, &r); err != nil || len(r.Choices) == 0 {
		return Reply{}, fmt.Errorf("%w: the server's response is not a chat completion", ErrInvalid)
	}
	c := r.Choices[0]
	switch {
	case c.Message.Refusal != nil && *c.Message.Refusal != "":
		return Reply{}, fmt.Errorf("%w: %s", ErrRefused, clip(maskText(*c.Message.Refusal, o.Key)))
	case c.FinishReason == "content_filter":
		return Reply{}, fmt.Errorf("%w: the content filter stopped the reply", ErrRefused)
	case c.FinishReason == "length":
		return Reply{}, fmt.Errorf("%w: raise ai.max-output-tokens", ErrCut)
	case c.Message.Content == nil:
		return Reply{}, fmt.Errorf("%w: the reply has no content", ErrInvalid)
	}
	return Reply{Text: []byte(*c.Message.Content), Fenced: fenced, Model: r.Model, Tokens: r.Usage.TotalTokens}, nil
}
