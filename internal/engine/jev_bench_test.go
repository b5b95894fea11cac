package engine

import (
	"os/exec"
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
	ctext, rtext := testfs.WriteJevCorpus(b, dir, cases)
	bin := evalgateBinary(b)
	python, _ := exec.LookPath("python3")
	if python == "" {
		b.Log("no python3 on PATH: its floor is not measured")
	}
	eval := []string{"jev", "eval", testfs.JevContract, "--answers", testfs.JevReplay, "--candidate-model", "jev-1.14"}
	runs := []processRun{
		{"jev-text", eval},
		{"jev-json", append(eval[:len(eval):len(eval)], "--format", "json")},
	}
	sticks := []yardstick{{name: "typed", metric: "decode-typed-s", run: inProcess(func() { testfs.DecodeJevTyped(b, ctext, rtext, cases) })}}
	if python != "" {
		sticks = append(sticks, yardstick{name: "python", metric: "python-s", peak: "python-peak-MiB", run: func() (time.Duration, float64) {
			return measureProcess(b, dir, 0, python, "-c", pythonLoad, testfs.JevContract, testfs.JevReplay)
		}})
	}
	processesInTurns(b, dir, 1, bin, runs, sticks) // a tenth of the cases regress or flip
}
