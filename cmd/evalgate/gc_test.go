package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestGCPercent(t *testing.T) {
	for _, tt := range []struct {
		live uint64
		want int
	}{
		{0, 400}, {1 << 20, 400}, {gcTarget / 5, 400}, {gcTarget / 4, 300}, {gcTarget / 2, 100},
		{gcTarget * 4 / 7, 75}, {gcTarget * 2 / 3, 75}, {gcTarget, 75}, {10 * gcTarget, 75},
	} {
		if got := gcPercent(tt.live); got != tt.want {
			t.Errorf("gcPercent(%d) = %d, want %d", tt.live, got, tt.want)
		}
	}
}

// gogc reads the current GOGC.
func gogc() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestPaceGC: the first goal is gcTarget; with a large live heap the pace comes down to GOGC=75 after a collection, and goes
// back up once the heap is small again.
func TestPaceGC(t *testing.T) {
	t.Setenv("GOGC", "")
	defer debug.SetGCPercent(gogc())
	if 4<<20*gcFirst/100 != gcTarget {
		t.Fatalf("GOGC=%d gives a first goal of %d bytes, not gcTarget", gcFirst, 4<<20*gcFirst/100)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	paceGC()
	got := gogc()
	if runtime.ReadMemStats(&after); got != gcFirst && after.NumGC == before.NumGC {
		t.Fatalf("the first pace is GOGC=%d, want %d", got, gcFirst)
	}
	// until returns once GOGC is want; each collection runs the pacer's finalizer a little later.
	until := func(want int) {
		t.Helper()
		for range 200 {
			runtime.GC()
			runtime.Gosched()
			if gogc() == want {
				return
			}
		}
		t.Fatalf("GOGC is %d after 200 collections, want %d", gogc(), want)
	}
	live := make([][]byte, 0, 64)
	for range 64 {
		live = append(live, make([]byte, gcTarget/32)) // twice gcTarget, all of it live
	}
	until(gcMin)
	runtime.KeepAlive(live)
	live = nil
	until(gcMax)
}
