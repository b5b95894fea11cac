package evalcase

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestProtocolComplete(t *testing.T) {
	const (
		three    = `{"expected_items": 3}`
		threeEnd = `{"expected_items": 3, "terminator": "---END---"}`
		extraOK  = `{"expected_items": 2, "allow_extra_items": true}`
	)
	tests := []struct {
		name, text, raw, params string
		hasRaw                  bool
		want                    []string
	}{
		{name: "complete", text: "[1] a\n[2] b\n[3] c", params: three},
		{name: "complete with terminator", text: "[1] a\n[2] b\n[3] c\n---END---", params: threeEnd},
		{name: "raw_response is read before text", text: "nothing", raw: "[1] a\n[2] b\n[3] c\n---END---", hasRaw: true, params: threeEnd},
		{name: "text when raw_response is null", text: "[1] a\n[2] b\n[3] c\n---END---", params: threeEnd},
		{name: "preamble ignored", text: "Sure! Here are the translations:\n[1] a\n[2] b\n[3] c", params: three},
		{name: "multi-line items", text: "[1] a\nstill a\n[2] b\n\n[3] c", params: three},
		{name: "[2] in mid-line is content", text: "[1] see [2] below\n[2] b\n[3] c", params: three},
		{name: "[2] in mid-line does not count", text: "[1] a [2] b [3] c", params: three, want: []string{"protocol_missing_item"}},
		{name: "indented marker is content", text: "[1] a\n [2] b\n[3] c", params: three, want: []string{"protocol_malformed_item", "protocol_missing_item"}},
		{name: "text after terminator ignored", text: "[1] a\n[2] b\n[3] c\n---END---\n[4] postscript", params: threeEnd},
		{name: "first terminator ends the response", text: "[1] a\n---END---\n[2] b\n[3] c\n---END---", params: threeEnd, want: []string{"protocol_missing_item"}},
		{name: "terminator inside an item line", text: "[1] a\n[2] b\n[3] c ---END---", params: threeEnd},
		{name: "missing terminator", text: "[1] a\n[2] b\n[3] c", params: threeEnd, want: []string{"protocol_missing_terminator"}},
		{name: "missing item", text: "[1] a\n[2] b", params: three, want: []string{"protocol_missing_item"}},
		{name: "no item", text: "a b c", params: three, want: []string{"protocol_missing_item"}},
		{name: "extra item", text: "[1] a\n[2] b\n[3] c\n[4] d", params: three, want: []string{"protocol_extra_item"}},
		{name: "extra items allowed", text: "[1] a\n[2] b\n[3] c", params: extraOK},
		{name: "empty item", text: "[1] a\n[2]   \n[3] c", params: three, want: []string{"protocol_malformed_item"}},
		{name: "empty last item", text: "[1] a\n[2] b\n[3]\n---END---", params: threeEnd, want: []string{"protocol_malformed_item"}},
		{name: "gap", text: "[1] a\n[3] c\n[4] d", params: three, want: []string{"protocol_malformed_item"}},
		{name: "repeat", text: "[1] a\n[1] b\n[2] c", params: three, want: []string{"protocol_malformed_item"}},
		{name: "reordered", text: "[2] b\n[1] a\n[3] c", params: three, want: []string{"protocol_malformed_item", "protocol_malformed_item"}},
		{name: "zero", text: "[0] a\n[1] b\n[2] c", params: three, want: []string{"protocol_malformed_item"}},
		{name: "huge number", text: "[1] a\n[99999999999999999999] b\n[3] c", params: three, want: []string{"protocol_malformed_item", "protocol_malformed_item"}},
		{name: "without expected_items only numbering", text: "[1] a\n[2] b\n[3] c\n[4] d"},
		{name: "without expected_items no item", text: "just text", want: []string{"protocol_malformed_item"}},
		{name: "every fault, first in order", text: "[1] a\n[3]\n[3] c\n[4] d\n[5] e", params: threeEnd, want: []string{"protocol_missing_terminator", "protocol_malformed_item", "protocol_malformed_item", "protocol_malformed_item", "protocol_extra_item"}},
		{name: "CRLF", text: "[1] a\r\n[2] b\r\n[3] c\r\n---END---\r\n", params: threeEnd},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var raw []byte
			if tt.params != "" {
				raw = []byte(tt.params)
			}
			v := runProtocol(&input{text: tt.text, raw: tt.raw, hasRaw: tt.hasRaw}, raw)
			if got := faultCodes(v); !slices.Equal(got, tt.want) {
				t.Errorf("codes %q, want %q\nfaults: %+v", got, tt.want, v.faults)
			}
			if len(tt.want) == 0 && v.passMsg == "" {
				t.Error("a pass without a message")
			}
		})
	}
}

