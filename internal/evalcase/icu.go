package evalcase

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxICUDepth bounds the nesting of ICU sub-messages; deeper text is not a
// placeholder (and the parser does not recurse without end).
const maxICUDepth = 32

// icuArg is one ICU MessageFormat argument:
//
//	{name}  {name, type}  {name, type, style}
//	{name, plural|selectordinal, [offset:n] (selector {message})+}
//	{name, select, (keyword {message})+}
//
// Its identity (README "EvalCase v1 fixtures") is the name and the type (not the style of
// a simple argument); for plural and selectordinal the set of arguments
// inside the branches and whether `other` exists (the branch keywords may
// differ between locales); for select also the set of keywords.
type icuArg struct {
	start, end int // byte offsets of { and just past }
	name, typ  string
	complex    bool     // plural, selectordinal or select
	keywords   []string // select: the keywords, sorted
	hasOther   bool
	nested     []string // identities of the arguments inside the branches, sorted, unique
}

func (a *icuArg) identity() string {
	switch {
	case a.typ == "":
		return "{" + a.name + "}"
	case !a.complex:
		return "{" + a.name + ", " + a.typ + "}"
	}
	var b strings.Builder
	b.WriteString("{" + a.name + ", " + a.typ)
	if a.typ == "select" {
		b.WriteString(", " + strings.Join(a.keywords, "|"))
	}
	if len(a.nested) > 0 {
		b.WriteString("; " + strings.Join(a.nested, " "))
	}
	if !a.hasOther {
		b.WriteString("; no other")
	}
	b.WriteString("}")
	return b.String()
}

// icuParser parses ICU arguments in s.
type icuParser struct {
	s     string
	depth int
}

// scanICU reads an ICU argument at s[i] == '{'.
func scanICU(s string, i int) (token, bool) {
	p := icuParser{s: s}
	a, ok := p.arg(i)
	if !ok {
		return token{}, false
	}
	return token{Text: s[a.start:a.end], Off: i, ID: a.identity(), Base: "{" + a.name, Kind: kindICU, Order: orderFree}, true
}

// part reads a part of an argument from p.s[j]: white space, a word, white
// space, then '}' (closed: the argument ends) or ','; next is past either.
func (p *icuParser) part(j int) (word string, next int, closed, ok bool) {
	word, j = p.word(p.space(j))
	if word == "" || j >= len(p.s) {
		return "", j, false, false
	}
	if j = p.space(j); j < len(p.s) && (p.s[j] == '}' || p.s[j] == ',') {
		return word, j + 1, p.s[j] == '}', true
	}
	return "", j, false, false
}

// arg parses the argument at p.s[i] == '{'.
func (p *icuParser) arg(i int) (icuArg, bool) {
	a := icuArg{start: i}
	var j int
	var closed, ok bool
	a.name, j, closed, ok = p.part(i + 1)
	if ok && !closed {
		a.typ, j, closed, ok = p.part(j)
	}
	if !ok || closed {
		a.end = j
		return a, ok
	}
	switch a.typ {
	case "plural", "selectordinal", "select":
		a.complex = true
		end, ok := p.branches(&a, j)
		if !ok {
			return a, false
		}
		a.end = end
	default:
		end, ok := p.style(j)
		if !ok {
			return a, false
		}
		a.end = end
	}
	return a, true
}

// branches parses the selectors and sub-messages of a complex argument from
// p.s[j] up to its closing brace; it returns the offset past that brace.
func (p *icuParser) branches(a *icuArg, j int) (int, bool) {
	s := p.s
	inPlural := a.typ != "select"
	n := 0
	for {
		j = p.space(j)
		if j >= len(s) {
			return 0, false
		}
		if s[j] == '}' {
			break
		}
		if inPlural && n == 0 && strings.HasPrefix(s[j:], "offset:") {
			j = p.space(j + len("offset:"))
			k := digitsEnd(s, j)
			if k == j {
				return 0, false
			}
			j = k
			continue
		}
		var sel string
		if s[j] == '=' && inPlural {
			k := digitsEnd(s, j+1)
			if k < len(s) && s[k] == '.' {
				k = digitsEnd(s, k+1)
			}
			if k == j+1 {
				return 0, false
			}
			sel, j = s[j:k], k
		} else {
			sel, j = p.word(j)
			if sel == "" {
				return 0, false
			}
		}
		j = p.space(j)
		if j >= len(s) || s[j] != '{' {
			return 0, false
		}
		end, ok := p.message(j+1, inPlural, &a.nested)
		if !ok {
			return 0, false
		}
		j = end + 1
		n++
		if sel == "other" {
			a.hasOther = true
		}
		if a.typ == "select" && !slices.Contains(a.keywords, sel) {
			a.keywords = append(a.keywords, sel)
		}
	}
	if n == 0 {
		return 0, false
	}
	slices.Sort(a.keywords)
	slices.Sort(a.nested)
	a.nested = slices.Compact(a.nested)
	return j + 1, true
}

// message parses a sub-message from p.s[i] to its closing brace, whose
// offset it returns, adding the identities of the arguments inside to
// nested. Apostrophes quote as in ICU (see skipQuote).
func (p *icuParser) message(i int, inPlural bool, nested *[]string) (int, bool) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxICUDepth {
		return 0, false
	}
	s := p.s
	for j := i; j < len(s); {
		switch s[j] {
		case '\'':
			j = skipQuote(s, j, inPlural)
		case '{':
			a, ok := p.arg(j)
			if !ok {
				return 0, false
			}
			*nested = append(*nested, a.identity())
			j = a.end
		case '}':
			return j, true
		default:
			j++
		}
	}
	return 0, false
}

// style skips a simple argument's style up to the argument's closing brace
// (quoted text and balanced braces included) and returns the offset past it.
func (p *icuParser) style(j int) (int, bool) {
	s := p.s
	depth := 0
	for j < len(s) {
		switch s[j] {
		case '\'':
			j = skipQuote(s, j, false)
			continue
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return j + 1, true
			}
			depth--
		}
		j++
	}
	return 0, false
}

// skipQuote skips the apostrophe at s[j] as ICU reads it (ApostropheMode
// DOUBLE_OPTIONAL): ” is one apostrophe; an apostrophe before {, }, | (or
// # inside a plural branch) starts quoted text up to the next single
// apostrophe (or the end), in which ” is one apostrophe; any other
// apostrophe is literal.
func skipQuote(s string, j int, inPlural bool) int {
	if j+1 >= len(s) {
		return j + 1
	}
	switch c := s[j+1]; {
	case c == '\'':
		return j + 2
	case c == '{' || c == '}' || c == '|' || (inPlural && c == '#'):
	default:
		return j + 1
	}
	for k := j + 1; k < len(s); k++ {
		if s[k] != '\'' {
			continue
		}
		if k+1 < len(s) && s[k+1] == '\'' {
			k++
			continue
		}
		return k + 1
	}
	return len(s)
}

// space skips Pattern_White_Space.
func (p *icuParser) space(j int) int {
	for j < len(p.s) {
		r, size := utf8.DecodeRuneInString(p.s[j:])
		if !unicode.Is(unicode.Pattern_White_Space, r) {
			break
		}
		j += size
	}
	return j
}

// word reads an argument name, type or keyword: letters, digits, _ and -
// (ICU's Pattern_ID characters in practice).
func (p *icuParser) word(j int) (string, int) {
	k := j
	for k < len(p.s) {
		r, size := utf8.DecodeRuneInString(p.s[k:])
		if r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			k += size
			continue
		}
		break
	}
	return p.s[j:k], k
}
