package judge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestCommandJudge: the request object of the protocol on stdin, the
// verdict on stdout; a failed or unfinished process is an invalid run
// carrying the end of its stderr.
func TestCommandJudge(t *testing.T) {
	in := Input{Assertion: "The page says how to install.", Kind: "body", Path: "docs/i.md", Target: []byte("Run the installer.\xff")}
	p := Render(in)
	var got map[string]any
	c := &CommandJudge{Model: "local-7b", Run: func(_ context.Context, stdin []byte) ([]byte, []byte, bool, error) {
		if err := json.Unmarshal(stdin, &got); err != nil {
			t.Fatal(err)
		}
		return []byte(goodVerdict + "\n"), nil, true, nil
	}}
	reply, err := c.Ask(context.Background(), in, p, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := Parse(reply.Text, in.Target, false, nil); err != nil || !v.Passed() {
		t.Errorf("verdict %+v, %v", v, err)
	}
	ev, _ := got["eval"].(map[string]any)
	tg, _ := got["target"].(map[string]any)
	ex, _ := ev["examples"].(map[string]any)
	if got["protocol"] != Template || got["model"] != "local-7b" || got["run"] != float64(2) || got["runs"] != float64(3) ||
		got["system"] != p.System || got["user"] != p.User || got["schema"] == nil || ev["assertion"] != in.Assertion ||
		tg["text"] != "Run the installer.\uFFFD" || tg["path"] != "docs/i.md" || ex["pass"] == nil {
		t.Errorf("request %v", got)
	}
	if _, has := ev["id"]; has {
		t.Error("the eval's id was sent")
	}

	for name, run := range map[string]Runner{
		"exit 1": func(context.Context, []byte) ([]byte, []byte, bool, error) {
			return nil, []byte("model not found\n"), false, nil
		},
		"timeout": func(context.Context, []byte) ([]byte, []byte, bool, error) {
			return nil, nil, false, errors.New("timed out")
		},
	} {
		_, err := (&CommandJudge{Run: run}).Ask(context.Background(), in, p, 1, 1)
		if !errors.Is(err, ErrInvalid) || (name == "exit 1" && !strings.Contains(err.Error(), "model not found")) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
