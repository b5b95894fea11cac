package engine

import (
	"os/exec"
	"runtime/debug"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/testfs"
)

// corpusConfig makes testfs's EvalCase corpus the fixtures and candidates of `check --all`.
const corpusConfig = "version: 1\nevalcase:\n  include: [\"cases/*.jsonl\"]\n  candidates: [\"candidates/*.jsonl\"]\n"

// pythonLoads is the floor README "Memory" compares with: Python reading both files and giving every
// line to json.loads, and nothing else.
const pythonLoads = `import json, sys
for name in sys.argv[1:]:
    with open(name, "rb") as f:
        for line in f:
            json.loads(line)
`

// BenchmarkProcessCases is README "Memory"'s EvalCase rows in one run: `evalgate cases` in every format
// and `check --all` with the same two files as the config's fixtures and candidates, each a whole process
// writing to /dev/null, in turns with encoding/json's decode of the two files into typed structs and
// into maps (in this process) and, where python3 is on PATH, Python's json.loads of every line. It
// reports each one's seconds and peak RSS (the largest of the iterations), and each evalgate run's time
// as a multiple of each yardstick's (processesInTurns). Run it with -benchtime 5x.
func BenchmarkProcessCases(b *testing.B) {
	root := b.TempDir()
	testfs.WriteCorpus(b, root, 100_000, 0)
	testfs.Write(b, root, map[string]string{".evalgate.yaml": corpusConfig})
	bin := evalgateBinary(b)
	python, _ := exec.LookPath("python3")
	if python == "" {
		b.Log("no python3 on PATH: its floor is not measured")
	}
	cases := []string{"cases", "--candidates", testfs.CorpusCandidates, testfs.CorpusCases}
	runs := []processRun{
		{"cases-text", append(cases, "--format", "text")},
		{"cases-json", append(cases, "--format", "json")},
		{"cases-jsonl", append(cases, "--format", "jsonl")},
		{"check-json", []string{"check", "--all", "--format", "json"}},
	}
	sticks := []yardstick{
		{name: "structs", metric: "decode-structs-s", run: inProcess(func() { testfs.DecodeCorpus(b, root, false) })},
		{name: "maps", metric: "decode-maps-s", run: inProcess(func() { testfs.DecodeCorpus(b, root, true) })},
	}
	if python != "" {
		sticks = append(sticks, yardstick{name: "python", metric: "python-s", peak: "python-peak-MiB", run: func() (time.Duration, float64) {
			return measureProcess(b, root, 0, python, "-c", pythonLoads, testfs.CorpusCases, testfs.CorpusCandidates)
		}})
	}
	processesInTurns(b, root, 1, bin, runs, sticks) // a tenth of the candidates fail
}

// processRun is one evalgate command a benchmark runs as a whole process.
type processRun struct {
	name string
	args []string
}

// yardstick is what a benchmark compares its processes with: run does it once and returns its time and,
// for a process, its peak RSS in MiB. metric names its seconds, peak (when it is a process) its RSS.
type yardstick struct {
	name, metric, peak string
	run                func() (time.Duration, float64)
}

// inProcess makes f a yardstick's run, timed in this process.
func inProcess(f func()) func() (time.Duration, float64) {
	return func() (time.Duration, float64) {
		t0 := time.Now()
		f()
		return time.Since(t0), 0
	}
}

// processesInTurns runs each of runs as a whole process of bin in dir, wanting exit status code, then each
// yardstick, b.N times in turns, and reports each one's mean seconds and largest peak RSS, and each
// run's time as a multiple of each yardstick's (NAME/STICK).
func processesInTurns(b *testing.B, dir string, code int, bin string, runs []processRun, sticks []yardstick) {
	took := make([]time.Duration, len(runs)+len(sticks))
	peak := make([]float64, len(runs)+len(sticks))
	b.ResetTimer()
	for range b.N {
		for i, r := range runs {
			debug.FreeOSMemory() // each one starts with this process idle, its garbage collected
			t, rss := measureProcess(b, dir, code, bin, r.args...)
			took[i], peak[i] = took[i]+t, max(peak[i], rss)
		}
		for j, s := range sticks {
			debug.FreeOSMemory()
			t, rss := s.run()
			i := len(runs) + j
			took[i], peak[i] = took[i]+t, max(peak[i], rss)
		}
	}
	n := float64(b.N)
	for j, s := range sticks {
		b.ReportMetric(took[len(runs)+j].Seconds()/n, s.metric)
		if s.peak != "" {
			b.ReportMetric(peak[len(runs)+j], s.peak)
		}
	}
	for i, r := range runs {
		b.ReportMetric(took[i].Seconds()/n, r.name+"-s")
		b.ReportMetric(peak[i], r.name+"-peak-MiB")
		for j, s := range sticks {
			b.ReportMetric(float64(took[i])/float64(took[len(runs)+j]), r.name+"/"+s.name)
		}
	}
}
