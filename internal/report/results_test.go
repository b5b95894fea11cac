package report

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

// spillAll makes every report of the test spill: a batch of one result.
func spillAll(t *testing.T, results, bytes int) {
	t.Helper()
	oldResults, oldBytes := spillResults, spillBytes
	spillResults, spillBytes = results, bytes
	t.Cleanup(func() { spillResults, spillBytes = oldResults, oldBytes })
}

// randomResult is a result with every field set from r, its evidence of every type the spill
// encoding knows and one it does not (a struct, written as JSON).
func randomResult(r *rand.Rand, i int) diag.Result {
	words := []string{"a", "ü", "::error::x", "\xff", "", "docs/a b.md", strings.Repeat("z", 300)}
	w := func() string { return words[r.IntN(len(words))] }
	res := diag.Result{
		Source: diag.Source(r.IntN(4)), File: fmt.Sprintf("f%d.md", r.IntN(20)),
		Pos: diag.Pos{Line: r.IntN(50), Col: r.IntN(3)}, Check: w(), CaseID: w(), Grader: w(), Type: w(),
		Outcome: diag.Outcomes[r.IntN(len(diag.Outcomes))], Severity: diag.Severities[r.IntN(3)],
		Blocking: r.IntN(2) == 0, Code: w(), Message: fmt.Sprintf("m%d %s", i, w()), Weight: r.Float64(),
		DurationMS: r.Int64N(1000) - 10, Key: w(), Verdictless: r.IntN(2) == 0, Assertion: w(), Baselined: r.IntN(2) == 0,
	}
	if r.IntN(3) > 0 {
		res.Evidence = map[string]any{
			"n": r.IntN(100) - 50, "big": int64(1) << 60, "f": r.Float64(), "s": w(), "nil": nil, "t": true, "no": false,
			"list":   []any{1.5, w(), []any{}, map[string]any{"k": w()}},
			"obj":    map[string]any{w(): []any{nil, 2}},
			"struct": struct{ A int }{A: i},
		}
	}
	return res
}

// TestResultsSpill: results spilled in batches read back in report order, exactly as they were
// added (as Add leaves them), as often as asked, and Update's changes stay.
func TestResultsSpill(t *testing.T) {
	for _, batch := range []int{1, 7, 1000} {
		t.Run(fmt.Sprint(batch), func(t *testing.T) {
			spillAll(t, batch, 1<<30)
			r := rand.New(rand.NewPCG(1, uint64(batch)))
			var s, mem Results
			defer s.Close()
			for i := range 500 {
				res := randomResult(r, i)
				s.Add(res)
				mem.Add(res)
			}
			if batch < 500 && len(s.runs) == 0 {
				t.Fatal("nothing was spilled")
			}
			// mem spilled too: its batch bound is the same. Sort a copy of the results as Add left them.
			want := append([]diag.Result(nil), s.Slice()...)
			for pass := range 2 {
				var got []diag.Result
				for res := range s.All() {
					got = append(got, *res)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("pass %d: read back differs", pass)
				}
			}
			for i := 1; i < len(want); i++ {
				if diag.Compare(&want[i-1], &want[i]) > 0 {
					t.Fatalf("results %d and %d out of report order", i-1, i)
				}
			}
			s.Update(func(res *diag.Result) { res.Message += "!" })
			i := 0
			for res := range s.All() {
				if res.Message != want[i].Message+"!" {
					t.Fatalf("result %d: Update lost: %q", i, res.Message)
				}
				i++
			}
			if i != 500 || s.Len() != 500 || s.Err() != nil {
				t.Fatalf("%d results read, Len %d, Err %v", i, s.Len(), s.Err())
			}
		})
	}
}

