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
	var c paramCache[maxCharsParams]
	raw := []byte(`{"max": 80, "unit": "graphemes"}`)
	if got := c.get(raw); got != (maxCharsParams{Max: 80, Unit: "graphemes"}) {
		t.Fatalf("get = %+v", got)
	}
	if got := c.get(nil); got != (maxCharsParams{}) {
		t.Errorf("get(no params) = %+v, want the zero value", got)
	}
	if n := testing.AllocsPerRun(100, func() { c.get(raw) }); n != 0 {
		t.Errorf("a remembered text costs %v allocations", n)
	}
}
