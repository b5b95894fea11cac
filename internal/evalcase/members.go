package evalcase

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/evalgate/evalgate/internal/jsonstr"
)

// A valid case that the fast path doubted is decoded for its assertions
// here. Rather than decode the whole line, this walks the members and
// decodes only those the assertions read: strings with encoding/json (a string without escapes is
// taken as it is: that is what decoding it gives), arrays item by item.

var errNotObject = errors.New("not a JSON object")

// eachMember calls f with the key and the value's text of each member of
// the JSON object in text, which must be valid JSON.
func eachMember(text []byte, f func(key, val []byte) error) error {
	i := skipSpace(text, 0)
	if i >= len(text) || text[i] != '{' {
		return errNotObject
	}
	i = skipSpace(text, i+1)
	for i < len(text) && text[i] != '}' {
		if text[i] != '"' {
			return errNotObject
		}
		end := jsonstr.End(text, i)
		if end < 0 {
			return errNotObject
		}
		key := text[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			var k string
			if err := json.Unmarshal(text[i:end], &k); err != nil {
				return err
			}
			key = []byte(k)
		}
		i = skipSpace(text, end)
		if i >= len(text) || text[i] != ':' {
			return errNotObject
		}
		i = skipSpace(text, i+1)
		vend := valueEnd(text, i)
		if vend < 0 {
			return errNotObject
		}
		if err := f(key, text[i:vend]); err != nil {
			return err
		}
		i = skipSpace(text, vend)
		if i < len(text) && text[i] == ',' {
			i = skipSpace(text, i+1)
		}
	}
	return nil
}

// valueEnd returns the offset just past the JSON value at text[i], or -1.
func valueEnd(text []byte, i int) int {
	if i >= len(text) {
		return -1
	}
	switch text[i] {
	case '"':
		return jsonstr.End(text, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(text); j++ {
			switch text[j] {
			case '"':
				if j = jsonstr.End(text, j); j < 0 {
					return -1
				}
				j--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for ; j < len(text); j++ {
		switch text[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j
		}
	}
	return j
}

// jsonString decodes the JSON string val into s.
func jsonString(val []byte, s *string) error { return jsonStringVia(val, s, nil) }

// jsonStringVia is jsonString reading a string without escapes through recur, when it is not nil.
func jsonStringVia(val []byte, s *string, recur *recurring) error {
	if len(val) >= 2 && val[0] == '"' && bytes.IndexByte(val, '\\') < 0 {
		*s = recur.of(val[1 : len(val)-1])
		return nil
	}
	if v, ok := recur.unquoted(val); ok { // as json.Unmarshal decodes it, several times faster
		*s = v
		return nil
	}
	return json.Unmarshal(val, s)
}

// errFound ends a walk of eachMember once it has found what it looked for.
var errFound = errors.New("found")

// caseIDOf reads the id of a valid case's line, stepping over the other members without decoding
// them; "" when the line has none.
func caseIDOf(text []byte) (string, error) {
	id := ""
	err := eachMember(text, func(key, val []byte) error {
		if string(key) != "id" {
			return nil
		}
		if err := jsonString(val, &id); err != nil {
			return err
		}
		return errFound
	})
	if err == errFound {
		err = nil
	}
	return id, err
}

// eachItem calls f with the text of each item of the JSON array in text,
// which must be valid JSON.
func eachItem(text []byte, f func(val []byte) error) error {
	i := skipSpace(text, 0)
	if i >= len(text) || text[i] != '[' {
		return errNotArray
	}
	i = skipSpace(text, i+1)
	for i < len(text) && text[i] != ']' {
		end := valueEnd(text, i)
		if end < 0 {
			return errNotArray
		}
		if err := f(text[i:end]); err != nil {
			return err
		}
		i = skipSpace(text, end)
		if i < len(text) && text[i] == ',' {
			i = skipSpace(text, i+1)
		}
	}
	return nil
}

var errNotArray = errors.New("not a JSON array")

// decodeCase decodes what the assertions read of a valid case, as
// json.Unmarshal into caseDoc would (FuzzReadCases checks that). doc is zero
// but for the room its empty Assertions may have, which decodeCase uses.
// Texts that recur from case to case (locales, tokens, assertion names and
// severities) are read through recur when it is not nil.
func decodeCase(text []byte, doc *caseDoc, recur *recurring) error {
	str := func(val []byte, s *string) error { return jsonStringVia(val, s, recur) }
	return eachMember(text, func(key, val []byte) error {
		switch string(key) {
		case "id":
			return jsonString(val, &doc.ID)
		case "source_locale":
			return str(val, &doc.SourceLocale)
		case "target_locale":
			return str(val, &doc.TargetLocale)
		case "source":
			return jsonString(val, &doc.Source)
		case "required_tokens":
			doc.RequiredTokens = []string{}
			return eachItem(val, func(item []byte) error {
				var s string
				err := str(item, &s)
				doc.RequiredTokens = append(doc.RequiredTokens, s)
				return err
			})
		case "assertions":
			doc.Assertions = doc.Assertions[:0] // the room the caller gave, if any
			if doc.Assertions == nil {
				doc.Assertions = []assertionDoc{}
			}
			return eachItem(val, func(item []byte) error {
				doc.Assertions = append(doc.Assertions, assertionDoc{})
				a := &doc.Assertions[len(doc.Assertions)-1]
				return eachMember(item, func(key, val []byte) error {
					switch string(key) {
					case "name":
						return str(val, &a.Name)
					case "severity":
						return str(val, &a.Severity)
					case "params":
						a.Params = rawJSON(val)
					}
					return nil
				})
			})
		}
		return nil
	})
}
