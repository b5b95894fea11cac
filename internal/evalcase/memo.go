package evalcase

import "sync"

// memo remembers the values of a pure function of a text, safely for concurrent use: fixtures
// repeat the same few params, patterns and locales, so each is decoded, compiled or checked once.
// It is bounded: holding more than max values, it forgets them all, so that a file of distinct
// texts cannot grow it without end. Values are shared and must not be changed.
type memo[V any] struct {
	mu  sync.Mutex
	m   map[string]V
	max int
	f   func(string) V
}

func newMemo[V any](max int, f func(string) V) *memo[V] {
	return &memo[V]{m: map[string]V{}, max: max, f: f}
}

// get is f(s), computed once while remembered. f runs outside the lock.
func (c *memo[V]) get(s string) V {
	c.mu.Lock()
	v, ok := c.m[s]
	c.mu.Unlock()
	if ok {
		return v
	}
	return c.put(s)
}

// getBytes is get(string(b)), which costs no allocation when b is remembered: it is read once per
// assertion of every case.
func (c *memo[V]) getBytes(b []byte) V {
	c.mu.Lock()
	v, ok := c.m[string(b)]
	c.mu.Unlock()
	if ok {
		return v
	}
	return c.put(string(b))
}

// put computes and remembers what get did not find.
func (c *memo[V]) put(s string) V {
	v := c.f(s)
	c.mu.Lock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[s] = v
	c.mu.Unlock()
	return v
}
