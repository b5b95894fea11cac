package evalcase

import (
	"reflect"
	"regexp"
	"slices"
	"testing"
)

func ids(toks []token) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.ID
	}
	return out
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		syntax, text string
		want         []string // token IDs in order
	}{
		// printf (README "EvalCase v1 fixtures").
		{SyntaxPrintf, "Welcome, %s! You have %d coins.", []string{"%s", "%d"}},
		{SyntaxPrintf, "%1$s and %2$d, %3$.2f", []string{"%1$s", "%2$d", "%3$.2f"}},
		{SyntaxPrintf, "100%% done, %-5.2lf %+d %#x %05d %'d %*d %.*f %hhd %llu %zu %jd %td %Lf %qd %p %c %a %E %G %i %o %X", []string{"%%", "%-5.2lf", "%+d", "%#x", "%05d", "%'d", "%*d", "%.*f", "%hhd", "%llu", "%zu", "%jd", "%td", "%Lf", "%qd", "%p", "%c", "%a", "%E", "%G", "%i", "%o", "%X"}},
		{SyntaxPrintf, "100% sure, % s, %S, ％s, %y, %", nil}, // space is not a flag
		{SyntaxPrintf, "%0$s %10s", []string{"%10s"}},        // %0$ is not a position; %10s is width 10
		{SyntaxPrintf, "%(name)s {name}", nil},
		// python: %-formatting and str.format.
		{SyntaxPython, "%(name)s has %(count)d items, %s %r %a %%", []string{"%(name)s", "%(count)d", "%s", "%r", "%a", "%%"}},
		{SyntaxPython, "{name} {0} {} {n:>5} {n!r} {n!r:^10} {user.name} {items[0]} {n:>{width}}", []string{"{name}", "{0}", "{}", "{n:>5}", "{n!r}", "{n!r:^10}", "{user.name}", "{items[0]}", "{n:>{width}}"}},
		{SyntaxPython, "{{literal}} {{{name}}} }}", []string{"{{", "}}", "{{", "{name}", "}}", "}}"}},
		{SyntaxPython, "{ name } {n!x} {n", nil},
		{SyntaxPython, "%p %'d", nil}, // not Python conversions or flags
		{SyntaxPython, "{名前} {_x1}", []string{"{名前}", "{_x1}"}},
		// ICU MessageFormat.
		{SyntaxICU, "{name} {count, number} {d, date, short} { spaced }", []string{"{name}", "{count, number}", "{d, date}", "{spaced}"}},
		{SyntaxICU, "{count, plural, one {# file in {folder}} other {# files in {folder} of {user}}}", []string{"{count, plural; {folder} {user}}"}},
		{SyntaxICU, "{gender, select, male {he} female {she} other {they}} said", []string{"{gender, select, female|male|other}"}},
		{SyntaxICU, "'{name}' is quoted, '{'{name}'}' too, but don''t {x}", []string{"{name}", "{x}"}},
		{SyntaxICU, "{n, plural, =0 {none} one {'{'# item'}' {a}} other {{b, number}}}", []string{"{n, plural; {a} {b, number}}"}},
		{SyntaxICU, "{n, plural, offset:1 one {x} few {y}}", []string{"{n, plural; no other}"}},
		{SyntaxICU, "{n, selectordinal, one {#st} two {#nd} other {#th}}", []string{"{n, selectordinal}"}},
		{SyntaxICU, "{g, select, a {{n, plural, other {{x}}}} other {}}", []string{"{g, select, a|other; {n, plural; {x}}}"}},
		{SyntaxICU, "{broken, plural, one {x} {bare}", []string{"{x}", "{bare}"}}, // an unclosed argument is text
		{SyntaxICU, "{}", nil},
		// auto: the union, most specific first.
		{SyntaxAuto, "%s {name} %(n)d {0} %1$s {c, number} %% {{", []string{"%s", "{name}", "%(n)d", "{0}", "%1$s", "{c, number}", "%%", "{{"}},
		{SyntaxAuto, "'{name}' and {n, plural, other {# {x}}} and %r", []string{"{name}", "{n, plural; {x}}", "%r"}},
	}
	for _, tt := range tests {
		got := ids(tokenize(tt.text, tt.syntax, nil))
		if !slices.Equal(got, tt.want) {
			t.Errorf("tokenize(%q, %s) = %q, want %q", tt.text, tt.syntax, got, tt.want)
		}
	}
}

