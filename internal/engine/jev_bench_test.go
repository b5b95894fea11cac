package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/testfs"
)

// pythonLoad is README "Memory"'s floor for jev: Python reading each file whole and giving it to
// json.load, and nothing else.
const pythonLoad = `import json, sys
for name in sys.argv[1:]:
    with open(name, "rb") as f:
        json.load(f)
`

// BenchmarkProcessJev is README "Memory"'s jev rows in one run: `evalgate jev eval` on a 50,000-case
// contract and its replay, with the text summary and with --format json, each a whole process writing
// to /dev/null, in turns with encoding/json's decode of the two files into typed structs (in this
// process, the files already read, as the yardstick of internal/jev's benchmarks) and, where python3 is
// on PATH, Python's json.load of both. It reports each one's seconds and peak RSS, and each evalgate
// run's time as a multiple of the typed decode's and of Python's. Run it with -benchtime 5x.
func BenchmarkProcessJev(b *testing.B) {
	const cases = 50_000
	dir := b.TempDir()
	contract, replay := testfs.WriteJevCorpus(b, dir, cases)
	ctext, err := os.ReadFile(contract)
	if err != nil {
		b.Fatal(err)
	}
	rtext, err := os.ReadFile(replay)
	if err != nil {
		b.Fatal(err)
	}
	bin := evalgateBinary(b)
	python, _ := exec.LookPath("python3")
	if python == "" {
		b.Log("no python3 on PATH: its floor is not measured")
	}
	eval := []string{"jev", "eval", testfs.JevContract, "--answers", testfs.JevReplay, "--candidate-model", "jev-1.14"}
	runs := []struct {
		name string
		args []string
	}{
		{"jev-text", eval},
		{"jev-json", append(eval[:len(eval):len(eval)], "--format", "json")},
	}
	took := make([]time.Duration, len(runs))
	peak := make([]float64, len(runs))
	var typed, py time.Duration
	var pyPeak float64
	b.ResetTimer()
	for range b.N {
		for i, r := range runs {
			t, rss := measureProcess(b, dir, 1, bin, r.args...) // a tenth of the cases regress or flip
			took[i], peak[i] = took[i]+t, max(peak[i], rss)
		}
		t0 := time.Now()
		testfs.DecodeJevTyped(b, ctext, rtext, cases)
		typed += time.Since(t0)
		if python != "" {
			t, rss := measureProcess(b, dir, 0, python, "-c", pythonLoad, filepath.Base(contract), filepath.Base(replay))
			py, pyPeak = py+t, max(pyPeak, rss)
		}
	}
	n := float64(b.N)
	b.ReportMetric(typed.Seconds()/n, "decode-typed-s")
	if python != "" {
		b.ReportMetric(py.Seconds()/n, "python-s")
		b.ReportMetric(pyPeak, "python-peak-MiB")
	}
	for i, r := range runs {
		b.ReportMetric(took[i].Seconds()/n, r.name+"-s")
		b.ReportMetric(peak[i], r.name+"-peak-MiB")
		b.ReportMetric(float64(took[i])/float64(typed), r.name+"/typed")
		if python != "" {
			b.ReportMetric(float64(took[i])/float64(py), r.name+"/python")
		}
	}
}