func TestNumberValues(t *testing.T) {
	tests := []struct {
		text string
		dec  byte
		want []string
	}{
		{"1,000 and 1.5", '.', []string{"1000", "1.5"}},
		{"1,000 and 1.5", ',', []string{"1", "15"}},
		{"1.000 und 1,5", ',', []string{"1000", "1.5"}},
		{"1 000 et 1,5", ',', []string{"1000", "1.5"}},
		{"1\u00a0000\u00a0000 et 2\u202f500,75", ',', []string{"1000000", "2500.75"}},
		{"1'234'567.89", '.', []string{"1234567.89"}},
		{"1,234,567.89", '.', []string{"1234567.89"}},
		{"1.234.567,89", ',', []string{"1234567.89"}},
		{"1.000.000", '.', []string{"1000000"}}, // a repeated decimal mark groups
		{"3 4 apples, call 555 1234", '.', []string{"3", "4", "555", "1234"}},
		{"１，０００ 件", '.', []string{"1000"}},
		{"007 and 1.50 and 2.", '.', []string{"7", "1.5", "2"}},
		{"0.0", '.', []string{"0"}},
		{"0.050 and 00.50", '.', []string{"0.05", "0.5"}},
		{"１２．５０ 件, ９ 个", '.', []string{"12.5", "9"}},
		{strings.Repeat("9", 100) + ".10", '.', []string{strings.Repeat("9", 100) + ".1"}}, // longer than value's room
	}
	for _, tt := range tests {
		var got []string
		for _, r := range lexNumbers(tt.text) {
			if !strings.Contains(tt.text, r.text) || strings.Trim(r.norm, "0123456789.,' \u00a0\u202f") != "" {
				t.Errorf("%q: the number %q read as %q", tt.text, r.text, r.norm)
			}
			got = append(got, r.value(tt.dec))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("numbers of %q with %q = %q, want %q", tt.text, tt.dec, got, tt.want)
		}
	}
}

// TestLexNumbersAllocations: numbers written in ASCII cost no allocation beyond the list of them (two
// growths for two numbers): their normal form is their text.
func TestLexNumbersAllocations(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { lexNumbers("You have 1,250 coins and 3.5 gems") }); n > 2 {
		t.Errorf("%v allocations for two numbers", n)
	}
}