func TestTokenizeCustom(t *testing.T) {
	re, _, err := customPattern([]string{`\$[A-Z_]+\$`, `£[a-z]+£`, `\[[A-Z][A-Za-z.]*\]`})
	if err != nil {
		t.Fatal(err)
	}
	got := ids(tokenize("Gain $GOLD$ £coin£ from [Root.GetName] and %s", SyntaxCustom, re))
	if want := []string{"$GOLD$", "£coin£", "[Root.GetName]"}; !slices.Equal(got, want) {
		t.Errorf("custom = %q, want %q", got, want)
	}
	// Under auto, the custom patterns join the union and win first.
	got = ids(tokenize("$GOLD$ %s {x}", SyntaxAuto, re))
	if want := []string{"$GOLD$", "%s", "{x}"}; !slices.Equal(got, want) {
		t.Errorf("auto+custom = %q, want %q", got, want)
	}
}

// placeholderCase runs placeholder_integrity on a source and a candidate.
func placeholderCase(source, text, params string) verdict {
	var raw []byte
	if params != "" {
		raw = []byte(params)
	}
	return runPlaceholders(&input{source: source, text: text}, raw)
}

func faultCodes(v verdict) []string {
	var out []string
	for _, f := range v.faults {
		out = append(out, f.code)
	}
	slices.SortStableFunc(out, func(a, b string) int { return codeRank(a) - codeRank(b) })
	return out
}

