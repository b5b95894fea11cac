package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The collector's pace (README "Memory"). A run is short, and most runs have a small live heap:
// collecting a quarter as often as Go's default (GOGC=400) saves about a sixth of validate's time on
// 10,000 pages (0.16 s against 0.19 s) for 10 MB more. But the heap grows to five times what is live, and a run over
// 50,000 pages or 100,000 EvalCase cases has 5 to 10 MB live: 50 MB of memory and more at that pace.
// So after every collection the pace is set anew: the heap may grow to gcTarget, at no slower a pace
// than GOGC=400 and no faster than GOGC=75. A target of 12 MiB rather than 16 keeps validate on
// 50,000 pages (4 MB live) under 30 MB of RSS, and costs validate, check and cases no time that runs of
// each could tell apart. Once the live heap passes 7 MiB the pace is GOGC=75 rather than Go's 100: cases
// on 100,000 cases (8 MB live) then peaks at 29 MB, not 31, for 4% more CPU time (GOGC=50: 28 MB, 10%
// more). A soft memory limit instead cut 3 MB but made check on 50,000 pages 40% slower: a heap that
// grows is collected far too often under it.
//
// Before the first collection nothing is live to go by, and Go's first goal is its minimum heap (4 MiB)
// times GOGC/100: at 400, 16 MiB, which a large run reaches at once, and where cases on 100,000 cases had
// its peak (30.4 MiB of RSS in one run of five). So the first pace is the one whose first goal is
// gcTarget (gcFirst, GOGC=300).
const (
	gcTarget = 12 << 20
	gcMin    = 75
	gcMax    = 400
	gcFirst  = gcTarget * 100 / (4 << 20)
)

// gcPercent is the GOGC that lets a heap of live bytes grow to gcTarget, within [gcMin, gcMax].
func gcPercent(live uint64) int {
	if live == 0 {
		return gcMax
	}
	p := (int64(gcTarget) - int64(live)) * 100 / int64(live)
	return int(min(max(p, gcMin), gcMax))
}

// paceGC sets the pace, unless GOGC says what it is to be.
func paceGC() {
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(gcFirst)
	p := &pacer{percent: gcFirst, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	p.arm()
}

// pacer re-sets GOGC after each collection, from a finalizer: the collector runs it once it has
// found the sentinel unreachable, that is after every cycle.
type pacer struct {
	percent int
	sample  []metrics.Sample
}

// sentinel is garbage the moment it is made; it holds a pointer, so it is never a tiny allocation
// (whose finalizers may never run).
type sentinel struct{ p *pacer }

func (p *pacer) arm() {
	runtime.SetFinalizer(&sentinel{p: p}, func(s *sentinel) { s.p.after() })
}

func (p *pacer) after() {
	metrics.Read(p.sample)
	if v := p.sample[0].Value; v.Kind() == metrics.KindUint64 {
		if g := gcPercent(v.Uint64()); g != p.percent {
			p.percent = g
			debug.SetGCPercent(g)
		}
	}
	p.arm()
}
