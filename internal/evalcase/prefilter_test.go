package evalcase

import (
	"regexp"
	"testing"
)

func TestPrefilterOf(t *testing.T) {
	tests := []struct {
		pattern string
		want    prefilter
	}{
		{`(?i)\btodo\b`, prefilter{lit: "todo", fold: true}},
		{`TODO`, prefilter{lit: "TODO"}},
		{`(?i)ToDo:`, prefilter{lit: "todo:", fold: true}},
		{`\d+ (kg|lb)s? per day`, prefilter{lit: " per day"}},
		{`(?:ab)+x`, prefilter{lit: "ab"}},
		{`(?:abc){2,}`, prefilter{lit: "abc"}},
		{`é{1,3}x`, prefilter{lit: "é"}},
		{`(?i)é`, prefilter{}},  // a non-ASCII letter in any case
		{`(?i)kg`, prefilter{}}, // k folds to the Kelvin sign
		{`(?i)us`, prefilter{}}, // s folds to the long s
		{`a|b`, prefilter{}},    // either
		{`(?:abc)?x`, prefilter{lit: "x"}},
		{`(?:abc){0,2}`, prefilter{}}, // maybe none
		{`\x{FFFD}`, prefilter{}},     // also matches a byte of invalid UTF-8
		{`[`, prefilter{}},            // not a pattern
	}
	for _, tt := range tests {
		if got := prefilterOf(tt.pattern); got != tt.want {
			t.Errorf("prefilterOf(%q) = %+v, want %+v", tt.pattern, got, tt.want)
		}
	}
}

func TestPrefilterMay(t *testing.T) {
	fold := prefilter{lit: "todo", fold: true}
	tests := []struct {
		p    prefilter
		text string
		want bool
	}{
		{prefilter{}, "anything", true},
		{prefilter{lit: "TODO"}, "a TODO here", true},
		{prefilter{lit: "TODO"}, "a todo here", false},
		{fold, "a ToDo here", true},
		{fold, "TODO", true},
		{fold, "tod", false},
		{fold, "tttttodo", true},
		{fold, "TtTtTodO", true},
		{fold, "t o d o", false},
		{fold, "", false},
		{prefilter{lit: "1-2", fold: true}, "a 1-2 b", true},
	}
	for _, tt := range tests {
		if got := tt.p.may(tt.text); got != tt.want {
			t.Errorf("%+v.may(%q) = %v, want %v", tt.p, tt.text, got, tt.want)
		}
	}
}

// FuzzPrefilter: a text the prefilter rules out never matches the pattern.
func FuzzPrefilter(f *testing.F) {
	for _, s := range [][2]string{{`(?i)\btodo\b`, "a ToDo b"}, {`(?i)kg`, "3 \u212Ag"}, {`\x{FFFD}`, "\xff"},
		{`(?i)(?:ab)+c`, "xABabC"}, {`(?s)a.b`, "a\nb"}, {`(?i)straße`, "STRASSE"}, {`(?U)a+?b{2,}`, "aabb"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		p := prefilterOf(pattern)
		if re.MatchString(text) && !p.may(text) {
			t.Fatalf("%q matches %q, but its prefilter %+v rules the text out", pattern, text, p)
		}
	})
}

// TestMatchesEmpty: a pattern that can match no characters anywhere is refused, one that must consume a
// character is not; for each, regexp agrees on a few texts (an empty match found means matchesEmpty).
func TestMatchesEmpty(t *testing.T) {
	tests := []struct {
		pattern string
		want    bool
	}{
		{`x*`, true},
		{`^`, true},
		{`(?m)$`, true},
		{`\b`, true},
		{`\B`, true},
		{`\bx?`, true},
		{`a*\b`, true},
		{`(?:ab){0,3}`, true},
		{`a|`, true},
		{`()`, true},
		{`x`, false},
		{`\bfoo\b`, false},
		{`(?i)todo`, false},
		{`a+`, false},
		{`(?:ab){1,3}`, false},
		{`[0-9]`, false},
		{`.`, false},
		{`a|b`, false},
		{`[^\x00-\x{10FFFF}]`, false}, // matches nothing at all
	}
	texts := []string{"", "x", "Hallo Welt", "ab ab", "a b", "x\ny"}
	for _, tt := range tests {
		if got := matchesEmpty(tt.pattern); got != tt.want {
			t.Errorf("matchesEmpty(%q) = %v, want %v", tt.pattern, got, tt.want)
		}
		re := regexp.MustCompile(tt.pattern)
		for _, text := range texts {
			for _, m := range re.FindAllStringIndex(text, -1) {
				if m[0] == m[1] && !tt.want {
					t.Errorf("%q matches empty in %q at %d, but is not refused", tt.pattern, text, m[0])
				}
			}
		}
	}
}