func TestPlaceholderIntegrity(t *testing.T) {
	const (
		printf    = `{"syntax": "printf"}`
		printfNo  = `{"syntax": "printf", "allow_reorder": false}`
		python    = `{"syntax": "python"}`
		pythonNo  = `{"syntax": "python", "allow_reorder": false}`
		icu       = `{"syntax": "icu"}`
		auto      = ``
		customPat = `{"syntax": "custom", "patterns": ["\\$[A-Z]+\\$"]}`
	)
	tests := []struct {
		name, source, text, params string
		want                       []string // fault codes, first = the result's code
	}{
		{"identity", "Welcome, %s! You have %d coins.", "欢迎，%s！你有%d枚金币。", printf, nil},
		{"%s %s becoming %s", "%s and %s", "%s", printf, []string{"placeholder_count_mismatch"}},
		{"duplicated", "%s", "%s %s", printf, []string{"placeholder_count_mismatch"}},
		{"missing", "%s has %d", "%s has", printf, []string{"placeholder_missing"}},
		{"extra", "%s", "%s %d", printf, []string{"placeholder_extra"}},
		{"another conversion", "%s has %d", "%s has %s", printf, []string{"placeholder_mutated"}},
		{"sequential reordered", "%s has %d", "%d has %s", printf, []string{"placeholder_reordered"}},
		{"positional reordered", "%1$s has %2$d", "%2$d has %1$s", printf, nil},
		{"positional reordered, allow_reorder false", "%1$s has %2$d", "%2$d has %1$s", printfNo, []string{"placeholder_reordered"}},
		{"positional kept, allow_reorder false", "%1$s has %2$d", "%1$s a %2$d", printfNo, nil},
		{"positional conversion changed", "%1$s has %2$d", "%1$s has %2$s", printf, []string{"placeholder_mutated"}},
		{"%% lost", "100%% of %s", "100% of %s", printf, []string{"placeholder_missing"}},
		{"%% kept", "100%% of %s", "%s的100%%", printf, nil},
		{"full-width ％s", "Hello %s", "你好％s", printf, []string{"placeholder_mutated"}},
		{"space inside % s", "Hello %s", "Hallo % s", printf, []string{"placeholder_mutated"}},
		{"case change %S", "Hello %s", "Hallo %S", printf, []string{"placeholder_mutated"}},
		{"full-width %ｄ", "%d left", "残り%ｄ", printf, []string{"placeholder_mutated"}},
		{"near-miss only in place of a missing token", "%s", "%s, 100% sure", printf, nil},
		{"%(name)s kept and moved", "%(name)s has %(count)d", "%(count)d items for %(name)s", python, nil},
		{"%(name)s moved, allow_reorder false", "%(name)s has %(count)d", "%(count)d items for %(name)s", pythonNo, []string{"placeholder_reordered"}},
		{"%(name)s renamed", "%(name)s", "%(nom)s", python, []string{"placeholder_missing", "placeholder_extra"}},
		{"%(name)s conversion changed", "%(name)s", "%(name)d", python, []string{"placeholder_mutated"}},
		{"%(name)s case changed", "%(name)s", "%(Name)s", python, []string{"placeholder_mutated"}},
		{"{{ }} escapes kept", "{{literal}} {name}", "{name} {{literal}}", python, nil},
		{"{{ escape lost", "{{literal}} {name}", "{literal} {name}", python, []string{"placeholder_missing", "placeholder_missing", "placeholder_extra"}},
		{"{{name}} is not a field", "{{name}}", "{{nom}}", python, nil},
		{"{n:>5} kept", "{n:>5} items", "{n:>5}件", python, nil},
		{"{n:>5} spec changed", "{n:>5} items", "{n:<5}件", python, []string{"placeholder_mutated"}},
		{"{n!r} kept", "value {n!r}", "valeur {n!r}", python, nil},
		{"{n!r} conversion dropped", "value {n!r}", "valeur {n}", python, []string{"placeholder_mutated"}},
		{"{ name } space inside", "Hi {name}", "Hallo { name }", python, []string{"placeholder_mutated"}},
		{"{Name} case change", "Hi {name}", "Hallo {Name}", python, []string{"placeholder_mutated"}},
		{"named fields reorder", "{a} then {b}", "{b} dann {a}", python, nil},
		{"indexed fields reorder", "{0} then {1}", "{1} dann {0}", python, nil},
		{"bare {} cannot reorder", "{} then {:d}", "{:d} dann {}", python, []string{"placeholder_reordered"}},
		{"ICU plural, fewer branches in the target", "{count, plural, one {# file in {folder}} other {# files in {folder}}}", "{count, plural, other {{folder}に#個のファイル}}", icu, nil},
		{"ICU plural, more branches in the target", "{count, plural, one {# file} other {# files}}", "{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}", icu, nil},
		{"ICU plural loses a nested argument", "{count, plural, one {# file in {folder}} other {# files in {folder}}}", "{count, plural, other {#個のファイル}}", icu, []string{"placeholder_mutated"}},
		{"ICU plural without other", "{count, plural, one {# file} other {# files}}", "{count, plural, one {# Datei}}", icu, []string{"placeholder_mutated"}},
		{"ICU nested select and quoting", "{g, select, male {{n, plural, one {'{'# item'}'} other {# items}}} female {{n, plural, other {# items}}} other {{n, plural, other {# items}}}}", "{g, select, male {{n, plural, other {# Stück}}} female {{n, plural, other {# Stück}}} other {{n, plural, other {'#' # Stück}}}}", icu, nil},
		{"ICU select keywords changed", "{g, select, male {he} female {she} other {they}}", "{g, select, masc {il} other {iel}}", icu, []string{"placeholder_mutated"}},
		{"ICU type is identity", "{n, number} left", "{n} übrig", icu, []string{"placeholder_mutated"}},
		{"ICU style is not identity", "{d, date, short}", "{d, date, medium}", icu, nil},
		{"ICU quoted brace is not an argument", "'{name}' {x}", "{name} {x}", icu, []string{"placeholder_extra"}},
		{"ICU arguments reorder", "{a} and {b}", "{b} und {a}", icu, nil},
		{"auto union", "%s {name} %(n)d", "{name} %s %(n)d", auto, nil},
		// Under auto {n} is Python's and {n, number} ICU's: one in place of the other is a changed type.
		{"auto: ICU type dropped", "{n, number} items", "{n} Elemente", auto, []string{"placeholder_mutated"}},
		{"auto: ICU type added", "{n} items", "{n, number} Elemente", auto, []string{"placeholder_mutated"}},
		{"auto: plural flattened", "{count, plural, one {# item} other {# items}}", "{count} Elemente", auto, []string{"placeholder_mutated"}},
		{"auto union, sequential moved", "%s %d {name}", "{name} %d %s", auto, []string{"placeholder_reordered"}},
		{"custom", "Gain $GOLD$ and $XP$", "Obtenez $XP$ et $GOLD$", customPat, nil},
		{"custom missing", "Gain $GOLD$", "Obtenez de l'or", customPat, []string{"placeholder_missing"}},
		{"custom mutated", "Gain $GOLD$", "Obtenez $ GOLD$", customPat, []string{"placeholder_mutated"}},
		{"every fault listed", "%s %s %d %x", "%s %o ％x %y", printf, []string{"placeholder_mutated", "placeholder_mutated", "placeholder_count_mismatch"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := placeholderCase(tt.source, tt.text, tt.params)
			if got := faultCodes(v); !slices.Equal(got, tt.want) {
				t.Errorf("source %q, candidate %q: codes %q, want %q\nfaults: %+v", tt.source, tt.text, got, tt.want, v.faults)
			}
		})
	}
}