func TestNumberFidelity(t *testing.T) {
	tests := []struct {
		name, source, text, src, tgt string
		placeholder                  *placeholderParams
		want                         []string
	}{
		{name: "1,000 as 1.000 in German", source: "Costs 1,000 coins", text: "Kostet 1.000 Münzen", src: "en-US", tgt: "de-DE"},
		{name: "1,000 as 1 000 in French", source: "Costs 1,000 coins", text: "Coûte 1 000 pièces", src: "en-US", tgt: "fr-FR"},
		{name: "1,000 as 1\u202f000 in French", source: "Costs 1,000 coins", text: "Coûte 1\u202f000 pièces", src: "en-US", tgt: "fr-FR"},
		{name: "1,000 kept in Chinese", source: "Costs 1,000 coins", text: "花费1,000金币", src: "en-US", tgt: "zh-Hans"},
		{name: "1,000 full-width", source: "Costs 1,000 coins", text: "１，０００コイン", src: "en-US", tgt: "ja-JP"},
		{name: "1,000 lost", source: "Costs 1,000 coins", text: "Kostet 1 Münze", src: "en-US", tgt: "de-DE", want: []string{"number_missing"}},
		{name: "1.5 as 1,5", source: "Wait 1.5 s", text: "Warte 1,5 s", src: "en-US", tgt: "de-DE"},
		{name: "1.5 kept in the source notation", source: "Wait 1.5 s", text: "Warte 1.5 s", src: "en-US", tgt: "de-DE"},
		{name: "1.000 in German source read as 1000", source: "1.000 Münzen", text: "1,000 coins", src: "de-DE", tgt: "en-US"},
		{name: "1.000 in German source is not 1", source: "1.000 Münzen", text: "1 coin", src: "de-DE", tgt: "en-US", want: []string{"number_missing"}},
		{name: "multiset", source: "3 of 3", text: "3 von 4", src: "en-US", tgt: "de-DE", want: []string{"number_missing"}},
		{name: "Swiss German", source: "1,234.5", text: "1'234.5", src: "en-US", tgt: "de-CH"},
		{name: "digits in placeholders are ignored", source: "%1$s has %2$d coins", text: "%2$d枚金币属于%1$s", src: "en-US", tgt: "zh-Hans"},
		{name: "digits in python fields ignored", source: "{0} of {1}: 5", text: "{1}中的{0}：5", src: "en-US", tgt: "zh-Hans"},
		{name: "custom placeholder digits ignored", source: "$ITEM1$ x 2", text: "2 x $ITEM1$", src: "en-US", tgt: "fr-FR", placeholder: &placeholderParams{Syntax: SyntaxCustom, Patterns: []string{`\$[A-Z0-9]+\$`}}},
		{name: "extra numbers pass", source: "5 items", text: "5 items (v2)", src: "en-US", tgt: "en-GB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := runNumbers(&input{source: tt.source, text: tt.text, sourceLocale: tt.src, targetLocale: tt.tgt, placeholder: tt.placeholder}, nil)
			if got := faultCodes(v); !slices.Equal(got, tt.want) {
				t.Errorf("codes %q, want %q\nevidence: %v", got, tt.want, v.evidence)
			}
		})
	}
}

