package evalcase

import (
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// prefilter is a literal that every match of a pattern contains, so that a text without it cannot match
// and the pattern need not run on it: most candidates hold none of their forbidden renderings, and
// looking for a word costs a fraction of running an RE2 program over the text. It is RE2's prefilter
// idea in its simplest form, one required literal, the longest the pattern's top-level sequence names.
type prefilter struct {
	lit  string // "" when the pattern requires no literal: every text may match
	fold bool   // the literal matches in any case: it is ASCII, lower-case, and no letter of it folds to a non-ASCII one
}

// prefilterOf finds the literal that every match of the RE2 pattern s contains, if any.
func prefilterOf(s string) prefilter {
	re, err := syntax.Parse(s, syntax.Perl)
	if err != nil {
		return prefilter{}
	}
	return requiredOf(re)
}

// matchesEmpty reports whether the RE2 pattern s can match an empty string somewhere in a text: not only
// in the empty text (x*, ^) but between two characters (\b, a?\b), since an empty-width assertion may hold
// at some place of a text. Such a pattern finds a "rendering" of no characters.
func matchesEmpty(s string) bool {
	re, err := syntax.Parse(s, syntax.Perl)
	return err == nil && nullable(re)
}

// nullable reports whether re can match while consuming no character, taking every empty-width
// assertion to hold.
func nullable(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpCapture, syntax.OpPlus:
		return nullable(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min == 0 || nullable(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !nullable(sub) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if nullable(sub) {
				return true
			}
		}
	}
	return false // a literal, a class or any character consumes one; no match consumes nothing
}

// requiredOf is the longest literal every match of re contains.
func requiredOf(re *syntax.Regexp) prefilter {
	switch re.Op {
	case syntax.OpLiteral:
		return literal(re.Rune, re.Flags&syntax.FoldCase != 0)
	case syntax.OpCapture, syntax.OpPlus:
		return requiredOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredOf(re.Sub[0])
		}
	case syntax.OpConcat:
		var best prefilter
		for _, sub := range re.Sub {
			if p := requiredOf(sub); len(p.lit) > len(best.lit) {
				best = p
			}
		}
		return best
	}
	return prefilter{}
}

// literal is the prefilter of a literal's runes. A folded literal needs every letter's fold orbit to be
// ASCII (not k, whose orbit holds the Kelvin sign, nor s, with the long s). U+FFFD is never a prefilter:
// the pattern's U+FFFD also matches a byte of invalid UTF-8, which the text does not hold as U+FFFD.
func literal(runes []rune, fold bool) prefilter {
	var b strings.Builder
	for _, r := range runes {
		if r == utf8.RuneError {
			return prefilter{}
		}
		if fold {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				if f >= utf8.RuneSelf {
					return prefilter{}
				}
			}
			if r >= utf8.RuneSelf {
				return prefilter{}
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return prefilter{lit: b.String(), fold: fold}
}

// may reports whether text may match: false only when text lacks the literal.
func (p prefilter) may(text string) bool {
	switch {
	case p.lit == "":
		return true
	case !p.fold:
		return strings.Contains(text, p.lit)
	}
	lower, n := p.lit[0], len(p.lit)
	upper := lower
	if 'a' <= lower && lower <= 'z' {
		upper -= 'a' - 'A'
	}
	// The next index of each case of the first byte, each searched for again only once passed, so that
	// the text is read at most twice whatever it holds.
	lo, up := indexFrom(text, lower, 0), indexFrom(text, upper, 0)
	for {
		i := min(lo, up)
		if i+n > len(text) {
			return false
		}
		if equalFoldASCII(text[i:i+n], p.lit) {
			return true
		}
		if lo == i {
			lo = indexFrom(text, lower, i+1)
		}
		if up == i {
			up = indexFrom(text, upper, i+1)
		}
	}
}

// indexFrom is the first index of c in s at from or after it, or len(s).
func indexFrom(s string, c byte, from int) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return len(s)
}

// equalFoldASCII reports whether s equals lower, a lower-case ASCII text, in any case.
func equalFoldASCII(s, lower string) bool {
	for i := range len(lower) {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