func TestLoosePatternMatchesMutations(t *testing.T) {
	re := loosePattern("%1$s")
	for _, s := range []string{"%1$s", "％1$s", "% 1 $ s", "%1$S", "％１＄ｓ"} {
		if !re.MatchString(s) {
			t.Errorf("loosePattern(%%1$s) does not match %q", s)
		}
	}
	if re.MatchString("%2$s") {
		t.Error("loosePattern(%1$s) matches %2$s")
	}
	if _, err := regexp.Compile(loosePattern(`[\]-^{}`).String()); err != nil {
		t.Error(err)
	}
}

// TestInputTokens: an input finds each text's tokens once for a syntax and pattern, finds them again
// for another, and the assertions that share them decide as they do alone, in either order.
func TestInputTokens(t *testing.T) {
	in := &input{source: "Hello %s, you have %d messages (3 new)", text: "Bonjour %s, vous avez %d messages (3 nouveaux)"}
	first, _ := in.tokens(0, SyntaxPrintf, nil)
	again, _ := in.tokens(0, SyntaxPrintf, nil)
	if len(first) != 2 || &first[0] != &again[0] || !reflect.DeepEqual(first, tokenize(in.source, SyntaxPrintf, nil)) {
		t.Fatalf("tokens = %v, then %v", first, again)
	}
	if got, _ := in.tokens(1, SyntaxPython, nil); !reflect.DeepEqual(got, tokenize(in.text, SyntaxPython, nil)) {
		t.Errorf("text under python: %v", got)
	}
	if got, _ := in.tokens(0, SyntaxPython, nil); !reflect.DeepEqual(got, tokenize(in.source, SyntaxPython, nil)) {
		t.Errorf("source after a change of syntax: %v", got)
	}
	in.release()
	if in.toks.made != [2]bool{} || in.toks.bufs != [2]*[]token{} {
		t.Errorf("release left %+v", in.toks)
	}

	params := []byte(`{"syntax": "printf"}`)
	for _, cand := range []string{in.text, "Bonjour %d, vous avez %s messages (4 nouveaux)", "Bonjour, 3 messages"} {
		fresh := func() *input {
			p := decodePlaceholderParams(params)
			return &input{source: in.source, text: cand, sourceLocale: "en", targetLocale: "fr", placeholder: &p}
		}
		wantP, wantN := runPlaceholders(fresh(), params), runNumbers(fresh(), nil)
		shared := fresh()
		if gotN, gotP := runNumbers(shared, nil), runPlaceholders(shared, params); !reflect.DeepEqual(gotP, wantP) || !reflect.DeepEqual(gotN, wantN) {
			t.Errorf("%q: shared tokens decide\n%+v\n%+v\nalone\n%+v\n%+v", cand, gotP, gotN, wantP, wantN)
		}
		shared.release()
	}
}
