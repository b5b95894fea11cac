package jev

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/testfs"
)

// benchCases is the size of the benchmark's contract (the issue's
// acceptance: 50,000 cases).
const benchCases = 50000

func readBench(b *testing.B) (ctext, rtext []byte, dir string) {
	dir = b.TempDir()
	ctext, rtext = testfs.WriteJevCorpus(b, dir, benchCases)
	if len(ctext) > MaxJSON || len(rtext) > MaxJSON {
		b.Fatalf("bench files of %d and %d bytes exceed MaxJSON", len(ctext), len(rtext))
	}
	return ctext, rtext, dir
}

// decodeBoth is the yardstick: decoding both files with encoding/json into
// map[string]any, and nothing else.
func decodeBoth(b *testing.B, ctext, rtext []byte) {
	var c, r map[string]any
	if err := json.Unmarshal(ctext, &c); err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(rtext, &r); err != nil {
		b.Fatal(err)
	}
}

// evalBoth is what `evalgate jev eval` does after reading the files (Evaluate, here with the files
// already read): load and validate the contract and the replay, the replay beside the contract, then
// evaluate (internal/cli writes the summary from the report).
func evalBoth(b *testing.B, ctext, rtext []byte) {
	read := func(name string, _ bool) ([]byte, error) {
		if name == "contract.json" {
			return ctext, nil
		}
		return rtext, nil
	}
	o := Evaluate(context.Background(), Entry{Contract: "contract.json", Answers: "replay.json", CandidateModel: "jev-1.14"}, read, true)
	if o.Invalid() || o.Report == nil {
		b.Fatalf("%s, %v", codes(o.Faults), o.Models)
	}
	if rep := o.Report; len(rep.Cases) != benchCases || rep.Unchanged == benchCases {
		b.Fatalf("%d cases, %d unchanged", len(rep.Cases), rep.Unchanged)
	}
}

// benchBoth times run (decodeBoth or evalBoth) over the benchmark's two
// files, counting the bytes of both.
func benchBoth(b *testing.B, run func(b *testing.B, ctext, rtext []byte)) {
	ctext, rtext, _ := readBench(b)
	b.SetBytes(int64(len(ctext) + len(rtext)))
	b.ResetTimer()
	for b.Loop() {
		run(b, ctext, rtext)
	}
}

func BenchmarkDecode(b *testing.B) { benchBoth(b, decodeBoth) }

func BenchmarkEval(b *testing.B) { benchBoth(b, evalBoth) }

// BenchmarkCheck is the engine's path: reading both files, eval, and a
// positioned result for each of the 50,000 fields.
func BenchmarkCheck(b *testing.B) {
	_, _, dir := readBench(b)
	e := Entry{Contract: "contract.json", Answers: "replay.json", CandidateModel: "jev-1.14"}
	b.ResetTimer()
	for b.Loop() {
		if rs := slices.Collect(Check(context.Background(), dir, e, true)); len(rs) != benchCases {
			b.Fatalf("%d results", len(rs))
		}
	}
}

// BenchmarkEvalVsDecode measures eval and two decode yardsticks in turns, in the same run: decoding
// both files with encoding/json into map[string]any (decodeBoth) and into typed structs of the
// files' shapes (testfs.DecodeJevTyped). It reports eval's speed as a multiple of each (speed-ratio and
// typed-speed-ratio; the acceptance is at least 2, eval in half the decode's time) and fails
// below 1/3 of the first.
func BenchmarkEvalVsDecode(b *testing.B) {
	ctext, rtext, dir := readBench(b)
	e := Entry{Contract: "contract.json", Answers: "replay.json", CandidateModel: "jev-1.14"}
	var dec, typed, ev, chk time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		decodeBoth(b, ctext, rtext)
		t1 := time.Now()
		evalBoth(b, ctext, rtext)
		t2 := time.Now()
		for range Check(context.Background(), dir, e, true) {
		}
		t3 := time.Now()
		testfs.DecodeJevTyped(b, ctext, rtext, benchCases)
		typed += time.Since(t3)
		chk += t3.Sub(t2)
		dec += t1.Sub(t0)
		ev += t2.Sub(t1)
	}
	ratio := float64(dec) / float64(ev)
	b.ReportMetric(ratio, "speed-ratio")
	b.ReportMetric(float64(typed)/float64(ev), "typed-speed-ratio")
	b.ReportMetric(float64(dec)/float64(chk), "check-speed-ratio")
	b.ReportMetric(float64(dec.Milliseconds())/float64(b.N), "decode-ms/op")
	b.ReportMetric(float64(typed.Milliseconds())/float64(b.N), "typed-ms/op")
	b.ReportMetric(float64(ev.Milliseconds())/float64(b.N), "eval-ms/op")
	b.ReportMetric(float64(chk.Milliseconds())/float64(b.N), "check-ms/op")
	if ratio < 1.0/3 {
		b.Errorf("eval runs at %.2f of the speed of decoding, below 1/3", ratio)
	}
}
