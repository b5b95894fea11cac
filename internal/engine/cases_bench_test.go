package engine

import (
	"os/exec"
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
// as a multiple of the typed decode's and of Python's. Run it with -benchtime 5x.
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
	runs := []struct {
		name string
		args []string
	}{
		{"cases-text", append(cases, "--format", "text")},
		{"cases-json", append(cases, "--format", "json")},
		{"cases-jsonl", append(cases, "--format", "jsonl")},
		{"check-json", []string{"check", "--all", "--format", "json"}},
	}
	took := make([]time.Duration, len(runs))
	peak := make([]float64, len(runs))
	var structs, maps, py time.Duration
	var pyPeak float64
	b.ResetTimer()
	for range b.N {
		for i, r := range runs {
			t, rss := measureProcess(b, root, 1, bin, r.args...) // a tenth of the candidates fail
			took[i], peak[i] = took[i]+t, max(peak[i], rss)
		}
		t0 := time.Now()
		testfs.DecodeCorpus(b, root, false)
		t1 := time.Now()
		testfs.DecodeCorpus(b, root, true)
		structs, maps = structs+t1.Sub(t0), maps+time.Since(t1)
		if python != "" {
			t, rss := measureProcess(b, root, 0, python, "-c", pythonLoads, testfs.CorpusCases, testfs.CorpusCandidates)
			py, pyPeak = py+t, max(pyPeak, rss)
		}
	}
	n := float64(b.N)
	b.ReportMetric(structs.Seconds()/n, "decode-structs-s")
	b.ReportMetric(maps.Seconds()/n, "decode-maps-s")
	if python != "" {
		b.ReportMetric(py.Seconds()/n, "python-s")
		b.ReportMetric(pyPeak, "python-peak-MiB")
	}
	for i, r := range runs {
		b.ReportMetric(took[i].Seconds()/n, r.name+"-s")
		b.ReportMetric(peak[i], r.name+"-peak-MiB")
		b.ReportMetric(float64(took[i])/float64(structs), r.name+"/structs")
		if python != "" {
			b.ReportMetric(float64(took[i])/float64(py), r.name+"/python")
		}
	}
}
