package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/actionslog"
	"github.com/evalgate/evalgate/internal/diag"
)

// escapeCase is a character with the form OneLine gives it at the start of
// text (lead), elsewhere (mid), and the form it has inside a string of the
// JSON report (json).
type escapeCase struct {
	r               rune
	lead, mid, json string
}

// spaceCases is every Unicode White_Space character: what the runner's
// TrimStart strips before it looks for "::".
var spaceCases = []escapeCase{
	{0x0009, `\t`, `\t`, `\t`},
	{0x000a, `\n`, `\n`, `\n`},
	{0x000b, `\x0b`, `\x0b`, `\u000b`},
	{0x000c, `\x0c`, `\x0c`, `\f`},
	{0x000d, `\r`, `\r`, `\r`},
	{0x0020, ` `, ` `, ` `},
	{0x0085, `\u0085`, `\u0085`, `\u0085`},
	{0x00a0, `\u00a0`, "\u00a0", "\u00a0"},
	{0x1680, `\u1680`, "\u1680", "\u1680"},
	{0x2000, `\u2000`, "\u2000", "\u2000"},
	{0x2001, `\u2001`, "\u2001", "\u2001"},
	{0x2002, `\u2002`, "\u2002", "\u2002"},
	{0x2003, `\u2003`, "\u2003", "\u2003"},
	{0x2004, `\u2004`, "\u2004", "\u2004"},
	{0x2005, `\u2005`, "\u2005", "\u2005"},
	{0x2006, `\u2006`, "\u2006", "\u2006"},
	{0x2007, `\u2007`, "\u2007", "\u2007"},
	{0x2008, `\u2008`, "\u2008", "\u2008"},
	{0x2009, `\u2009`, "\u2009", "\u2009"},
	{0x200a, `\u200a`, "\u200a", "\u200a"},
	{0x2028, `\u2028`, `\u2028`, `\u2028`},
	{0x2029, `\u2029`, `\u2029`, `\u2029`},
	{0x202f, `\u202f`, "\u202f", "\u202f"},
	{0x205f, `\u205f`, "\u205f", "\u205f"},
	{0x3000, `\u3000`, "\u3000", "\u3000"},
}

// invisibleCases is every C1 control but U+0085 (a space, above), bidi
// control and zero-width character: escaped everywhere, in every format.
var invisibleCases = append(c1Cases(), []escapeCase{
	{0x061c, `\u061c`, `\u061c`, `\u061c`},
	{0x200b, `\u200b`, `\u200b`, `\u200b`},
	{0x200c, `\u200c`, `\u200c`, `\u200c`},
	{0x200d, `\u200d`, `\u200d`, `\u200d`},
	{0x200e, `\u200e`, `\u200e`, `\u200e`},
	{0x200f, `\u200f`, `\u200f`, `\u200f`},
	{0x202a, `\u202a`, `\u202a`, `\u202a`},
	{0x202b, `\u202b`, `\u202b`, `\u202b`},
	{0x202c, `\u202c`, `\u202c`, `\u202c`},
	{0x202d, `\u202d`, `\u202d`, `\u202d`},
	{0x202e, `\u202e`, `\u202e`, `\u202e`},
	{0x2060, `\u2060`, `\u2060`, `\u2060`},
	{0x2066, `\u2066`, `\u2066`, `\u2066`},
	{0x2067, `\u2067`, `\u2067`, `\u2067`},
	{0x2068, `\u2068`, `\u2068`, `\u2068`},
	{0x2069, `\u2069`, `\u2069`, `\u2069`},
	{0xfeff, `\ufeff`, `\ufeff`, `\ufeff`},
}...)

// c1Cases are the C1 controls U+0080–U+009F but U+0085: a terminal may read U+009B as CSI and U+009D as
// OSC, the starts of escape sequences.
func c1Cases() []escapeCase {
	var cs []escapeCase
	for r := rune(0x80); r <= 0x9f; r++ {
		if r != 0x85 {
			e := fmt.Sprintf(`\u%04x`, r)
			cs = append(cs, escapeCase{r, e, e, e})
		}
	}
	return cs
}