func TestDecimalMark(t *testing.T) {
	for locale, want := range map[string]byte{
		"en-US": '.', "en": '.', "zh-Hans": '.', "zh-Hant-TW": '.', "ja-JP": '.', "ko-KR": '.',
		"de-DE": ',', "de-CH": '.', "fr-FR": ',', "fr-CA": ',', "es-ES": ',', "es-MX": '.', "es-419": '.',
		"pt-BR": ',', "ru-RU": ',', "it-IT": ',', "it-CH": '.', "pl": ',', "sr-Latn-RS": ',', "en-ZA": ',',
		"de-": ',', "de--CH": '.', "": '.', // tags validation refuses still have a mark
	} {
		if got := decimalMark(locale); got != want {
			t.Errorf("decimalMark(%s) = %q, want %q", locale, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { decimalMark("es-419") }); n != 0 {
		t.Errorf("decimalMark allocates %v times a call; it runs for every case", n)
	}
}

func TestRequiredTokens(t *testing.T) {
	tests := []struct {
		source, text string
		tokens       []string
		want         []string
	}{
		{"Press <b>Start</b>", "Drücke <b>Start</b>", []string{"<b>", "</b>"}, nil},
		{"Press <b>Start</b>", "Drücke Start", []string{"<b>", "</b>"}, []string{"required_token_missing", "required_token_missing"}},
		{"%s and %s", "%s", []string{"%s"}, []string{"required_token_missing"}},
		{"%s and %s", "%s %s %s", []string{"%s"}, nil},
		{"Gold", "Or [GOLD]", []string{"[GOLD]"}, nil}, // at least once even when the source lacks it
		{"x", "y", []string{"[GOLD]", "[GOLD]"}, []string{"required_token_missing"}},
		{"x", "y", nil, nil}, // the spec's default []: nothing is required
	}
	for _, tt := range tests {
		v := runRequiredTokens(&input{source: tt.source, text: tt.text, requiredTokens: tt.tokens}, nil)
		if got := faultCodes(v); !slices.Equal(got, tt.want) {
			t.Errorf("%q → %q with %q: codes %q, want %q", tt.source, tt.text, tt.tokens, got, tt.want)
		}
	}
}

func TestForbiddenRenderings(t *testing.T) {
	params := []byte(`{"patterns": ["(?i)\\btodo\\b", "%\\s+s", "金币"]}`)
	tests := []struct {
		text string
		want []string
	}{
		{"Alles gut", nil},
		{"TODO: übersetzen", []string{"forbidden_rendering"}},
		{"% s and 金币", []string{"forbidden_rendering", "forbidden_rendering"}},
	}
	for _, tt := range tests {
		v := runForbidden(&input{text: tt.text}, params)
		if got := faultCodes(v); !slices.Equal(got, tt.want) {
			t.Errorf("%q: codes %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestMaxChars(t *testing.T) {
	tests := []struct {
		name, text, params string
		want               bool // passes
	}{
		{"CJK code points", "欢迎来到游戏", `{"max": 6}`, true},
		{"CJK over", "欢迎来到游戏！", `{"max": 6}`, false},
		{"combining marks as code points", "e\u0301e\u0301e\u0301", `{"max": 3}`, false},
		{"combining marks as graphemes", "e\u0301e\u0301e\u0301", `{"max": 3, "unit": "graphemes"}`, true},
		{"emoji ZWJ sequence as graphemes", "👩\u200d👩\u200d👧\u200d👦👍🏽🇯🇵", `{"max": 3, "unit": "graphemes"}`, true},
		{"emoji ZWJ sequence as code points", "👩\u200d👩\u200d👧\u200d👦👍🏽🇯🇵", `{"max": 3}`, false},
		{"Hangul jamo", "\u1100\u1161\u11a8", `{"max": 1, "unit": "graphemes"}`, true},
		{"explicit code_points", "abcd", `{"max": 4, "unit": "code_points"}`, true},
		{"empty", "", `{"max": 1}`, true},
	}
	for _, tt := range tests {
		v := runMaxChars(&input{text: tt.text}, []byte(tt.params))
		if got := len(v.faults) == 0; got != tt.want {
			t.Errorf("%s: pass=%v, want %v (%v)", tt.name, got, tt.want, v.evidence)
		}
		if !tt.want && (len(v.faults) != 1 || v.faults[0].code != "max_chars_exceeded") {
			t.Errorf("%s: faults %+v", tt.name, v.faults)
		}
	}
}

// TestLargeTextsStayLinear guards against quadratic work on texts with many
// placeholders (a line may hold 16 MiB): each takes well under a second.
func TestLargeTextsStayLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	for _, tc := range []struct{ name, src, cand, syntax string }{
		{"kept", strings.Repeat("%s ", 20000), strings.Repeat("%s ", 20000), SyntaxPrintf},
		{"mutated", strings.Repeat("%s ", 20000), strings.Repeat("%d ", 20000), SyntaxPrintf},
		{"missing", strings.Repeat("%s ", 20000), strings.Repeat("x ", 20000), SyntaxPrintf},
		{"distinct", strings.Repeat("{a} {b} {c} {d} {e} ", 4000), strings.Repeat("{A} {B} ", 10000), SyntaxPython},
		{"deep ICU", strings.Repeat("{a, plural, other {", 20000), "", SyntaxICU},
	} {
		start := time.Now()
		runPlaceholders(&input{source: tc.src, text: tc.cand}, []byte(`{"syntax": "`+tc.syntax+`"}`))
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: %v", tc.name, d)
		}
	}
}
