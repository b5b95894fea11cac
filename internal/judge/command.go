package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Runner runs a command judge's process with stdin, under the command policy of the caller (README
// "Security model": no shell, a scrubbed environment, the process group killed, bounded output): its
// stdout, the end of its stderr, and whether it exited 0. err is a process that did not start or did not
// finish (a timeout).
type Runner func(ctx context.Context, stdin []byte) (stdout, stderr []byte, ok bool, err error)

// CommandJudge is a judge that is a program speaking protocol Template on stdin and stdout (README "The
// AI judge": a wrapper around any LLM CLI): stdin one request object, stdout one verdict object.
type CommandJudge struct {
	Model string // "" when the provider names none
	Run   Runner
}

// commandRequest is the protocol's request; system and user are the rendered prompt, so that a wrapper
// need not rebuild it.
type commandRequest struct {
	Protocol string `json:"protocol"`
	Eval     struct {
		Assertion string `json:"assertion"`
		Evidence  string `json:"evidence"`
		Examples  struct {
			Pass []string `json:"pass"`
			Fail []string `json:"fail"`
		} `json:"examples"`
	} `json:"eval"`
	Target struct {
		Kind string `json:"kind"`
		Path string `json:"path"`
		Text string `json:"text"`
	} `json:"target"`
	Model  string         `json:"model"`
	Run    int            `json:"run"`
	Runs   int            `json:"runs"`
	System string         `json:"system"`
	User   string         `json:"user"`
	Schema map[string]any `json:"schema"`
}

// Ask runs the program for run (from 1) of runs. Any exit but 0, a timeout or a failure to start is an
// invalid run with the end of stderr in its error; stdout is the reply, read as a strict verdict.
func (c *CommandJudge) Ask(ctx context.Context, in Input, p Prompt, run, runs int) (Reply, error) {
	var req commandRequest
	req.Protocol = Template
	req.Eval.Assertion, req.Eval.Evidence = in.Assertion, in.Evidence
	req.Eval.Examples.Pass, req.Eval.Examples.Fail = nonNil(in.Pass), nonNil(in.Fail)
	req.Target.Kind, req.Target.Path, req.Target.Text = in.Kind, in.Path, strings.ToValidUTF8(string(in.Target), "\uFFFD")
	req.Model, req.Run, req.Runs = c.Model, run, runs
	req.System, req.User, req.Schema = p.System, p.User, Schema
	stdin, err := json.Marshal(req)
	if err != nil {
		return Reply{}, err
	}
	stdout, stderr, ok, err := c.Run(ctx, stdin)
	tail := strings.TrimSpace(string(stderr))
	if r := []rune(tail); len(r) > 500 {
		tail = "…" + string(r[len(r)-500:])
	}
	switch {
	case err != nil:
		return Reply{}, fmt.Errorf("%w: the judge command did not finish: %v", ErrInvalid, err)
	case !ok:
		return Reply{}, fmt.Errorf("%w: the judge command failed: %s", ErrInvalid, tail)
	}
	return Reply{Text: stdout, Model: c.Model}, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
