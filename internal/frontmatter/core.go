package frontmatter

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// This file is the YAML 1.2 core schema (YAML 1.2.2 §10.3.2), which decides
// what a plain scalar means (README "Decisions where the specs are silent"). yaml.v3 resolves with YAML 1.1
// habits (it reads "0b101", "1_000" and timestamps), so evalgate resolves
// scalars itself and ignores the tag yaml.v3 guessed.

// resolvePlain gives a plain (unquoted, untagged) scalar its core-schema
// meaning: null, bool, int, float, or else a string.
func resolvePlain(s string, n *Node) {
	switch {
	case isCoreNull(s):
		n.Kind, n.Text = Null, s
	case isCoreBool(s):
		n.Kind, n.Text, n.Bool = Bool, s, s[0] == 't' || s[0] == 'T'
	default:
		if v, ok := coreInt(s); ok {
			n.Kind, n.Text, n.Num = Number, s, v
		} else if v, ok := coreFloat(s); ok {
			n.Kind, n.Text, n.Num = Number, s, v
		} else {
			n.Kind, n.Text = String, s
		}
	}
}

// resolveTagged gives a scalar with an explicit standard tag (!!null,
// !!bool, !!int, !!float) its value, or reports that s does not fit the tag.
// !!int accepts the core ints (decimal, 0o, 0x); !!float the core floats,
// whose pattern includes decimal integers but not 0o and 0x.
func resolveTagged(tag, s string, n *Node) bool {
	n.Text = s
	switch tag {
	case "!!null":
		n.Kind = Null
		return isCoreNull(s)
	case "!!bool":
		n.Kind, n.Bool = Bool, s != "" && (s[0] == 't' || s[0] == 'T')
		return isCoreBool(s)
	case "!!int":
		v, ok := coreInt(s)
		n.Kind, n.Num = Number, v
		return ok
	case "!!float":
		v, ok := coreFloat(s)
		n.Kind, n.Num = Number, v
		return ok
	}
	return false
}

func isCoreNull(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

func isCoreBool(s string) bool {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return true
	}
	return false
}

// coreInt reads [-+]?[0-9]+, 0o[0-7]+ and 0x[0-9a-fA-F]+. Values beyond
// float64's exact range are rounded; beyond its range they are ±Inf.
func coreInt(s string) (float64, bool) {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'x') {
		base, digits := 8, s[2:]
		if s[1] == 'x' {
			base = 16
		}
		for i := 0; i < len(digits); i++ {
			if digitVal(digits[i]) >= base {
				return 0, false
			}
		}
		if u, err := strconv.ParseUint(digits, base, 64); err == nil {
			return float64(u), true
		}
		b, _ := new(big.Int).SetString(digits, base)
		f, _ := new(big.Float).SetInt(b).Float64()
		return f, true
	}
	digits := strings.TrimLeft(s[min(len(s), signLen(s)):], "0123456789")
	if digits != "" || len(s) == signLen(s) {
		return 0, false
	}
	f, _ := strconv.ParseFloat(s, 64) // ErrRange gives ±Inf, which is right
	return f, true
}

// coreFloat reads [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?,
// [-+]?(\.inf|\.Inf|\.INF) and \.nan|\.NaN|\.NAN.
func coreFloat(s string) (float64, bool) {
	switch s {
	case ".nan", ".NaN", ".NAN":
		return math.NaN(), true
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return math.Inf(1), true
	case "-.inf", "-.Inf", "-.INF":
		return math.Inf(-1), true
	}
	i := signLen(s)
	whole := countDigits(s[i:])
	i += whole
	frac, dot := 0, false
	if i < len(s) && s[i] == '.' {
		dot = true
		i++
		frac = countDigits(s[i:])
		i += frac
	}
	if whole == 0 && (!dot || frac == 0) {
		return 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		i += signLen(s[i:])
		exp := countDigits(s[i:])
		if exp == 0 {
			return 0, false
		}
		i += exp
	}
	if i != len(s) {
		return 0, false
	}
	f, _ := strconv.ParseFloat(s, 64) // ErrRange gives ±Inf or 0, which is right
	return f, true
}

func signLen(s string) int {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return 1
	}
	return 0
}

func countDigits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// digitVal is the value of hexadecimal digit c, or 16 when c is none.
func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 16
}