func allEscapeCases() []escapeCase {
	return append(append([]escapeCase{}, spaceCases...), invisibleCases...)
}

// rawForbidden reports whether r must never appear raw in a report line: a
// line break, a C0 control or DEL, or a bidi or zero-width character.
func rawForbidden(r rune) bool {
	if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 {
		return true
	}
	for _, c := range invisibleCases {
		if c.r == r {
			return true
		}
	}
	return false
}

// The tables are complete: spaceCases is Unicode's White_Space (and the
// runner's set); leadingSpace and escapedRune agree with them; U+180E is
// neither (it left White_Space in Unicode 6.3) and passes unchanged.
func TestEscapeTables(t *testing.T) {
	inSpace := map[rune]bool{}
	for _, c := range spaceCases {
		inSpace[c.r] = true
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if inSpace[r] != unicode.IsSpace(r) || inSpace[r] != actionslog.IsWhiteSpace(r) || inSpace[r] != leadingSpace(r) {
			t.Errorf("%U: in spaceCases %v, unicode.IsSpace %v, actionslog %v, leadingSpace %v",
				r, inSpace[r], unicode.IsSpace(r), actionslog.IsWhiteSpace(r), leadingSpace(r))
		}
		want := r >= utf8.RuneSelf && rawForbidden(r)
		if escapedRune(r) != want {
			t.Errorf("escapedRune(%U) = %v, want %v", r, escapedRune(r), want)
		}
	}
	if s := "\u180e::x"; OneLine(s) != s || Line(s) != s {
		t.Errorf("U+180E: OneLine %q, Line %q", OneLine(s), Line(s))
	}
}

