package diag

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func seq(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func TestBoundEvidence(t *testing.T) {
	long := strings.Repeat("é", 3000) // 6000 bytes
	cutLong := strings.Repeat("é", (MaxEvidenceString-len("…"))/2) + "…"
	tests := []struct {
		name string
		in   map[string]any
		want map[string]any
	}{
		{"nil", nil, nil},
		{"small", map[string]any{"a": 1, "b": "x", "c": []any{1, 2}}, map[string]any{"a": 1, "b": "x", "c": []any{1, 2}}},
		{"exactly 100 items", map[string]any{"l": seq(100)}, map[string]any{"l": seq(100)}},
		{"101 items", map[string]any{"l": seq(101)}, map[string]any{"l": seq(100), "l_total": 101, "truncated": true}},
		{"typed list", map[string]any{"l": make([]int, 150)},
			map[string]any{"l": func() []any {
				l := seq(100)
				clear(l)
				for i := range l {
					l[i] = 0
				}
				return l
			}(), "l_total": 150, "truncated": true}},
		{"typed list within", map[string]any{"l": []string{"a"}}, map[string]any{"l": []any{"a"}}},
		{"producer's total wins", map[string]any{"l": seq(101), "l_total": 5000},
			map[string]any{"l": seq(100), "l_total": 5000, "truncated": true}},
		{"long string", map[string]any{"s": long}, map[string]any{"s": cutLong, "truncated": true}},
		{"string of exactly 4 KiB", map[string]any{"s": strings.Repeat("a", MaxEvidenceString)},
			map[string]any{"s": strings.Repeat("a", MaxEvidenceString)}},
		{"nested", map[string]any{"m": map[string]any{"l": seq(200), "s": long}, "ll": []any{seq(300)}},
			map[string]any{"m": map[string]any{"l": seq(100), "l_total": 200, "s": cutLong}, "ll": []any{seq(100)}, "truncated": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := BoundEvidence(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("BoundEvidence:\n got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// TestBoundEvidenceWhole checks the 64 KiB bound on evidence whose lists and
// strings are each within their bounds, but not the whole.
func TestBoundEvidenceWhole(t *testing.T) {
	big := func(c string) []any {
		l := make([]any, 100)
		for i := range l {
			l[i] = strings.Repeat(c, 4000)
		}
		return l
	}
	faults := make([]any, 100)
	for i := range faults {
		faults[i] = map[string]any{"code": "x", "message": strings.Repeat("<m>", 1300), "token": strings.Repeat("t", 4000)}
	}
	cases := map[string]map[string]any{
		"two big lists": {"expected": big("a"), "actual": big("b"), "syntax": "auto", "n": 3},
		"escapes":       {"s": big("<"), "syntax": "auto"},
		"objects":       {"faults": faults, "faults_total": 4000, "syntax": "auto"},
		"many keys": func() map[string]any {
			m := map[string]any{}
			for i := range 5000 {
				m[fmt.Sprintf("key-%05d", i)] = strings.Repeat("v", 100)
			}
			return m
		}(),
		"deep": {"d": []any{[]any{big("x"), big("y")}, map[string]any{"z": big("z")}}},
	}
	for name, ev := range cases {
		t.Run(name, func(t *testing.T) {
			got := BoundEvidence(ev)
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) > MaxEvidenceBytes {
				t.Errorf("evidence is %d bytes of JSON, more than %d", len(b), MaxEvidenceBytes)
			}
			if len(b) < MaxEvidenceBytes/2 {
				t.Errorf("evidence is %d bytes of JSON: cut far more than needed", len(b))
			}
			if got[TruncatedKey] != true {
				t.Errorf("no truncated marker: %.200s", b)
			}
			// The small values survive whole.
			if s, ok := ev["syntax"]; ok && got["syntax"] != s {
				t.Errorf("syntax = %v, want %v", got["syntax"], s)
			}
			if n, ok := ev["faults_total"]; ok && got["faults_total"] != n {
				t.Errorf("faults_total = %v, want %v", got["faults_total"], n)
			}
			checkBounds(t, got)
			// Bounding twice is bounding once.
			if again := BoundEvidence(got); !reflect.DeepEqual(again, got) {
				t.Errorf("BoundEvidence is not idempotent")
			}
		})
	}
}

// checkBounds asserts the per-list and per-string bounds everywhere in v.
func checkBounds(t *testing.T, v any) {
	t.Helper()
	switch x := v.(type) {
	case string:
		if len(x) > MaxEvidenceString || !utf8.ValidString(x) {
			t.Errorf("string of %d bytes (valid UTF-8: %v)", len(x), utf8.ValidString(x))
		}
	case []any:
		if len(x) > MaxEvidenceItems {
			t.Errorf("list of %d items", len(x))
		}
		for _, e := range x {
			checkBounds(t, e)
		}
	case map[string]any:
		for k, e := range x {
			checkBounds(t, k)
			checkBounds(t, e)
		}
	}
}

// TestBoundEvidenceKeepsInput checks that the input is not modified.
func TestBoundEvidenceKeepsInput(t *testing.T) {
	ev := map[string]any{"l": seq(500), "m": map[string]any{"s": strings.Repeat("x", 10000)}}
	BoundEvidence(ev)
	if len(ev["l"].([]any)) != 500 || len(ev["m"].(map[string]any)["s"].(string)) != 10000 || ev["truncated"] != nil {
		t.Errorf("BoundEvidence modified its input")
	}
}

// TestCut: text is cut at a number of bytes (cutString) or code points (ClipRunes), never inside a
// code point, and the cut is marked.
func TestCut(t *testing.T) {
	for _, tt := range []struct {
		cut  string
		s    string
		n    int
		want string
	}{
		{"bytes", "abc", 3, "abc"},
		{"bytes", "abcdef", 5, "ab…"},
		{"bytes", "ééé", 6, "ééé"},
		{"bytes", "éééé", 7, "éé…"}, // 2 é (4 bytes) + … (3 bytes)
		{"bytes", "éééé", 6, "é…"},  // the cut does not split an é
		{"bytes", "abcd", 2, "…"},
		{"runes", "", 3, ""},
		{"runes", "abc", 3, "abc"},
		{"runes", "abcd", 3, "abc…"},
		{"runes", "héllo", 2, "hé…"},
		{"runes", "日本語です", 3, "日本語…"},
		{"runes", "a\xffb\xfec", 3, "a\xffb…"}, // an invalid byte is one code point, kept as it is
		{"runes", "😀😀", 1, "😀…"},
		{"runes", "x", 0, "…"},
	} {
		cut := map[string]func(string, int) string{"bytes": cutString, "runes": ClipRunes}[tt.cut]
		if got := cut(tt.s, tt.n); got != tt.want {
			t.Errorf("cut %s (%q, %d) = %q, want %q", tt.cut, tt.s, tt.n, got, tt.want)
		}
	}
}

func TestPutList(t *testing.T) {
	ev := map[string]any{}
	calls := 0
	PutList(ev, "x", 1_000_000, func(i int) any { calls++; return i })
	if calls != MaxEvidenceItems || len(ev["x"].([]any)) != MaxEvidenceItems || ev["x_total"] != 1_000_000 || ev["truncated"] != true {
		t.Errorf("PutList: %d calls, %v", calls, ev["x_total"])
	}
	ev = map[string]any{}
	PutList(ev, "x", 3, func(i int) any { return i })
	if !reflect.DeepEqual(ev, map[string]any{"x": []any{0, 1, 2}}) {
		t.Errorf("PutList(3) = %v", ev)
	}
}

// TestFitsAtOnce: the quick measure never vouches for evidence the exact one would cut, and it
// vouches for the small evidence most results carry.
func TestFitsAtOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var value func(depth int) any
	value = func(depth int) any {
		switch k := r.IntN(8); {
		case k == 0 && depth < 4:
			list := make([]any, r.IntN(3)*r.IntN(60))
			for i := range list {
				list[i] = value(depth + 1)
			}
			return list
		case k == 1 && depth < 4:
			m := map[string]any{}
			for i := range r.IntN(6) {
				m[fmt.Sprint("k", i, strings.Repeat("é", r.IntN(3)*r.IntN(1500)))] = value(depth + 1)
			}
			return m
		case k == 2:
			return strings.Repeat("<\u2028\x01a", r.IntN(4)*r.IntN(700))
		case k == 3:
			return r.Float64()
		case k == 4:
			return r.IntN(1000)
		case k == 5:
			return nil
		}
		return "short"
	}
	vouched := 0
	for range 500 {
		ev := map[string]any{}
		for i := range 1 + r.IntN(8) {
			ev[fmt.Sprint("f", i)] = value(0)
		}
		if fitsAtOnce(ev) {
			vouched++
			if !within(ev) || jsonSize(ev) > MaxEvidenceBytes {
				t.Fatalf("fitsAtOnce vouches for evidence the bounds cut: %d bytes", jsonSize(ev))
			}
		}
		// ScanEvidence's whole walk tells the same, and also finds a bad byte wherever it is.
		fits, valid, size := ScanEvidence(ev)
		if fits != fitsAtOnce(ev) || !valid || size < jsonSize(ev)/6 {
			t.Fatalf("ScanEvidence = %v, %v, %d; fitsAtOnce %v, %d bytes of JSON", fits, valid, size, fitsAtOnce(ev), jsonSize(ev))
		}
		bad := map[string]any{"ok": ev}
		if r.IntN(2) == 0 {
			bad["x\xff"] = 1
		} else {
			bad["list"] = []any{1, map[string]any{"s": "a\xffb"}}
		}
		if _, valid, _ := ScanEvidence(bad); valid {
			t.Fatalf("ScanEvidence finds %v valid", bad)
		}
	}
	if vouched == 0 || vouched == 500 {
		t.Errorf("fitsAtOnce vouched for %d of 500: both kinds should occur", vouched)
	}
	if !fitsAtOnce(map[string]any{"faults": []any{map[string]any{"code": "x", "offset": 3}}, "n": 2}) {
		t.Error("small evidence is not vouched for")
	}
}