// TestDecideAsAdded: results Decide had decided as they were added finish with the summary and the
// blocking of results Finish decides in its own pass, spilled or not, at every gate; with a baseline's
// mark, or at another gate than Decide's, Finish decides them again.
func TestDecideAsAdded(t *testing.T) {
	for _, batch := range []int{7, 1000} {
		spillAll(t, batch, 1<<30)
		for _, failOn := range []diag.Severity{diag.SeverityError, diag.SeverityWarning, diag.SeverityInfo, diag.FailOnNone} {
			r := rand.New(rand.NewPCG(5, uint64(batch)))
			var decided, plain, marked, regated Report
			decided.Results.Decide(failOn)
			marked.Results.Decide(failOn)
			regated.Results.Decide(diag.FailOnNone)
			for i := range 300 {
				res := randomResult(r, i)
				res.Blocking, res.Baselined = false, false
				delete(res.Evidence, "struct") // read back from the file as a map: compared apart (TestSpilledWritersAgree)
				for _, rep := range []*Report{&decided, &plain, &marked, &regated} {
					rep.Results.Add(res)
				}
			}
			mark := func(res *diag.Result) { res.Baselined = res.Outcome == diag.Fail && res.Message[1] == '1' }
			decided.Finish(failOn, time.Now(), nil)
			plain.Finish(failOn, time.Now(), nil)
			marked.Finish(failOn, time.Now(), mark)
			regated.Finish(failOn, time.Now(), nil)
			if batch < 300 && len(decided.Results.runs) < 2 {
				t.Errorf("batch %d, gate %v: Finish read and rewrote the decided results", batch, failOn)
			}
			want, wantMarked := plain.Results.Slice(), plain.Results.Slice()
			wantSummary := Summary{}
			for i := range wantMarked {
				mark(&wantMarked[i])
				wantMarked[i].Blocking = diag.Blocks(&wantMarked[i], failOn)
				wantSummary.add(&wantMarked[i])
			}
			if decided.Summary != plain.Summary || regated.Summary != plain.Summary || marked.Summary != wantSummary {
				t.Errorf("batch %d, gate %v: summaries %+v, %+v (another gate), %+v (marked); want %+v and %+v",
					batch, failOn, decided.Summary, regated.Summary, marked.Summary, plain.Summary, wantSummary)
			}
			if plain.Summary.Blocking == 0 && failOn != diag.FailOnNone {
				t.Errorf("batch %d, gate %v: nothing blocks; the test decides nothing", batch, failOn)
			}
			for name, got := range map[string][]diag.Result{"decided": decided.Results.Slice(), "regated": regated.Results.Slice()} {
				if !reflect.DeepEqual(got, want) {
					t.Errorf("batch %d, gate %v: %s results differ from those Finish decided", batch, failOn, name)
				}
			}
			if !reflect.DeepEqual(marked.Results.Slice(), wantMarked) {
				t.Errorf("batch %d, gate %v: marked results differ", batch, failOn)
			}
			for _, rep := range []*Report{&decided, &plain, &marked, &regated} {
				rep.Results.Close()
			}
		}
	}
}

// TestKeep: results Keep turns away are counted as Decide counts them and never read back, across
// batches; results added before Keep, or under Keep(nil), are kept; without Decide, Keep keeps all.
func TestKeep(t *testing.T) {
	spillAll(t, 7, 1<<30)
	r := rand.New(rand.NewPCG(9, 10))
	var all, kept, undecided, want Report
	all.Results.Decide(diag.SeverityError)
	kept.Results.Decide(diag.SeverityError)
	want.Results.Decide(diag.SeverityError)
	failing := func(res *diag.Result) bool { return res.Outcome == diag.Fail }
	undecided.Results.Keep(failing)
	for i := range 300 {
		res := randomResult(r, i)
		delete(res.Evidence, "struct") // read back from the file as a map
		switch i {
		case 100:
			kept.Results.Keep(failing)
		case 200:
			kept.Results.Keep(nil)
		}
		all.Results.Add(res)
		kept.Results.Add(res)
		undecided.Results.Add(res)
		if i < 100 || i >= 200 || res.Outcome == diag.Fail {
			want.Results.Add(res)
		}
	}
	for _, rep := range []*Report{&all, &kept, &undecided, &want} {
		rep.Finish(diag.SeverityError, time.Now(), nil)
		defer rep.Results.Close()
	}
	if kept.Summary != all.Summary {
		t.Errorf("summary %+v with Keep, %+v without", kept.Summary, all.Summary)
	}
	got, wanted := kept.Results.Slice(), want.Results.Slice()
	if len(got) == all.Results.Len() || !reflect.DeepEqual(got, wanted) {
		t.Errorf("kept %d results of %d, want the %d Keep accepted", len(got), all.Results.Len(), len(wanted))
	}
	if undecided.Results.Len() != 300 {
		t.Errorf("without Decide, Keep kept %d of 300 results", undecided.Results.Len())
	}
}