// TestEscapeUnicode feeds every White_Space character, bidi control and
// zero-width character into every escaping path and checks the escaped form
// exactly, and that the runner sees no command in any of them.
func TestEscapeUnicode(t *testing.T) {
	for _, tc := range allEscapeCases() {
		c := string(tc.r)
		t.Run(fmt.Sprintf("U+%04X", tc.r), func(t *testing.T) {
			// What a line starting with the character looks like once
			// guarded: an ASCII space keeps the line starting with "::"
			// after white space, so the guard escapes the colon.
			guarded := tc.lead + "::stop-commands::x"
			if tc.lead == " " {
				guarded = ` \x3a:stop-commands::x`
			}
			checkEq(t, "OneLine at the start", OneLine(c+"::stop-commands::x"), tc.lead+"::stop-commands::x")
			checkEq(t, "OneLine after spaces", OneLine("  "+c+"::x"), "  "+tc.lead+"::x")
			checkEq(t, "OneLine inside", OneLine("a"+c+"b"), "a"+tc.mid+"b")
			// After an ASCII space a field starts ("not selected: PATH"): as at the start.
			checkEq(t, "OneLine after a field's space", OneLine("not selected: "+c+"::x"), "not selected: "+tc.lead+"::x")
			checkEq(t, "Line", Line(c+"::stop-commands::x"), guarded)
			checkEq(t, "Line inside", Line("a"+c+"::b"), "a"+tc.mid+"::b")
			checkEq(t, "Notice", Notice(c+"::stop-commands::x"), "evalgate: "+tc.lead+"::stop-commands::x")
			noCommands(t, "Line", Line(c+"::stop-commands::x"))
			noCommands(t, "Line after white space", Line(c+c+"::error::x"))

			r := &Report{
				Tool:  Tool{Name: "evalgate", Version: "v1"},
				Scope: Scope{Mode: ScopeAll, Files: []string{c + "::stop-commands::x"}},
				Results: ResultsOf([]diag.Result{{
					Source: diag.SourcePage, File: c + "::stop-commands::x", Pos: diag.Pos{Line: 1},
					Check: c + "::k", CaseID: c + "id", Code: "c", Outcome: diag.Fail, Severity: diag.SeverityError,
					Blocking: true, Message: c + "::stop-commands::m a" + c + "b",
					Evidence: map[string]any{"tail": c + "::error::e"},
				}}...),
				Notices: []string{c + "::stop-commands::n"},
			}
			r.Count()

			// The text report: every field escaped, the line guarded.
			var text bytes.Buffer
			if err := WriteText(&text, r); err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(text.String(), "\n")
			checkEq(t, "text", first, guarded+":1: error: "+tc.lead+"::k: "+tc.lead+"::stop-commands::m a"+tc.mid+"b [c]")
			noCommands(t, "text", text.String())
			assertHygiene(t, text.String())

			// The JSON report: exact equivalents inside strings.
			var js bytes.Buffer
			if err := WriteJSON(&js, r); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{
				`"file": "` + tc.json + `::stop-commands::x"`,
				`"case_id": "` + tc.json + `id"`,
				`"message": "` + tc.json + `::stop-commands::m a` + tc.json + `b"`,
				`"tail": "` + tc.json + `::error::e"`,
			} {
				if !strings.Contains(js.String(), want) {
					t.Errorf("JSON lacks %s:\n%s", want, js.String())
				}
			}
			var back struct {
				Results []struct {
					File, Message string
					Evidence      map[string]string
				}
			}
			if err := json.Unmarshal(js.Bytes(), &back); err != nil {
				t.Fatal(err)
			}
			if got := back.Results[0]; got.File != r.Results.Slice()[0].File || got.Message != r.Results.Slice()[0].Message || got.Evidence["tail"] != c+"::error::e" {
				t.Errorf("the JSON reads back as %q", got)
			}
			noCommands(t, "JSON", js.String())
			assertHygiene(t, js.String())

			// The GitHub format: annotation message, title and file and
			// the notice are escaped; the runner sees only our commands.
			env := tempEnv(t)
			out := writeGitHub(t, r, env, GitHubOptions{})
			cmds := runnerCommands(t, out)
			var names []string
			for _, cmd := range cmds {
				names = append(names, cmd.name)
			}
			if want := []string{"stop-commands", testToken, "notice", "error"}; fmt.Sprint(names) != fmt.Sprint(want) {
				t.Fatalf("the runner sees %q, want %q:\n%s", names, want, out)
			}
			checkEq(t, "notice", cmds[2].data, "evalgate: "+tc.lead+"::stop-commands::n")
			checkEq(t, "annotation message", cmds[3].data, tc.lead+"::stop-commands::m a"+tc.mid+"b")
			checkEq(t, "annotation title", cmds[3].props["title"], tc.lead+"::k [c]")
			checkEq(t, "annotation file", cmds[3].props["file"], tc.lead+"::stop-commands::x")
			if strings.ContainsFunc(out, rawForbiddenExceptLF) {
				t.Errorf("the GitHub stream holds a raw control, bidi or zero-width character:\n%q", out)
			}

			// The job summary: escaped for Markdown (the backslash of an
			// escape too), on one line.
			md := func(s string) string { return strings.ReplaceAll(s, `\`, `\\`) }
			summary := readFile(t, env["GITHUB_STEP_SUMMARY"])
			for _, want := range []string{
				"\n- evalgate: " + md(tc.lead) + "::stop-commands::n\n",
				"\n| " + md(tc.lead) + "::stop-commands::x:1 | error | " + md(tc.lead) + "::k | c | " +
					md(tc.lead) + "::stop-commands::m a" + md(tc.mid) + "b | yes |\n",
			} {
				if !strings.Contains(summary, want) {
					t.Errorf("the summary lacks %q:\n%s", want, summary)
				}
			}
			if strings.ContainsFunc(summary, rawForbiddenExceptLF) {
				t.Errorf("the summary holds a raw control, bidi or zero-width character:\n%q", summary)
			}
			summaryHygiene(t, summary)
		})
	}
}

func rawForbiddenExceptLF(r rune) bool { return r != '\n' && rawForbidden(r) }

func checkEq(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// noCommands fails when the runner would act on a workflow command in out.
func noCommands(t *testing.T, what, out string) {
	t.Helper()
	if cmds, _ := actionslog.Read(out); len(cmds) > 0 {
		t.Errorf("%s: the runner acts on %q", what, cmds[0].Line)
	}
}

// Pure ASCII text without controls is returned without a copy, by OneLine,
// Line and guardJSON alike.
func TestEscapeNoCopy(t *testing.T) {
	s := "docs/page.md:3:5: error: links: broken link ./x.md [broken_link]"
	if n := testing.AllocsPerRun(100, func() { _ = Line(s) }); n != 0 {
		t.Errorf("Line allocates %v times on ASCII text", n)
	}
	b := []byte(`{"file": "docs/page.md", "message": "broken # link"}` + "\n")
	if out := guardJSON(b); &out[0] != &b[0] {
		t.Error("guardJSON copies ASCII JSON")
	}
	if n := testing.AllocsPerRun(100, func() { _ = guardJSON(b) }); n != 0 {
		t.Errorf("guardJSON allocates %v times on ASCII JSON", n)
	}
	// Non-ASCII text without anything to escape is not copied either.
	u := "docs/ü.md: «café» 日本語"
	if n := testing.AllocsPerRun(100, func() { _ = Line(u) }); n != 0 {
		t.Errorf("Line allocates %v times on plain Unicode text", n)
	}
}

func TestGuardJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"a##[b"`, `"a#\u0023[b"`},
		{`"###[##["`, `"##\u0023[#\u0023["`},
		{"\"\x7f\u0085\u202e\u200b\ufeff ü\"", `"\u007f\u0085\u202e\u200b\ufeff ` + "ü\""},
		{"\"\u00a0::x\"", "\"\u00a0::x\""},
	}
	for _, tt := range tests {
		if got := string(guardJSON([]byte(tt.in))); got != tt.want {
			t.Errorf("guardJSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzGuardJSON: guardJSON escapes exactly what a rune-by-rune reading says it must, and copies
// nothing when nothing needs escaping.
func FuzzGuardJSON(f *testing.F) {
	for _, s := range []string{`"a##[b"`, "\"\x7f\u0085\u202e\u200b\ufeff ü\"", "日本語 \ufffd \xff\xef\xbf", "###[", "#"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want []byte
		for i := 0; i < len(b); {
			if bytes.HasPrefix(b[i:], []byte("##[")) {
				want, i = append(want, `#\u0023[`...), i+3
				continue
			}
			r, n := utf8.DecodeRune(b[i:])
			if r == 0x7f || r >= utf8.RuneSelf && (escapedRune(r) || r == utf8.RuneError) {
				want = fmt.Appendf(want, `\u%04x`, r)
			} else {
				want = append(want, b[i:i+n]...)
			}
			i += n
		}
		got := guardJSON(b)
		if !bytes.Equal(got, want) {
			t.Fatalf("guardJSON(%q) = %q, want %q", b, got, want)
		}
		if len(b) > 0 && bytes.Equal(b, want) && &got[0] != &b[0] {
			t.Fatalf("guardJSON(%q) copied what needs no escaping", b)
		}
		out, escaped := appendGuardedJSON([]byte("x"), b)
		if escaped == bytes.Equal(b, want) || escaped && string(out) != "x"+string(want) || !escaped && string(out) != "x" {
			t.Fatalf("appendGuardedJSON(x, %q) = %q, %v", b, out, escaped)
		}
	})
}

// BenchmarkGuardJSON: a result's JSON with CJK text, the JSON report's common case.
func BenchmarkGuardJSON(b *testing.B) {
	one := []byte(`{"message": "欢迎回来，%s！你有%d枚金币，宝石1,250颗可获得%.1f%%奖励。", "evidence": {"text": "{player} hat {count} Gegenstände in {zone} gefunden; drücke <b>Öffnen</b>, um sie zu sehen.", "tag": "##[x"}}`)
	b.SetBytes(int64(len(one)))
	var out []byte
	for b.Loop() {
		out, _ = appendGuardedJSON(out[:0], one)
	}
}

func BenchmarkOneLine(b *testing.B) {
	for _, bc := range []struct{ name, s string }{
		{"ascii", "docs/guides/install.md:12:3: error: links: the link ./setup.md is broken [broken_link]"},
		{"unicode", "docs/guides/ünïcödé.md:12:3: error: links: «le lien» ./réglages.md est cassé [broken_link]"},
		{"escaped", "\u00a0::stop-commands::x\u202e\u200b\nnext line\x1b[31m"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.s)))
			for b.Loop() {
				_ = Line(bc.s)
			}
		})
	}
}

// FuzzLineGuard checks the one-line rules on any text: what Line returns is
// valid UTF-8 without CR or LF, holds no raw control, bidi or zero-width
// character, never holds "##[", and the runner reads no workflow command in
// it; OneLine leaves only ASCII spaces at the start; both are idempotent; and
// the text and JSON reports of a result made of the text hold no command.
func FuzzLineGuard(f *testing.F) {
	for _, tc := range allEscapeCases() {
		c := string(tc.r)
		f.Add(c + "::stop-commands::x")
		f.Add("a" + c + "b")
		f.Add(" " + c + "::error::x")
	}
	for _, s := range []string{"", "::error::x", " \t::add-mask::x", "##[error]x", "#\u00a0##[", "\xff::x::", "\u180e::x::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		line := Line(s)
		if !utf8.ValidString(line) {
			t.Fatalf("Line(%q) = %q is not valid UTF-8", s, line)
		}
		if strings.ContainsFunc(line, rawForbidden) {
			t.Fatalf("Line(%q) = %q holds a raw line break, control, bidi or zero-width character", s, line)
		}
		if strings.Contains(line, "##[") {
			t.Fatalf("Line(%q) = %q holds ##[", s, line)
		}
		if cmds, _ := actionslog.Read(line); len(cmds) > 0 {
			t.Fatalf("Line(%q) = %q: the runner acts on it", s, line)
		}
		one := OneLine(s)
		if lead := strings.TrimLeft(one, " "); strings.TrimLeftFunc(lead, actionslog.IsWhiteSpace) != lead {
			t.Fatalf("OneLine(%q) = %q starts with white space other than ASCII spaces", s, one)
		}
		if again := OneLine(one); again != one {
			t.Fatalf("OneLine is not idempotent: %q, then %q", one, again)
		}
		if again := Line(line); again != line {
			t.Fatalf("Line is not idempotent: %q, then %q", line, again)
		}
		if n := Notice(s); !strings.HasPrefix(n, "evalgate: ") {
			t.Fatalf("Notice(%q) = %q", s, n)
		}

		r := &Report{
			Scope: Scope{Mode: ScopeAll, Files: []string{s}},
			Results: ResultsOf([]diag.Result{{File: s, Check: s, Code: s, Message: s, CaseID: s, Outcome: diag.Fail,
				Evidence: map[string]any{s: s}}}...),
			Suites: []Suite{{Name: s}},
		}
		r.Count()
		for _, f := range []Format{FormatText, FormatJSON} {
			var buf bytes.Buffer
			if err := Write(&buf, f, r); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if !utf8.ValidString(out) || strings.Contains(out, "\r") || strings.Contains(out, "##[") ||
				strings.ContainsFunc(out, rawForbiddenExceptLF) {
				t.Fatalf("the %s report of %q breaks the one-line rules:\n%q", f, s, out)
			}
			if cmds, _ := actionslog.Read(out); len(cmds) > 0 {
				t.Fatalf("the %s report of %q: the runner acts on %q", f, s, cmds[0].Line)
			}
		}
	})
}
