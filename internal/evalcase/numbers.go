package evalcase

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

// Number marks (README "EvalCase v1 fixtures"): inside a number, any of these may group
// digits, and the locale's decimal mark (when it occurs once, after every
// other mark) separates the fraction.
const (
	nbsp       = '\u00A0' // NO-BREAK SPACE
	narrowNbsp = '\u202F' // NARROW NO-BREAK SPACE
)

// decimalComma lists the languages whose decimal mark is ",": CLDR's
// symbols for the Latin digits. Every other language uses ".", as en, zh,
// ja and ko do. regionDecimal overrides the language for some regions.
var decimalComma = map[string]bool{
	"af": true, "az": true, "be": true, "bg": true, "bs": true, "ca": true, "cs": true, "da": true,
	"de": true, "el": true, "es": true, "et": true, "eu": true, "fi": true, "fo": true, "fr": true,
	"gl": true, "hr": true, "hu": true, "hy": true, "id": true, "is": true, "it": true, "ka": true,
	"kk": true, "ky": true, "lt": true, "lv": true, "mk": true, "mn": true, "nb": true, "nl": true,
	"nn": true, "no": true, "pl": true, "pt": true, "ro": true, "ru": true, "sk": true, "sl": true,
	"sq": true, "sr": true, "sv": true, "tr": true, "uk": true, "uz": true, "vi": true,
}

// regionDecimal is the decimal mark of language-region pairs that differ
// from their language.
var regionDecimal = map[string]byte{
	"de-CH": '.', "de-LI": '.', "it-CH": '.', "rm-CH": '.',
	"es-MX": '.', "es-US": '.', "es-419": '.', "es-PR": '.', "es-DO": '.', "es-GT": '.',
	"es-HN": '.', "es-NI": '.', "es-PA": '.', "es-SV": '.', "es-PE": '.',
	"en-ZA": ',',
}

// decimalMark returns the decimal mark of a locale tag.
func decimalMark(locale string) byte {
	lang, rest, _ := strings.Cut(locale, "-")
	for rest != "" {
		var p string
		p, rest, _ = strings.Cut(rest, "-")
		if len(p) == 2 || (len(p) == 3 && p[0] >= '0' && p[0] <= '9') {
			if m, ok := regionDecimal[lang+"-"+p]; ok {
				return m
			}
			break
		}
	}
	if decimalComma[lang] {
		return ','
	}
	return '.'
}

// numRun is a number as written: ASCII or full-width digits with inner
// marks.
type numRun struct {
	text string // as written
	norm string // full-width digits made ASCII; marks as written
}

