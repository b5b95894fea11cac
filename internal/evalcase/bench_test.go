package evalcase

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/testfs"
)

// benchFiles writes testfs's EvalCase corpus of n cases and their candidates, every tenth failing.
// It returns the root and the two files' sizes.
func benchFiles(b *testing.B, n int) (root string, size int64) {
	return benchFilesPadded(b, n, 0)
}

// benchFilesPadded is benchFiles with pad more bytes of context in each
// case and of text in each candidate: larger files, the same index.
func benchFilesPadded(b *testing.B, n, pad int) (root string, size int64) {
	b.Helper()
	root = b.TempDir()
	return root, testfs.WriteCorpus(b, root, n, pad)
}

func benchRequest(root string) Request {
	return Request{
		Root: root, Fixtures: []string{testfs.CorpusCases}, Candidates: []string{testfs.CorpusCandidates},
		ReadCandidates: true, CandidatesConfigured: true,
	}
}

// streamCount runs the check, counting results instead of keeping them.
func streamCount(b *testing.B, root string) (results, failed int) {
	err := Stream(context.Background(), benchRequest(root), func(r diag.Result) {
		results++
		if r.Outcome != diag.Pass {
			failed++
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	return results, failed
}

// decodeOnly is the baseline: both files decoded line by line with encoding/json, into typed structs
// or into map[string]any.
func decodeOnly(b *testing.B, root string, maps bool) { testfs.DecodeCorpus(b, root, maps) }

// bench100k times run over the files of benchFiles(b, 100_000), once per
// iteration, their size counted as the bytes of each.
func bench100k(b *testing.B, run func(root string)) {
	root, size := benchFiles(b, 100_000)
	b.SetBytes(size)
	b.ResetTimer()
	for range b.N {
		run(root)
	}
}

// BenchmarkCheck100k checks 100,000 cases against 100,000 candidates
// (results streamed and counted, not kept).
func BenchmarkCheck100k(b *testing.B) {
	bench100k(b, func(root string) { streamCount(b, root) })
}

// BenchmarkDecodeStructs100k is the baseline: the same two files decoded
// line by line into typed structs.
func BenchmarkDecodeStructs100k(b *testing.B) {
	bench100k(b, func(root string) { decodeOnly(b, root, false) })
}

// BenchmarkDecodeMaps100k is the baseline into map[string]any.
func BenchmarkDecodeMaps100k(b *testing.B) {
	bench100k(b, func(root string) { decodeOnly(b, root, true) })
}

// BenchmarkCheckVsDecode runs the check and both baselines on the same
// files in the same run, interleaved, and reports the check's time as a
// multiple of each baseline's (the bar: at most 0.5 of the typed decode).
func BenchmarkCheckVsDecode(b *testing.B) {
	root, _ := benchFiles(b, 100_000)
	var check, structs, maps time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		streamCount(b, root)
		t1 := time.Now()
		decodeOnly(b, root, false)
		t2 := time.Now()
		decodeOnly(b, root, true)
		t3 := time.Now()
		check, structs, maps = check+t1.Sub(t0), structs+t2.Sub(t1), maps+t3.Sub(t2)
	}
	n := float64(b.N)
	b.ReportMetric(check.Seconds()/n, "check-s")
	b.ReportMetric(structs.Seconds()/n, "decode-structs-s")
	b.ReportMetric(maps.Seconds()/n, "decode-maps-s")
	b.ReportMetric(float64(check)/float64(structs), "check/structs")
	b.ReportMetric(float64(check)/float64(maps), "check/maps")
}

// peakHeap samples the live heap every millisecond while f runs and returns
// the highest value above the heap before f, and f's allocations.
func peakHeap(f func()) (peak, total uint64) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	base, allocs0 := sample[0].Value.Uint64(), sample[1].Value.Uint64()
	var max atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > max.Load() {
				max.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	metrics.Read(sample)
	if m := max.Load(); m > base {
		peak = m - base
	}
	return peak, sample[1].Value.Uint64() - allocs0
}

// BenchmarkCheckMemory compares 10,000 and 100,000 cases: the peak heap
// grows only by the index (bytes per case), not with the files' size. Live
// heap includes garbage not yet collected, so GOGC matters; the numbers
// are with the default GOGC=100.
func BenchmarkCheckMemory(b *testing.B) {
	for _, bc := range []struct{ n, pad int }{{10_000, 0}, {100_000, 0}, {10_000, 8 << 10}} {
		n := bc.n
		b.Run(fmt.Sprintf("cases=%d/pad=%d", n, bc.pad), func(b *testing.B) {
			root, size := benchFilesPadded(b, n, bc.pad)
			var peak, total uint64
			var results int
			b.ResetTimer()
			for range b.N {
				p, t := peakHeap(func() { results, _ = streamCount(b, root) })
				peak, total = max(peak, p), total+t
			}
			b.ReportMetric(float64(size)/(1<<20), "files-MiB")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(peak)/float64(n), "peak-B/case")
			b.ReportMetric(float64(total)/float64(b.N)/(1<<20), "alloc-MiB/op")
			b.ReportMetric(float64(results), "results")
		})
	}
}

// BenchmarkIndexMemory measures the index alone: pass 2 over n cases without candidates, with
// the heap collected at the end, so only what stays is counted.
func BenchmarkIndexMemory(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("cases=%d", n), func(b *testing.B) {
			root, _ := benchFiles(b, n)
			var live uint64
			for range b.N {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				c := newChecker(Request{Root: root, Fixtures: []string{testfs.CorpusCases}}, func(diag.Result) {})
				if err := c.run(context.Background()); err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				live = after.HeapInuse - before.HeapInuse
				runtime.KeepAlive(c)
				c.close()
			}
			b.ReportMetric(float64(live)/float64(n), "index-B/case")
		})
	}
}