// TestAddAllocatesNothing: adding a result costs no allocation of its own, kept or not (the batch's
// growth aside), so a run of 233,000 results does not allocate each one again.
func TestAddAllocatesNothing(t *testing.T) {
	spillAll(t, 1<<20, 1<<30)
	pass := diag.Result{Source: diag.SourceEvalCase, File: "cases/a.jsonl", Pos: diag.Pos{Line: 1, Col: 1},
		Check: "max_chars", CaseID: "a.1", Outcome: diag.Pass, Severity: diag.SeverityWarning, Code: "ok", Message: "36 code points"}
	for _, keep := range []struct {
		name string
		keep func(*diag.Result) bool
	}{{"kept", nil}, {"passed over", KeepText}} {
		var s Results
		s.Decide(diag.SeverityError)
		s.Keep(keep.keep)
		s.buf = make([]diag.Result, 0, 2000)
		if n := testing.AllocsPerRun(1000, func() { s.Add(pass) }); n != 0 {
			t.Errorf("%s: %v allocations a result", keep.name, n)
		}
		s.Close()
	}
}

// TestKeepText: the text report, and its terminal form, of a run that kept only what KeepText leaves
// are those of the whole run, in memory and spilled.
func TestKeepText(t *testing.T) {
	reports := map[string]func() *Report{"sample": sample, "baselined": baselinedSample, "judged": judgedReport,
		"edge": sarifEdgeReport, "hostile": sarifHostileReport}
	for _, batch := range []int{1, 1 << 20} {
		spillAll(t, batch, 1<<30)
		for name, build := range reports {
			var text [2]string
			for i, keep := range []func(*diag.Result) bool{nil, KeepText} {
				r := build()
				rs := r.Results.Slice()
				r.Results = Results{}
				r.Results.Decide(diag.SeverityError)
				r.Results.Keep(keep)
				r.Results.Add(rs...)
				r.Finish(diag.SeverityError, time.Now(), nil)
				var b bytes.Buffer
				if err := WriteText(&b, r); err != nil {
					t.Fatal(err)
				}
				if err := WriteTerminal(&b, r, TerminalOptions{Color: true}); err != nil {
					t.Fatal(err)
				}
				text[i] = b.String()
				r.Results.Close()
			}
			if text[0] != text[1] {
				t.Errorf("%s, batches of %d: kept for text, it writes\n%s\nwhole:\n%s", name, batch, text[1], text[0])
			}
		}
	}
}

// TestResultsSpillStable: results equal in every key come back in the order they were added,
// across batches, as diag.Sort orders them in memory.
func TestResultsSpillStable(t *testing.T) {
	spillAll(t, 3, 1<<30)
	var s Results
	defer s.Close()
	for i := range 20 { // told apart by their durations, which the order does not read
		s.Add(diag.Result{File: "a.md", Code: "c", DurationMS: int64(i)})
	}
	i := 0
	for res := range s.All() {
		if res.DurationMS != int64(i) {
			t.Fatalf("result %d has duration %d", i, res.DurationMS)
		}
		i++
	}
}

