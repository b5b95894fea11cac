package evalcase

import (
	"strconv"
	"sync"
	"testing"
)

// TestMemo: a value is computed once while remembered, the memo never holds
// more than its bound, and concurrent gets agree.
func TestMemo(t *testing.T) {
	var mu sync.Mutex
	calls := map[string]int{}
	m := newMemo(3, func(s string) int {
		mu.Lock()
		calls[s]++
		mu.Unlock()
		return len(s)
	})
	for range 2 {
		if got := m.get("abc"); got != 3 {
			t.Fatalf("get(abc) = %d, want 3", got)
		}
	}
	if calls["abc"] != 1 {
		t.Errorf("abc computed %d times, want once", calls["abc"])
	}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := strconv.Itoa(i)
			if got := m.get(s); got != len(s) {
				t.Errorf("get(%q) = %d", s, got)
			}
		}()
	}
	wg.Wait()
	if n := len(m.m); n > 3 {
		t.Errorf("the memo holds %d values, more than its bound 3", n)
	}
}

// TestParamCache: params decode as encoding/json reads them, and a text decoded before costs no
// allocation (the cache is read once per assertion of every case).
func TestParamCache(t *testing.T) {
	c := newMemo(1024, paramsOf[maxCharsParams])
	raw := []byte(`{"max": 80, "unit": "graphemes"}`)
	if got := c.getBytes(raw); got != (maxCharsParams{Max: 80, Unit: "graphemes"}) {
		t.Fatalf("get = %+v", got)
	}
	if got := c.getBytes(nil); got != (maxCharsParams{}) {
		t.Errorf("get(no params) = %+v, want the zero value", got)
	}
	if n := testing.AllocsPerRun(100, func() { c.getBytes(raw) }); n != 0 {
		t.Errorf("a remembered text costs %v allocations", n)
	}
}

// TestCleanParams: params are valid by each assertion's own rules, no params included, and a
// verdict remembered for one assertion is not another's.
func TestCleanParams(t *testing.T) {
	for _, c := range []struct {
		name string
		raw  string // "" for no params
		want bool
	}{
		{"max_chars", `{"max": 80}`, true},
		{"max_chars", "", false}, // max is required
		{"max_chars", `{"max": 0}`, false},
		{"placeholder_integrity", "", true},
		{"placeholder_integrity", `{"max": 80}`, false}, // not its param
		{"placeholder_integrity", `{"syntax": "printf"}`, true},
	} {
		var raw []byte
		if c.raw != "" {
			raw = []byte(c.raw)
		}
		for range 2 { // computed, then remembered
			if got := cleanParams(lookupAssertion(c.name), raw); got != c.want {
				t.Errorf("%s %s: valid = %v, want %v", c.name, c.raw, got, c.want)
			}
		}
	}
}
