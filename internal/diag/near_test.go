package diag

import (
	"strings"
	"testing"
)

func TestNearMiss(t *testing.T) {
	codes := []string{"syntax_error", "unknown_key", "command_timeout", "broken_link", "missing_anchor", "unknown_tool"}
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"broken_lnk", "broken_link", true},
		{"brokenlink", "broken_link", true},
		{"BROKEN-LINK", "broken_link", true},
		{"unknwn_key", "unknown_key", true},
		{"command_timout", "command_timeout", true},
		{"ZQZQ", "", false},
		{"xyz", "", false},
		{"", "", false},
		{"broken_link", "", false}, // the name itself is no hint
		{"unknown_tol", "unknown_tool", true},
		{"brokn_lnk", "broken_link", true}, // two edits
		{"brkn_lnk", "", false},            // three, however long the name
		{"cmmand_timot", "", false},        // three
		{"jugde", "judge", true},           // a transposition is two edits
		{"tyep", "type", true},             // in a short name too
		{"ib", "id", true},                 // one of two letters
		{"xy", "", false},                  // both: no near miss
		{"t", "", false},
	}
	codes = append(codes, "judge", "type", "id")
	for _, tt := range tests {
		got, ok := NearMiss(tt.in, codes)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("NearMiss(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"kitten", "sitting", 3},
		{"héllo", "hello", 1}, // code points, not bytes
		{"flaw", "lawn", 2},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := editDistance(tt.b, tt.a); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d (symmetry)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	for _, tt := range []struct{ s, want string }{
		{"how-too", `; did you mean "how-to"?`},
		{"HOW_TO", `; did you mean "how-to"?`},
		{"how-to", ""}, // itself: nothing to suggest
		{"zzz", ""},
	} {
		if got := Suggest(tt.s, []string{"how-to", "tutorial"}); got != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

// TestNearMissLongName: a name far longer than every candidate is compared with none of them (their
// distance is at least the difference in length), so a hostile key of a megabyte costs a copy of it,
// not a megabyte of edit distance against each name.
func TestNearMissLongName(t *testing.T) {
	long := strings.Repeat("a", 1<<20)
	names := []string{"grader", "assertion", "type", "evidence", "runs", "target", "options"}
	if got, ok := NearMiss(long, names); ok {
		t.Fatalf("NearMiss(a megabyte) = %q", got)
	}
	if n := testing.AllocsPerRun(3, func() { NearMiss(long, names) }); n > 2 {
		t.Errorf("NearMiss(a megabyte) makes %v allocations: it computed edit distances", n)
	}
}
