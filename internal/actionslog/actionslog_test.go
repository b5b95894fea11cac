package actionslog

import (
	"fmt"
	"testing"
	"unicode"
)

// IsWhiteSpace is Unicode's White_Space, as Go's unicode.IsSpace; U+180E is
// not in it (it left White_Space in Unicode 6.3).
func TestIsWhiteSpace(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if IsWhiteSpace(r) != unicode.IsSpace(r) {
			t.Errorf("IsWhiteSpace(%U) = %v, unicode.IsSpace says %v", r, IsWhiteSpace(r), unicode.IsSpace(r))
		}
	}
	if IsWhiteSpace(0x180e) {
		t.Error("U+180E is white space")
	}
}

func TestRead(t *testing.T) {
	tests := []struct {
		name, out string
		want      []string // Name=Data of each command
		stopped   bool
	}{
		{"plain text", "a\nb ::x::y\n", nil, false},
		{"a command", "::error file=a%3Ab,line=1::m%0Ax%25", []string{"error=m\nx%"}, false},
		{"unicode white space first", "\u00a0\u3000\t::add-mask::s\r\u2007::warning::w", []string{"add-mask=s", "warning=w"}, false},
		{"CR alone ends a line", "x\r::error::e", []string{"error=e"}, false},
		{"no closing ::", "::error", nil, false},
		{"U+180E and U+200B are not trimmed", "\u180e::error::e\n\u200b::error::e", nil, false},
		{"legacy anywhere", "text ##[error]e", []string{"##[="}, false},
		{"stopped", "::stop-commands::tok\n::error::e\n::TOK::\n::error::f", []string{"stop-commands=tok", "TOK=", "error=f"}, false},
		{"still stopped", "::stop-commands::tok\n::error::e", []string{"stop-commands=tok"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmds, stopped := Read(tt.out)
			var got []string
			for _, c := range cmds {
				got = append(got, c.Name+"="+c.Data)
			}
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) || stopped != tt.stopped {
				t.Errorf("Read(%q) = %q, stopped %v; want %q, stopped %v", tt.out, got, stopped, tt.want, tt.stopped)
			}
		})
	}
	cmds, _ := Read("::error file=a%3Ab,line=1::m")
	if cmds[0].Props["file"] != "a:b" || cmds[0].Props["line"] != "1" {
		t.Errorf("properties %v", cmds[0].Props)
	}
}
