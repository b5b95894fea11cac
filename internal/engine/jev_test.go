package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/jev"
)

const (
	jevContract = `{"version": "0.1", "baseline_model": "m-1", "cases": [
  {"id": "t-1", "state": "s", "questions": {"q": {"type": "choice", "criteria": {"a": null, "b": null}}}, "expect": {"q": {"choice": "a"}}}]}`
	jevSame = `{"t-1": {"model": "m-2", "answers": {"q": {"choice": "a", "confidence": 0.9, "probabilities": {"a": 0.9, "b": 0.1}}}}}`
	jevFlip = `{"t-1": {"model": "m-2", "answers": {"q": {"choice": "b", "confidence": 0.9, "probabilities": {"a": 0.1, "b": 0.9}}}}}`
)

// TestRunJev: `evalgate jev` is a mode of the one engine. The files are read
// where they are named (here outside any repository), the blocking rule is
// the engine's, an invalid replay is ErrJevInvalid with its faults, and a
// file that cannot be read or a floating model is a usage error.
func TestRunJev(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"c.json": jevContract, "same.json": jevSame, "flip.json": jevFlip, "bad.json": `{"t-1": 3}`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(e jev.Entry) (blocking int, results []diag.Result, summary string, err error) {
		t.Helper()
		var notices []string
		rep, err := Run(context.Background(), Options{Mode: ModeJev, Dir: dir, FailOn: diag.SeverityError, Jev: &e,
			Notice: func(s string) { notices = append(notices, s) }})
		if rep == nil {
			return 0, nil, strings.Join(notices, "\n"), err
		}
		if rep.Jev != nil {
			summary = rep.Jev.Mode + " " + rep.Jev.Title
			for _, c := range rep.Jev.Changes {
				summary += " " + c.Case + "/" + c.Field + ":" + c.Label
			}
		}
		return rep.Summary.Blocking, rep.Results.Slice(), summary + strings.Join(notices, "\n"), err
	}

	if b, res, sum, err := run(jev.Entry{Contract: "c.json", Answers: "same.json"}); err != nil || b != 0 || len(res) != 1 || res[0].Code != "ok" || sum != "eval c.json" {
		t.Errorf("unchanged: blocking %d, results %v, summary %q, err %v", b, res, sum, err)
	}
	if b, res, sum, err := run(jev.Entry{Contract: "c.json", Answers: "flip.json"}); err != nil || b != 1 || res[0].Code != "answer_flip" || sum != "eval c.json t-1/q:flip" {
		t.Errorf("flip: blocking %d, results %v, summary %q, err %v", b, res, sum, err)
	}
	if _, _, sum, err := run(jev.Entry{Contract: "c.json", Answers: "flip.json", From: "same.json", BaselineModel: "m-2"}); err != nil ||
		!strings.HasPrefix(sum, "compare c.json t-1/q:flip") || !strings.Contains(sum, "--baseline-model m-2 overrides the contract's baseline_model m-1") {
		t.Errorf("compare with an override: summary %q, err %v", sum, err)
	}
	_, res, sum, err := run(jev.Entry{Contract: "c.json", Answers: "bad.json"})
	if !errors.Is(err, ErrJevInvalid) || len(res) == 0 || res[0].Code != "replay_invalid" || res[0].File != "bad.json" || sum != "" {
		t.Errorf("an invalid replay: results %v, summary %q, err %v; want ErrJevInvalid with its faults and no summary", res, sum, err)
	}
	// Keep (the text summary reads no result): the evaluation's results are counted, not kept; the
	// faults of an invalid replay still are.
	none := func(*diag.Result) bool { return false }
	for _, answers := range []string{"same.json", "flip.json"} {
		e := jev.Entry{Contract: "c.json", Answers: answers}
		want, err := Run(context.Background(), Options{Mode: ModeJev, Dir: dir, FailOn: diag.SeverityError, Jev: &e})
		if err != nil {
			t.Fatal(err)
		}
		got, err := Run(context.Background(), Options{Mode: ModeJev, Dir: dir, FailOn: diag.SeverityError, Jev: &e, Keep: none})
		if err != nil || got.Summary != want.Summary || got.Results.Len() != 0 || !reflect.DeepEqual(got.Jev, want.Jev) {
			t.Errorf("%s with Keep: summary %+v (want %+v), %d results kept, err %v", answers, got.Summary, want.Summary, got.Results.Len(), err)
		}
	}
	e := jev.Entry{Contract: "c.json", Answers: "bad.json"}
	if rep, err := Run(context.Background(), Options{Mode: ModeJev, Dir: dir, FailOn: diag.SeverityError, Jev: &e, Keep: none}); !errors.Is(err, ErrJevInvalid) || rep.Results.Len() == 0 {
		t.Errorf("an invalid replay with Keep: err %v, its faults not kept", err)
	}
	var uerr *UsageError
	if _, _, _, err := run(jev.Entry{Contract: "c.json", Answers: "gone.json"}); !errors.As(err, &uerr) || uerr.Msg != "gone.json: no such file" {
		t.Errorf("a missing replay: err %v, want the usage error gone.json: no such file", err)
	}
	if _, _, _, err := run(jev.Entry{Contract: "c.json", Answers: "same.json", CandidateModel: "m-latest"}); !errors.As(err, &uerr) ||
		!strings.HasPrefix(uerr.Msg, `--candidate-model: candidate model "m-latest" is a floating alias`) {
		t.Errorf("a floating candidate: err %v, want a usage error naming --candidate-model", err)
	}
}