// digitAt returns the ASCII digit of an ASCII or full-width digit at s[i],
// and its size in bytes.
func digitAt(s string, i int) (byte, int, bool) {
	if i >= len(s) {
		return 0, 0, false
	}
	if c := s[i]; '0' <= c && c <= '9' {
		return c, 1, true
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if '０' <= r && r <= '９' {
		return byte('0' + r - '０'), size, true
	}
	return 0, 0, false
}

// markAt returns the mark at s[i] and its size. The full-width comma, full
// stop and apostrophe, which go with full-width digits, are read as their
// ASCII forms.
func markAt(s string, i int) (rune, int, bool) {
	if i >= len(s) {
		return 0, 0, false
	}
	switch s[i] {
	case ',', '.', '\'', ' ':
		return rune(s[i]), 1, true
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch r {
	case nbsp, narrowNbsp:
		return r, size, true
	case '，', '．', '＇':
		return r - 0xFEE0, size, true
	}
	return 0, 0, false
}

// lexNumbers returns the numbers of s. A mark continues a number only when a
// digit follows it; a space-like mark only when exactly three digits follow
// (a group), so that "3 4" is two numbers and "1 000" one.
func lexNumbers(s string) []numRun {
	runs, _ := lexNumbersAtMost(s, -1)
	return runs
}

// lexNumbersAtMost is lexNumbers that stops after limit numbers (no limit when
// limit < 0); over reports that s holds more.
func lexNumbersAtMost(s string, limit int) (runs []numRun, over bool) {
	var room [32]byte
	norm := room[:0] // the number being read, normalised; its room is used again for the next
	for i := 0; i < len(s); {
		if limit >= 0 && len(runs) > limit {
			return runs[:limit], true
		}
		d, size, ok := digitAt(s, i)
		if !ok {
			i++
			continue
		}
		start := i
		norm = append(norm[:0], d)
		i += size
		for i < len(s) {
			if d, size, ok := digitAt(s, i); ok {
				norm = append(norm, d)
				i += size
				continue
			}
			m, msize, ok := markAt(s, i)
			if !ok {
				break
			}
			j, n := i+msize, 0
			var group [4]byte
			for n < len(group) {
				d, size, ok := digitAt(s, j)
				if !ok {
					break
				}
				group[n] = d
				j += size
				n++
			}
			spaceLike := m == ' ' || m == nbsp || m == narrowNbsp
			if n == 0 || (spaceLike && n != 3) {
				break
			}
			norm = utf8.AppendRune(norm, m)
			if spaceLike {
				norm = append(norm, group[:n]...)
				i = j
			} else {
				i += msize
			}
		}
		text := s[start:i]
		run := numRun{text: text, norm: text} // ASCII digits and marks, the usual case: as written
		if string(norm) != text {
			run.norm = string(norm)
		}
		runs = append(runs, run)
	}
	if limit >= 0 && len(runs) > limit {
		return runs[:limit], true
	}
	return runs, false
}

// value reads a number with decimal mark dec: the mark is decimal when it
// occurs once and after every other mark; every other mark groups. The
// result is canonical: no leading zeros, no trailing fraction zeros.
func (r numRun) value(dec byte) string {
	last, count := -1, 0
	for i := 0; i < len(r.norm); i++ {
		if r.norm[i] == dec {
			last, count = i, count+1
		}
	}
	isMark := func(i int) bool { c := r.norm[i]; return c < '0' || c > '9' }
	if count == 1 {
		for i := last + 1; i < len(r.norm); i++ {
			if isMark(i) {
				count = 0 // another mark after it: it groups
				break
			}
		}
	}
	// The integer part's digits, then the fraction's: at most norm's length, on the stack but for
	// very long numbers.
	var room [64]byte
	digits, point := room[:0], -1
	for i := 0; i < len(r.norm); i++ {
		c := r.norm[i]
		switch {
		case count == 1 && i == last:
			point = len(digits)
		case c >= '0' && c <= '9':
			digits = append(digits, c)
		}
	}
	intPart, frac := digits, []byte(nil)
	if point >= 0 {
		intPart, frac = digits[:point], digits[point:]
	}
	intPart = bytes.TrimLeft(intPart, "0")
	frac = bytes.TrimRight(frac, "0")
	switch {
	case len(intPart) == 0 && len(frac) == 0:
		return "0"
	case len(frac) == 0:
		return string(intPart)
	case len(intPart) == 0:
		return "0." + string(frac)
	}
	return string(intPart) + "." + string(frac)
}

// maskTokens replaces the placeholders of s with NUL bytes, so that digits
// inside them (%1$s, {0}, %.2f) are not numbers.
func maskTokens(s string, toks []token) string {
	if len(toks) == 0 {
		return s
	}
	b := []byte(s)
	for _, t := range toks {
		for i := t.Off; i < t.Off+len(t.Text); i++ {
			b[i] = 0
		}
	}
	return string(b)
}

func runNumbers(in *input, _ []byte) verdict {
	syntax, re := SyntaxAuto, (*regexp.Regexp)(nil)
	if in.placeholder != nil {
		syntax = in.placeholder.Syntax
		var insts int
		re, insts, _ = customPattern(in.placeholder.Patterns) // validated before it is graded
		if v, over := customWork(in, insts); over {
			return v
		}
	}
	var texts [2][]numRun
	for i, t := range [2]struct{ text, where string }{{in.source, "source"}, {in.text, "candidate text"}} {
		toks, over := in.tokens(i, syntax, re)
		if over {
			return tooManyTokens("placeholders", t.where)
		}
		if texts[i], over = lexNumbersAtMost(maskTokens(t.text, toks), MaxTokens); over {
			return tooManyTokens("numbers", t.where)
		}
	}
	src, cand := texts[0], texts[1]
	srcDec, tgtDec := decimalMark(in.sourceLocale), decimalMark(in.targetLocale)
	need := map[string]int{}
	for _, n := range src {
		need[n.value(srcDec)]++
	}
	used := make([]bool, len(cand))
	// The candidate is read with the target locale, then what is left with
	// the source locale (a translation may keep the source's notation).
	for pass, dec := range []byte{tgtDec, srcDec} {
		if pass == 1 && dec == tgtDec {
			break
		}
		for i, n := range cand {
			if used[i] {
				continue
			}
			if v := n.value(dec); need[v] > 0 {
				need[v]--
				used[i] = true
			}
		}
	}
	var (
		v       verdict
		missing []any // the first diag.MaxEvidenceItems
	)
	for _, n := range src {
		val := n.value(srcDec)
		if need[val] > 0 {
			need[val]--
			if len(missing) < diag.MaxEvidenceItems {
				missing = append(missing, short(n.text))
			}
			if v.wants("number_missing") {
				v.record("number_missing", fmt.Sprintf("number %s (%s) of the source is missing", short(n.text), short(val)), map[string]any{"number": n.text, "value": val})
			}
		}
	}
	if !v.failed() {
		v.passMsg = strconv.Itoa(len(src)) + " number(s) of the source preserved"
		return v
	}
	v.evidence = map[string]any{"source_decimal": string(srcDec), "target_decimal": string(tgtDec)}
	diag.PutList(v.evidence, "expected", len(src), func(i int) any { return src[i].text })
	diag.PutList(v.evidence, "actual", len(cand), func(i int) any { return cand[i].text })
	diag.PutList(v.evidence, "missing", v.total, func(i int) any { return missing[i] })
	return v
}