// invalidFiles writes n case lines and n candidate lines that the fast path rejects, cycling through the
// faults of testdata/golden/definitions (a bad locale, wrong types, bare-string assertions, bad params, a
// duplicate key, broken JSON, invalid UTF-8, missing fields) and through faulty candidates, so that every
// line goes to the authoritative validation. Ids are made unique per line.
func invalidFiles(b *testing.B, n int) (root string, size int64) {
	b.Helper()
	defs, err := os.ReadFile(filepath.Join("testdata", "golden", "definitions", "cases", "defs.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var caseLines []string
	for _, l := range strings.Split(string(defs), "\n") {
		if strings.TrimSpace(l) != "" {
			caseLines = append(caseLines, l)
		}
	}
	candLines := []string{
		`{"case_id": "defs.valid.001", "text": 3}`,
		`{"case_id": "defs.valid.001", "text": "x", "model": "m"}`,
		`{"case_id": "", "text": "x", "raw_response": 3}`,
		`{"case_id": "defs.valid.001", "case_id": "defs.valid.002", "text": "x"}`,
		`{"text": "x"}`,
		`["defs.valid.001", "x"]`,
		`{"case_id": "defs.valid.001", "text": "x"`,
	}
	root = b.TempDir()
	var cases, cands strings.Builder
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("%06d", i)
		cases.WriteString(strings.ReplaceAll(caseLines[i%len(caseLines)], ".001", "."+id) + "\n")
		cands.WriteString(strings.ReplaceAll(candLines[i%len(candLines)], ".001", "."+id) + "\n")
	}
	testfs.Write(b, root, map[string]string{testfs.CorpusCases: cases.String(), testfs.CorpusCandidates: cands.String()})
	return root, int64(cases.Len() + cands.Len())
}

// BenchmarkCheckInvalid10k checks 10,000 faulty case lines and 10,000 faulty candidate lines: the slow
// path's speed (results streamed and counted).
func BenchmarkCheckInvalid10k(b *testing.B) {
	root, size := invalidFiles(b, 10_000)
	b.SetBytes(size)
	b.ResetTimer()
	var results int
	for range b.N {
		results, _ = streamCount(b, root)
	}
	b.ReportMetric(float64(results), "results")
}
