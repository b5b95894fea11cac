// Package jsonpos finds where things are in JSON text. Decoding stays with
// encoding/json, which is fast but keeps no positions; when a result needs a
// line and column, the caller scans the (already decoded) text again here.
package jsonpos

import (
	"encoding/json"
	"errors"
	"strconv"
)

// MaxDepth bounds nesting; deeper text is an error rather than a deep
// recursion.
const MaxDepth = 1000

// Member is one object member or array item met by Scan.
type Member struct {
	Path   []string // keys and decimal array indexes from the root; valid only during the visit
	Key    string   // the member's key ("" for array items and the root)
	KeyOff int      // byte offset of the key's opening quote; -1 for array items and the root
	ValOff int      // byte offset of the value's first byte
	Kind   byte     // the value's first byte: '{', '[', '"', 't', 'f', 'n' or a digit or '-'
}

// ErrSyntax is returned for text that is not one JSON value.
var ErrSyntax = errors.New("jsonpos: invalid JSON")

// Scan walks one JSON value in text and calls visit for the root and every
// member and item, in document order; visit returns false to stop early.
func Scan(text []byte, visit func(m *Member) bool) error {
	s := &scanner{text: text, visit: visit}
	s.skipSpace()
	if _, err := s.value(-1, ""); err != nil {
		if errors.Is(err, errStop) {
			return nil
		}
		return err
	}
	return nil
}

// Locate returns the member at path: the offsets of its key and value.
func Locate(text []byte, path ...string) (keyOff, valOff int, ok bool) {
	keyOff, valOff = -1, -1
	Scan(text, func(m *Member) bool {
		if len(m.Path) > len(path) || !prefix(m.Path, path) {
			return true
		}
		if len(m.Path) == len(path) {
			keyOff, valOff, ok = m.KeyOff, m.ValOff, true
			return false
		}
		return true
	})
	return keyOff, valOff, ok
}

// Duplicate returns the first key that appears twice in one object (the
// later one's offset): encoding/json silently keeps the last.
func Duplicate(text []byte) (key string, keyOff int, found bool) {
	type frame struct {
		depth int
		keys  map[string]bool
	}
	var stack []frame
	Scan(text, func(m *Member) bool {
		depth := len(m.Path)
		for len(stack) > 0 && stack[len(stack)-1].depth >= depth {
			stack = stack[:len(stack)-1]
		}
		if m.KeyOff >= 0 {
			// The member belongs to the object at depth-1.
			if len(stack) == 0 || stack[len(stack)-1].depth != depth-1 {
				stack = append(stack, frame{depth: depth - 1, keys: map[string]bool{}})
			}
			top := stack[len(stack)-1]
			if top.keys[m.Key] {
				key, keyOff, found = m.Key, m.KeyOff, true
				return false
			}
			top.keys[m.Key] = true
		}
		if m.Kind == '{' {
			stack = append(stack, frame{depth: depth, keys: map[string]bool{}})
		}
		return true
	})
	return key, keyOff, found
}

func prefix(p, path []string) bool {
	for i := range p {
		if p[i] != path[i] {
			return false
		}
	}
	return true
}

var errStop = errors.New("stop")

type scanner struct {
	text  []byte
	i     int
	path  []string
	visit func(m *Member) bool
}

func (s *scanner) skipSpace() {
	for s.i < len(s.text) {
		switch s.text[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// value scans the value at s.i; keyOff and key describe its member.
func (s *scanner) value(keyOff int, key string) (int, error) {
	if len(s.path) > MaxDepth {
		return 0, ErrSyntax
	}
	if s.i >= len(s.text) {
		return 0, ErrSyntax
	}
	start := s.i
	c := s.text[s.i]
	if !s.visit(&Member{Path: s.path, Key: key, KeyOff: keyOff, ValOff: start, Kind: c}) {
		return 0, errStop
	}
	switch {
	case c == '{':
		return start, s.object()
	case c == '[':
		return start, s.array()
	case c == '"':
		_, err := s.str()
		return start, err
	default:
		for s.i < len(s.text) {
			switch s.text[s.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return start, nil
			}
			s.i++
		}
		return start, nil
	}
}

func (s *scanner) object() error {
	s.i++ // {
	s.skipSpace()
	if s.i < len(s.text) && s.text[s.i] == '}' {
		s.i++
		return nil
	}
	for {
		s.skipSpace()
		if s.i >= len(s.text) || s.text[s.i] != '"' {
			return ErrSyntax
		}
		keyOff := s.i
		key, err := s.str()
		if err != nil {
			return err
		}
		s.skipSpace()
		if s.i >= len(s.text) || s.text[s.i] != ':' {
			return ErrSyntax
		}
		s.i++
		s.skipSpace()
		s.path = append(s.path, key)
		_, err = s.value(keyOff, key)
		s.path = s.path[:len(s.path)-1]
		if err != nil {
			return err
		}
		s.skipSpace()
		if s.i >= len(s.text) {
			return ErrSyntax
		}
		switch s.text[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		default:
			return ErrSyntax
		}
	}
}

func (s *scanner) array() error {
	s.i++ // [
	s.skipSpace()
	if s.i < len(s.text) && s.text[s.i] == ']' {
		s.i++
		return nil
	}
	for n := 0; ; n++ {
		s.skipSpace()
		s.path = append(s.path, strconv.Itoa(n))
		_, err := s.value(-1, "")
		s.path = s.path[:len(s.path)-1]
		if err != nil {
			return err
		}
		s.skipSpace()
		if s.i >= len(s.text) {
			return ErrSyntax
		}
		switch s.text[s.i] {
		case ',':
			s.i++
		case ']':
			s.i++
			return nil
		default:
			return ErrSyntax
		}
	}
}

// str scans a string at s.i and returns its decoded value.
func (s *scanner) str() (string, error) {
	start := s.i
	s.i++
	escaped := false
	for s.i < len(s.text) {
		switch s.text[s.i] {
		case '\\':
			escaped = true
			s.i += 2
			continue
		case '"':
			s.i++
			raw := s.text[start:s.i]
			if !escaped {
				return string(raw[1 : len(raw)-1]), nil
			}
			var v string
			if err := json.Unmarshal(raw, &v); err != nil {
				return "", ErrSyntax
			}
			return v, nil
		}
		s.i++
	}
	return "", ErrSyntax
}
