package evalcase

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// printf conversions (README "EvalCase v1 fixtures"): %% or
// %[n$][flags][width][.prec][len]conv. Space is not a flag, so "100% sure"
// holds no placeholder and "% s" is a mutation of "%s".
const (
	printfFlags = "-+#0'"
	printfConvs = "diouxXeEfFgGaAcsp"
	// Python's %-formatting: no ' flag, no %p, but %r and %a.
	pythonFlags = "-+#0"
	pythonConvs = "diouxXeEfFgGcrsa"
)

// scanPrintf reads a printf conversion at s[i] == '%'. A positional one
// (%2$s) can be reordered; a sequential one cannot, since its place in the
// text is its argument.
func scanPrintf(s string, i int) (token, bool) {
	j := i + 1
	if j < len(s) && s[j] == '%' {
		return escapeToken(s, i, 2), true
	}
	if k := digitsEnd(s, j); k > j && k < len(s) && s[k] == '$' && s[j] != '0' {
		j = k + 1 // %n$
	}
	return percentSpec(s, i, j, kindPrintf, printfFlags, printfConvs, true)
}

// scanPythonPercent reads Python's %(name)conv, %conv or %% at s[i] == '%'.
// A named one can be reordered; a sequential one cannot.
func scanPythonPercent(s string, i int) (token, bool) {
	j := i + 1
	if j < len(s) && s[j] == '%' {
		return escapeToken(s, i, 2), true
	}
	if j < len(s) && s[j] == '(' {
		end := strings.IndexAny(s[j+1:], "()%\n")
		if end <= 0 || s[j+1+end] != ')' {
			return token{}, false
		}
		j += 1 + end + 1 // %(name), the name not empty
	}
	return percentSpec(s, i, j, kindPython, pythonFlags, pythonConvs, false)
}

// percentSpec reads the rest of a %-conversion at s[i] == '%' whose
// argument (%n$ or %(name); none when j == i+1) ends before s[j]: its spec,
// as specEnd reads it. One with an argument can be reordered, and its Base
// is s[i:j], the % and the argument, without allocating; one without cannot.
func percentSpec(s string, i, j int, kind tokKind, flags, convs string, cLengths bool) (token, bool) {
	arg := j
	j, ok := specEnd(s, j, flags, convs, cLengths)
	if !ok {
		return token{}, false
	}
	t := token{Text: s[i : j+1], Off: i, Kind: kind, Order: orderFixed, Base: "%"}
	t.ID = t.Text
	if arg > i+1 {
		t.Order, t.Base = orderFree, s[i:arg]
	}
	return t, true
}

// specEnd skips a conversion's flags (any of flags), width, precision and
// length (C's when cLengths) from s[j], and reports the index of its
// conversion character, if it is one of convs.
func specEnd(s string, j int, flags, convs string, cLengths bool) (int, bool) {
	for j < len(s) && strings.IndexByte(flags, s[j]) >= 0 {
		j++
	}
	j = widthEnd(s, j)
	j = lengthEnd(s, j, cLengths)
	return j, j < len(s) && strings.IndexByte(convs, s[j]) >= 0
}

// widthEnd skips a width (digits or *) and a precision (. then digits or *).
func widthEnd(s string, j int) int {
	if j < len(s) && s[j] == '*' {
		j++
	} else {
		j = digitsEnd(s, j)
	}
	if j < len(s) && s[j] == '.' {
		j++
		if j < len(s) && s[j] == '*' {
			j++
		} else {
			j = digitsEnd(s, j)
		}
	}
	return j
}

// lengthEnd skips a length modifier: hh h l ll L q j z t for C, h l L for
// Python.
func lengthEnd(s string, j int, c bool) int {
	rest := s[j:]
	switch {
	case c && (strings.HasPrefix(rest, "hh") || strings.HasPrefix(rest, "ll")):
		return j + 2
	case c && rest != "" && strings.IndexByte("hlLqjzt", rest[0]) >= 0:
		return j + 1
	case !c && rest != "" && strings.IndexByte("hlL", rest[0]) >= 0:
		return j + 1
	}
	return j
}

func digitsEnd(s string, j int) int {
	for j < len(s) && '0' <= s[j] && s[j] <= '9' {
		j++
	}
	return j
}

// escapeToken is %%, {{ or }}: a literal character that must survive as
// often as in the source, but has no order.
func escapeToken(s string, i, n int) token {
	text := s[i : i+n]
	return token{Text: text, ID: text, Base: text, Off: i, Kind: kindEscape, Order: orderNone}
}

// scanPythonBrace reads a str.format replacement field at s[i] == '{' —
// {name}, {0}, {}, {name.attr[key]!r:spec} with one level of nested fields
// in the spec — or the escapes {{ and }} at s[i] == '{' or '}'. Named and
// indexed fields can be reordered; a bare {} (auto-numbered) cannot.
func scanPythonBrace(s string, i int) (token, bool) {
	if s[i] == '}' {
		if i+1 < len(s) && s[i+1] == '}' {
			return escapeToken(s, i, 2), true
		}
		return token{}, false
	}
	if i+1 < len(s) && s[i+1] == '{' {
		return escapeToken(s, i, 2), true
	}
	j := i + 1
	argStart := j
	if k := identEnd(s, j); k > j {
		j = k
	} else {
		j = digitsEnd(s, j)
	}
	argEnd := j
	for j < len(s) {
		if s[j] == '.' {
			k := identEnd(s, j+1)
			if k == j+1 {
				return token{}, false
			}
			j = k
			continue
		}
		if s[j] == '[' {
			k := strings.IndexAny(s[j+1:], "]{}")
			if k <= 0 || s[j+1+k] != ']' {
				return token{}, false
			}
			j += k + 2
			continue
		}
		break
	}
	if argEnd == argStart && j > argEnd {
		return token{}, false // an attribute or index needs an argument
	}
	field := s[argStart:j]
	if j+1 < len(s) && s[j] == '!' {
		if strings.IndexByte("rsa", s[j+1]) < 0 {
			return token{}, false
		}
		j += 2
	}
	if j < len(s) && s[j] == ':' {
		j++
		for j < len(s) && s[j] != '}' {
			switch s[j] {
			case '{':
				k := strings.IndexAny(s[j+1:], "{}\n")
				if k < 0 || s[j+1+k] != '}' {
					return token{}, false
				}
				j += k + 2
			case '\n':
				return token{}, false
			default:
				j++
			}
		}
	}
	if j >= len(s) || s[j] != '}' {
		return token{}, false
	}
	t := token{Text: s[i : j+1], Off: i, Kind: kindPython, Order: orderFree, Base: s[i : i+1+len(field)]} // "{" + field
	t.ID = t.Text
	if argEnd == argStart {
		t.Order = orderFixed
	}
	return t, true
}

// identEnd returns the end of a Python identifier at s[j] (a letter or _,
// then letters, digits and _), or j when there is none.
func identEnd(s string, j int) int {
	k := j
	for k < len(s) {
		r, size := utf8.DecodeRuneInString(s[k:])
		if r == '_' || unicode.IsLetter(r) || (k > j && unicode.IsDigit(r)) {
			k += size
			continue
		}
		break
	}
	return k
}