// TestResultsInOrderOneRun: batches added in report order extend one run, read back with no merge;
// a batch that sorts before the run's end starts a run of its own, and the merge still orders all.
func TestResultsInOrderOneRun(t *testing.T) {
	spillAll(t, 7, 1<<30)
	at := func(file string, line int) diag.Result {
		return diag.Result{File: file, Pos: diag.Pos{Line: line}, Code: "c"}
	}
	tests := []struct {
		name string
		add  []diag.Result
		runs int
	}{
		{"in order", func() (rs []diag.Result) {
			for i := range 100 {
				rs = append(rs, at("a.md", i))
			}
			return rs
		}(), 1},
		// The third batch begins before the second ends: it, and the batches after it, start again.
		{"one batch behind", func() (rs []diag.Result) {
			for i := range 14 {
				rs = append(rs, at("b.md", i))
			}
			rs = append(rs, at("a.md", 1))
			for i := range 20 {
				rs = append(rs, at("c.md", i))
			}
			return rs
		}(), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Results
			defer s.Close()
			s.Add(tt.add...)
			if len(s.runs) != tt.runs {
				t.Errorf("%d runs, want %d", len(s.runs), tt.runs)
			}
			want := slices.Clone(tt.add)
			diag.Sort(want)
			if got := s.Slice(); !reflect.DeepEqual(got, want) || s.Err() != nil {
				t.Fatalf("read back %v (%v), want %v", got, s.Err(), want)
			}
		})
	}
}

// TestSpilledEvidenceShared: a result read back shares the map of the last evidence read when its
// own is encoded the same, and only then.
func TestSpilledEvidenceShared(t *testing.T) {
	spillAll(t, 1, 1<<30)
	replay := func() map[string]any { return map[string]any{"replay": "r.json"} }
	other := map[string]any{"replay": "b.json"}
	added := []map[string]any{replay(), replay(), other, replay(), nil, replay()}
	var s Results
	defer s.Close()
	for i, ev := range added {
		s.Add(diag.Result{File: "c.json", Pos: diag.Pos{Line: i + 1}, Code: "ok", Evidence: ev})
	}
	got := s.Slice()
	if s.Err() != nil || len(s.runs) != 1 || len(got) != len(added) {
		t.Fatalf("%d results in %d runs (%v)", len(got), len(s.runs), s.Err())
	}
	for i, ev := range added {
		if !reflect.DeepEqual(got[i].Evidence, ev) {
			t.Errorf("result %d: evidence %v, want %v", i, got[i].Evidence, ev)
		}
	}
	same := func(i, j int) bool {
		return reflect.ValueOf(got[i].Evidence).UnsafePointer() == reflect.ValueOf(got[j].Evidence).UnsafePointer()
	}
	for _, tt := range []struct {
		i, j   int
		shared bool
	}{{0, 1, true}, {1, 2, false}, {2, 3, false}, {3, 5, true}} { // 4 has none: 5 shares 3's
		if same(tt.i, tt.j) != tt.shared {
			t.Errorf("results %d and %d: shared evidence %v, want %v", tt.i, tt.j, !tt.shared, tt.shared)
		}
	}
}

// TestSpilledWritersAgree: every format writes the same bytes for a report whose results were all
// spilled, one to a batch, as for the same report in memory.
func TestSpilledWritersAgree(t *testing.T) {
	formats := map[string]func(*bytes.Buffer, *Report) error{
		"text":     func(b *bytes.Buffer, r *Report) error { return WriteText(b, r) },
		"json":     func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) },
		"sarif":    func(b *bytes.Buffer, r *Report) error { return WriteSARIF(b, r) },
		"junit":    func(b *bytes.Buffer, r *Report) error { return WriteJUnit(b, r) },
		"summary":  func(b *bytes.Buffer, r *Report) error { return WriteJobSummary(b, r) },
		"terminal": func(b *bytes.Buffer, r *Report) error { return WriteTerminal(b, r, TerminalOptions{Color: true}) },
		"github": func(b *bytes.Buffer, r *Report) error {
			return WriteGitHub(b, r, GitHubOptions{Token: func() string { return "0123456789abcdef0123456789abcdef" }, Getenv: func(string) string { return "" }})
		},
	}
	reports := map[string]func() *Report{"sample": sample, "baselined": baselinedSample, "judged": judgedReport,
		"edge": sarifEdgeReport, "hostile": sarifHostileReport}
	for name, build := range reports {
		// The same results, added one by one as a run adds them, in memory and spilled.
		respill := func(spill bool) *Report {
			r := build()
			rs := r.Results.Slice()
			r.Results = Results{}
			if spill {
				old := spillResults
				spillResults = 1
				defer func() { spillResults = old }()
			}
			r.Results.Add(rs...)
			return r
		}
		mem, spilled := respill(false), respill(true)
		if len(spilled.Results.runs) == 0 {
			t.Fatalf("%s: nothing spilled", name)
		}
		for format, write := range formats {
			var a, b bytes.Buffer
			if err := write(&a, mem); err != nil {
				t.Fatal(err)
			}
			if err := write(&b, spilled); err != nil {
				t.Fatal(err)
			}
			if a.String() != b.String() {
				t.Errorf("%s %s: spilled writes differ:\n%s\nin memory:\n%s", name, format, b.String(), a.String())
			}
		}
		spilled.Results.Close()
	}
}

