package evalcase

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"
)

// IDPattern is the pattern of a case id (README "EvalCase v1 fixtures"): lowercase ASCII
// segments of letters and digits, joined inside by single hyphens, at least
// two of them separated by dots (contract §3.3: placeholder.printf.001,
// protocol.item-count.002).
const IDPattern = `^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+$`

// LocalePattern is the canonical case of a BCP-47-style locale tag (contract
// §3.1): language lowercase (2-3 letters), an optional script in title case,
// an optional region in upper case (or 3 digits), optional variants in
// lower case. en-US, zh-Hans, zh-Hant-TW, es-419, de-CH-1996.
const LocalePattern = `^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?(-([a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*$`

var localeRE = regexp.MustCompile(LocalePattern)

// Enums of the case (contract §3).
var (
	Difficulties    = []string{"basic", "intermediate", "advanced"}
	ProvenanceKinds = []string{"synthetic", "public-domain", "compatible-licensed", "authorized-regression"}
)

// problem is what a value rule says about a value it rejects.
type problem struct {
	code string
	msg  string
}

func problemf(code, format string, args ...any) *problem {
	return &problem{code: code, msg: fmt.Sprintf(format, args...)}
}

// checkID applies IDPattern.
func checkID(s string) *problem {
	if validID(s) {
		return nil
	}
	hint := "lowercase ASCII letters and digits in dot-separated segments, such as placeholder.printf.001"
	switch {
	case s == "":
		hint = "an id must not be empty"
	case strings.ToLower(s) != s && validID(strings.ToLower(s)):
		hint = "ids are lowercase: write " + quote(strings.ToLower(s))
	case !strings.Contains(s, "."):
		hint = "an id has at least two dot-separated segments, such as placeholder.printf.001"
	case strings.Contains(s, "_"):
		hint = "segments use hyphens, not underscores: write " + quote(strings.ReplaceAll(s, "_", "-"))
	}
	return problemf("invalid_id", "id %s does not match %s: %s", quote(s), IDPattern, hint)
}

// validID reports whether s matches IDPattern: segments of [a-z0-9] runs joined by single hyphens,
// at least two of them, joined by dots. It is idRE without the regexp machinery, for it runs on every
// case (TestValidID holds the two equal).
func validID(s string) bool {
	dots, prev := 0, byte('.') // a segment begins as if after a dot
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
		case c == '-' || c == '.':
			if prev == '-' || prev == '.' {
				return false // a separator begins the id or a segment, or follows another
			}
			if c == '.' {
				dots++
			}
		default:
			return false
		}
		prev = s[i]
	}
	return dots > 0 && prev != '-' && prev != '.'
}

// localeCache remembers checked locale tags: a run sees few distinct ones,
// and language.Parse is slow next to a map lookup.
var localeCache = newMemo(4096, localeProblem)

// checkLocale accepts a well-formed tag in canonical case whose subtags
// golang.org/x/text knows (so xx-YY is rejected), without extensions.
func checkLocale(field, s string) *problem {
	p := localeCache.get(s)
	if p == nil {
		return nil
	}
	return problemf(p.code, "%s %s", field, p.msg)
}

func localeProblem(s string) *problem {
	canon := canonicalCase(s)
	tag, err := language.Parse(s)
	switch {
	case err != nil:
		return problemf("invalid_value", "%s is not a known BCP-47 locale tag (%v); write a canonical tag such as en-US or zh-Hans", quote(s), err)
	case tag == language.Und:
		return problemf("invalid_value", "%s is not a language; write a canonical tag such as en-US or zh-Hans", quote(s))
	case localeRE.MatchString(s):
		return nil
	case canon != s && localeRE.MatchString(canon):
		return problemf("invalid_value", "%s is not in canonical form (language lowercase, script title case, region uppercase, hyphens): write %s", quote(s), quote(canon))
	}
	return problemf("invalid_value", "%s is not a canonical BCP-47-style tag (language[-Script][-REGION][-variant], such as en-US, zh-Hans, zh-Hant-TW); extensions and private use are not accepted", quote(s))
}

// canonicalCase rewrites a tag in canonical case, with hyphens.
func canonicalCase(s string) string {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' })
	for i, p := range parts {
		switch {
		case i == 0:
			parts[i] = strings.ToLower(p)
		case len(p) == 4 && isLetters(p):
			parts[i] = strings.ToUpper(p[:1]) + strings.ToLower(p[1:])
		case len(p) == 2 && isLetters(p):
			parts[i] = strings.ToUpper(p)
		default:
			parts[i] = strings.ToLower(p)
		}
	}
	return strings.Join(parts, "-")
}

func isLetters(s string) bool {
	for _, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// checkTag accepts a non-empty tag without upper-case letters, white space
// or control characters (contract §3.2: stable lowercase tags).
func checkTag(s string) *problem {
	if s == "" {
		return problemf("invalid_value", "a tag must not be empty")
	}
	for _, r := range s {
		switch {
		case unicode.IsUpper(r) || unicode.IsTitle(r):
			return problemf("invalid_value", "tag %s is not lowercase: write %s", quote(s), quote(strings.ToLower(s)))
		case unicode.IsSpace(r) || unicode.IsControl(r):
			return problemf("invalid_value", "tag %s holds white space or a control character", quote(s))
		}
	}
	return nil
}

// checkLicense rejects a blank license and the statements the contract
// forbids (§3.4): unknown and fair-use.
func checkLicense(s string) *problem {
	switch t := strings.TrimSpace(s); {
	case t == "":
		return problemf("invalid_value", "provenance.license must not be blank: write an SPDX expression such as GPL-3.0-or-later")
	case forbiddenLicense(t):
		return problemf("invalid_value", "provenance.license %s is not a redistribution statement (the contract forbids unknown and fair-use): write an SPDX expression such as GPL-3.0-or-later", quote(s))
	}
	return nil
}

// forbiddenLicenses are the statements checkLicense rejects, in lower case: unknown and fair-use as
// people write them, and SPDX's NOASSERTION, its own word for unknown.
var forbiddenLicenses = []string{"unknown", "fair-use", "fair use", "fair_use", "fairuse", "noassertion"}

// forbiddenLicense says that t in lower case (strings.ToLower) is one of forbiddenLicenses. Licenses
// are ASCII and most have capitals (Apache-2.0): such a t is compared without a lowered copy, as
// ASCII lowering is exactly ASCII case folding.
func forbiddenLicense(t string) bool {
	for i := range len(t) {
		if t[i] >= utf8.RuneSelf {
			return slices.Contains(forbiddenLicenses, strings.ToLower(t))
		}
	}
	return slices.ContainsFunc(forbiddenLicenses, func(w string) bool { return strings.EqualFold(t, w) })
}

// checkEnum accepts one of values.
func checkEnum(field, s string, values []string) *problem {
	for _, v := range values {
		if s == v {
			return nil
		}
	}
	return problemf("invalid_value", "%s must be one of %s, got %s", field, strings.Join(values, ", "), quote(s))
}

// quote writes s in double quotes, Go-escaped, so that any text stays on one
// line in a message.
func quote(s string) string {
	const max = 80
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
