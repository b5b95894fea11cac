package judge

import (
	"strconv"

	"github.com/evalgate/evalgate/internal/jsonstr"
)

// decodeEntry reads a cache entry as Put writes it: an object of template, verdict (quotes, reasoning,
// verdict), model and tokens, each key exactly so, tokens an integer. A run reads its entries by the
// thousand, and encoding/json takes several times as long over them. ok is false for anything else,
// which json.Unmarshal then reads: an entry it finds equal, FuzzDecodeEntry holds.
func decodeEntry(b []byte) (e Entry, ok bool) {
	d := entryDecoder{b: b}
	ok = d.object(func(key string) bool {
		switch key {
		case "template":
			return d.str(&e.Template, Template)
		case "model":
			return d.str(&e.Model)
		case "tokens":
			return d.int(&e.Tokens)
		case "verdict": // a second verdict object fills the first, as encoding/json does
			return d.object(func(key string) bool {
				switch key {
				case "quotes":
					return d.strings(&e.Verdict.Quotes)
				case "reasoning":
					return d.str(&e.Verdict.Reasoning)
				case "verdict":
					return d.str(&e.Verdict.Verdict, Pass, Fail, Partial)
				}
				return false
			})
		}
		return false
	})
	if d.space(); !ok || d.i != len(b) {
		return Entry{}, false
	}
	return e, true
}

type entryDecoder struct {
	b []byte
	i int
}

func (d *entryDecoder) space() {
	for d.i < len(d.b) && (d.b[d.i] == ' ' || d.b[d.i] == '\n' || d.b[d.i] == '\t' || d.b[d.i] == '\r') {
		d.i++
	}
}

// next skips white space and takes c, reporting whether it was there.
func (d *entryDecoder) next(c byte) bool {
	if d.space(); d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// list reads open, then items separated by commas, then close; item reads one item.
func (d *entryDecoder) list(open, close byte, item func() bool) bool {
	if !d.next(open) {
		return false
	}
	if d.next(close) {
		return true
	}
	for {
		if !item() {
			return false
		}
		if d.next(close) {
			return true
		}
		if !d.next(',') {
			return false
		}
	}
}

// object reads an object whose members member reads after their key and colon.
func (d *entryDecoder) object(member func(key string) bool) bool {
	return d.list('{', '}', func() bool {
		var key string
		return d.str(&key, "template", "verdict", "model", "tokens", "quotes", "reasoning") && d.next(':') && member(key)
	})
}

// strings reads an array of strings.
func (d *entryDecoder) strings(out *[]string) bool {
	*out = []string{}
	return d.list('[', ']', func() bool {
		var s string
		ok := d.str(&s)
		*out = append(*out, s)
		return ok
	})
}

// int reads an integer without sign, fraction or exponent.
func (d *entryDecoder) int(out *int) bool {
	d.space()
	start := d.i
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	if d.i == start || d.i-start > 1 && d.b[start] == '0' {
		return false
	}
	n, err := strconv.Atoi(string(d.b[start:d.i]))
	*out = n
	return err == nil
}

// str reads a string as encoding/json reads one. A literal that is, byte for byte, one of known (texts
// with no character a literal escapes) is that text, and costs no allocation: keys, the template and
// verdicts are read by the thousand.
func (d *entryDecoder) str(out *string, known ...string) bool {
	d.space()
	end := jsonstr.End(d.b, d.i)
	if end < 0 {
		return false
	}
	for _, k := range known {
		if string(d.b[d.i+1:end-1]) == k {
			*out, d.i = k, end
			return true
		}
	}
	s, ok := jsonstr.Unquote(d.b[d.i:end])
	*out, d.i = s, end
	return ok
}