// FuzzSpillDecode: whatever the temporary file holds, reading it never panics or hangs, and
// says it is damaged instead of inventing results.
func FuzzSpillDecode(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 4 {
		res := randomResult(r, i)
		f.Add(appendRecord(nil, &res))
	}
	f.Add([]byte{0, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, data []byte) {
		var d decoder
		rd := bufio.NewReader(bytes.NewReader(data))
		for i := range 100 {
			res, err := d.read(rd, i%2 == 0) // with its evidence and without
			if err != nil {
				return
			}
			// What decodes encodes to a prefix of what was read.
			if enc := appendResult(nil, &res); len(enc) == 0 {
				t.Fatal("empty encoding")
			}
		}
	})
}

// TestMillionResults: a report of a million results writes every one of them in every format, and
// the heap stays within 30 MiB while it does (README "Memory"). The heap is read at fixed points
// (every 4 MiB written), not sampled in time.
func TestMillionResults(t *testing.T) {
	const n = 1_000_000
	var peak uint64
	var ms runtime.MemStats
	sample := func() {
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	rep := &Report{Tool: Tool{Name: "evalgate", Version: "1.0.0"}, Scope: Scope{Mode: ScopeAll}}
	defer rep.Results.Close()
	for i := range n {
		o := diag.Pass
		if i%10 == 0 {
			o = diag.Fail
		}
		rep.Results.Add(diag.Result{Source: diag.SourceEvalCase, File: fmt.Sprintf("evals/f%03d.jsonl", i%1000),
			Pos: diag.Pos{Line: i/1000 + 1, Col: 1}, Check: "placeholder_integrity", CaseID: fmt.Sprintf("case-%07d", i),
			Outcome: o, Code: "ok", Message: "4 placeholder(s) preserved", Evidence: map[string]any{"n": i}})
		if i%100_000 == 0 {
			sample()
		}
	}
	rep.Finish(diag.SeverityError, time.Now(), nil)
	if rep.Summary.Pass+rep.Summary.Fail != n || rep.Summary.Fail != n/10 {
		t.Fatalf("summary %+v", rep.Summary)
	}
	counts := map[string]func(w *countingWriter) (int, error){
		"json": func(w *countingWriter) (int, error) {
			return w.count(`"source": "evalcase"`), WriteJSON(w, rep)
		},
		"text": func(w *countingWriter) (int, error) { return w.count("[ok]\n"), WriteText(w, rep) },
		"junit": func(w *countingWriter) (int, error) {
			return w.count("<testcase "), WriteJUnit(w, rep)
		},
	}
	want := map[string]int{"json": n, "text": n / 10, "junit": n}
	for format, write := range counts {
		w := &countingWriter{every: 4 << 20, sample: sample}
		_, err := write(w)
		if err != nil {
			t.Fatal(err)
		}
		if got := w.found; got != want[format] {
			t.Errorf("%s: %d results written, want %d", format, got, want[format])
		}
	}
	var sarifOut countingWriter
	sarifOut.every, sarifOut.sample = 4<<20, sample
	sarifOut.count(`"ruleId"`)
	if err := WriteSARIF(&sarifOut, rep); err != nil {
		t.Fatal(err)
	}
	if sarifOut.found != sarifMaxResults {
		t.Errorf("SARIF holds %d results, want %d", sarifOut.found, sarifMaxResults)
	}
	var summary countingWriter
	summary.every, summary.sample = 1<<20, sample
	if err := WriteJobSummary(&summary, rep); err != nil {
		t.Fatal(err)
	}
	sample()
	if peak > 30<<20 {
		t.Errorf("the heap reached %.1f MiB", float64(peak)/(1<<20))
	}
	t.Logf("peak heap %.1f MiB", float64(peak)/(1<<20))
}

// countingWriter counts the occurrences of one string in what is written through it (an
// occurrence split across two writes counts too) and calls sample every so many bytes.
type countingWriter struct {
	needle  string
	tail    []byte
	found   int
	n, next int
	every   int
	sample  func()
}

func (w *countingWriter) count(needle string) int { w.needle = needle; return 0 }

func (w *countingWriter) Write(p []byte) (int, error) {
	if w.needle != "" {
		joined := append(w.tail, p...)
		w.found += bytes.Count(joined, []byte(w.needle)) - bytes.Count(w.tail, []byte(w.needle))
		keep := min(len(joined), len(w.needle)-1)
		w.tail = append(w.tail[:0], joined[len(joined)-keep:]...)
	}
	w.n += len(p)
	if w.sample != nil && w.n >= w.next {
		w.sample()
		w.next = w.n + w.every
	}
	return len(p), nil
}

// FuzzResultJSON: the JSON report's own encoding of a result is the bytes encoding/json writes for it,
// guarded.
func FuzzResultJSON(f *testing.F) {
	f.Add("docs/a.md", "m \"q\" \\ \n\t\b\f\x01\x7f\u2028\u2029\xff<&>", "ok", "", 3, 2, 1.5, int64(12), uint8(0b101), 2)
	f.Add("", "", "", "k", 0, 5, 0.0, int64(-1), uint8(0xff), 0)
	f.Add("f", "x", "c", "key", 1, 0, 1e21, int64(0), uint8(1), 1)
	f.Add("##[x", "a##[b###[c#[ \u0085\u061c\u200b\u202e\u2066\ufeff\ufffd\xff日本", "##", "#", 1, 1, 2.5, int64(3), uint8(7), 2)
	f.Fuzz(func(t *testing.T, file, msg, code, key string, line, col int, weight float64, ms int64, flags uint8, ev int) {
		res := diag.Result{Source: diag.Source(flags % 4), File: file, Pos: diag.Pos{Line: line, Col: col}, Check: code + msg,
			CaseID: key, Grader: msg, Type: file, Outcome: diag.Outcomes[int(flags)%len(diag.Outcomes)],
			Severity: diag.Severities[int(flags>>2)%3], Blocking: flags&16 != 0, Code: code, Message: msg,
			Weight: weight, DurationMS: ms, Key: key, Verdictless: flags&32 != 0, Assertion: msg + key, Baselined: flags&64 != 0}
		switch ev % 3 {
		case 1:
			res.Evidence = map[string]any{}
		case 2:
			res.Evidence = map[string]any{msg: []any{weight, key, nil, true}, "n": line, "m": int64(col),
				key: map[string]any{code: []any{}, file: map[string]any{}, "l": []any(nil), "z": map[string]any(nil),
					"x": []any{map[string]any{msg: false}, []any{ms}}, "s": []string{code}}}
		}
		want, err := indentedJSON(toJSONResult(&res), "    ")
		if err != nil {
			if _, err := appendResultJSON(nil, &res); err == nil {
				t.Fatalf("encoding/json fails (%v), appendResultJSON does not", err)
			}
			return
		}
		got, err := appendResultJSON(nil, &res)
		if err != nil {
			t.Fatal(err)
		}
		if want = guardJSON(bytes.TrimSuffix(want, []byte("\n"))); string(got) != string(want) {
			t.Fatalf("got\n%s\nwant\n%s", got, want)
		}
	})
}

// TestMergeAhead: spilled results read back through the merging goroutine are those merge yields
// itself, in the same order, across many of its batches; a reader that stops early stops the merge,
// leaves no goroutine behind, and the next reading starts again from the first result.
func TestMergeAhead(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	spillAll(t, 7, 1<<30)
	var s Results
	defer s.Close()
	for i := range 2000 {
		s.Add(randomResult(r, i))
	}
	if len(s.runs) < 100 {
		t.Fatalf("%d runs spilled", len(s.runs))
	}
	var want []diag.Result
	s.sortBuf()
	s.merge(func(res *diag.Result) bool { want = append(want, *res); return true }, true)
	if got := s.Slice(); len(want) != 2000 || !reflect.DeepEqual(got, want) {
		t.Fatalf("read ahead: %d results, differing from merge's %d", len(got), len(want))
	}
	// Brief reads the same results back, those from the file without their evidence.
	i, dropped := 0, 0
	for res := range s.Brief() {
		got, brief := *res, want[i]
		if len(brief.Evidence) > 0 && len(got.Evidence) == 0 {
			dropped++
		}
		got.Evidence, brief.Evidence = nil, nil
		if !reflect.DeepEqual(got, brief) {
			t.Fatalf("Brief's result %d = %+v, want %+v", i, got, brief)
		}
		i++
	}
	if i != len(want) || dropped == 0 || s.Err() != nil {
		t.Fatalf("Brief read %d of %d results (%d without their evidence; err %v)", i, len(want), dropped, s.Err())
	}
	goroutines := runtime.NumGoroutine()
	for _, stopAt := range []int{0, 1, 511, 512, 513, 1500, 1999} {
		var got []diag.Result
		for res := range s.All() {
			got = append(got, *res)
			if len(got) == stopAt+1 {
				break
			}
		}
		if !reflect.DeepEqual(got, want[:stopAt+1]) {
			t.Fatalf("stopped at %d: read back differs", stopAt)
		}
		if n := runtime.NumGoroutine(); n > goroutines {
			t.Fatalf("stopped at %d: %d goroutines, %d before", stopAt, n, goroutines)
		}
	}
	if got := s.Slice(); !reflect.DeepEqual(got, want) || s.Err() != nil {
		t.Fatalf("read after early stops differs (err %v)", s.Err())
	}
}

// TestResultsBoundMessage: a message that quotes what it found is cut at 4 KiB, as an evidence string is,
// at a UTF-8 boundary and marked; a short one is kept as it is.
func TestResultsBoundMessage(t *testing.T) {
	var rs Results
	defer rs.Close()
	long := "broken link \"" + strings.Repeat("é/", 100_000) + "\""
	rs.Add(diag.Result{File: "a.md", Message: long, Key: long, Assertion: long, Code: long}, diag.Result{File: "b.md", Message: "short"})
	got := rs.Slice()
	// So are an assertion and a code (a tool's), and a key (a finding's holds its message), which ends with
	// a hash of the whole: two keys alike in their first 4 KiB stay two.
	var other Results
	defer other.Close()
	other.Add(diag.Result{File: "a.md", Key: long + "!"})
	if k, k2 := got[0].Key, other.Slice()[0].Key; len(k) > diag.MaxEvidenceString || !strings.Contains(k, "… sha256:") || k == k2 || !strings.HasPrefix(long, k[:100]) {
		t.Errorf("the long key: %d bytes, ends %q; the other ends %q", len(k), k[max(0, len(k)-48):], k2[max(0, len(k2)-48):])
	}
	for name, m := range map[string]string{"message": got[0].Message, "assertion": got[0].Assertion, "code": got[0].Code} {
		if len(m) > diag.MaxEvidenceString || !strings.HasSuffix(m, "…") || !utf8.ValidString(m) || !strings.HasPrefix(long, strings.TrimSuffix(m, "…")) {
			t.Errorf("the long %s: %d bytes, ends %q", name, len(m), m[max(0, len(m)-8):])
		}
	}
	if got[1].Message != "short" {
		t.Errorf("the short message became %q", got[1].Message)
	}
}
