package frontmatter

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
)

// Kind is the JSON-like kind of a Node. It is a byte, so that it and Bool share a word of the Node.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	List
	Map
)

// Node is one value of a parsed frontmatter or config document with its
// position in the file. It is what every rule reads: YAML and TOML both
// become Nodes, so no rule sees a parser's own types.
type Node struct {
	Kind Kind
	Bool bool // Bool: the value
	// Pos is where the value starts in the file: a scalar's first character,
	// a block list's first "-", a block mapping's first key, a flow
	// collection's "[" or "{".
	Pos diag.Pos
	// Text is a String's value; for Null, Bool and Number it is the source
	// text as written (for messages).
	Text    string
	Num     float64 // Number: the value; may be ±Inf or NaN (.inf, .nan)
	Items   []*Node // List: the items in order
	Entries []Entry // Map: the entries in source order, each key once
}

// Entry is one key of a mapping. Key is the key's source text.
type Entry struct {
	Key    string
	KeyPos diag.Pos
	Value  *Node
}

// Get returns the entry for key, or nil.
func (n *Node) Get(key string) *Entry {
	if n == nil || n.Kind != Map {
		return nil
	}
	for i := range n.Entries {
		if n.Entries[i].Key == key {
			return &n.Entries[i]
		}
	}
	return nil
}

// IsInt reports whether n is a finite number with no fractional part
// (3, 3.0 and 1e3 all are: README "Decisions where the specs are silent").
func (n *Node) IsInt() bool {
	return n != nil && n.Kind == Number && !math.IsInf(n.Num, 0) && !math.IsNaN(n.Num) && n.Num == math.Trunc(n.Num)
}

// Rounded reports whether n is an integer of 2^53 or more in magnitude that its text writes other than
// Num: a float64 holds every integer only up to 2^53, so 9007199254740993 reads as 9007199254740992,
// and a bound of 2^53 would let it through.
func (n *Node) Rounded() bool {
	if !n.IsInt() || math.Abs(n.Num) < 1<<53 {
		return false
	}
	text := n.intText()
	if len(text) > 400 { // a float64 integer has at most 309 digits: this is padding, not worth big's quadratic parse
		return true
	}
	want, _ := new(big.Float).SetFloat64(n.Num).Int(nil)
	if got, ok := new(big.Int).SetString(text, 0); ok { // decimal, 0x, 0o, 0b
		return got.Cmp(want) != 0
	}
	if got, _, err := big.ParseFloat(text, 10, 256, big.ToNearestEven); err == nil { // 9.007199254740993e15
		w := new(big.Float).SetPrec(256).SetInt(want)
		return got.Cmp(w) != 0
	}
	return false
}

// intText is n's text as big.Int reads an integer: without a plus sign or digit separators.
func (n *Node) intText() string { return strings.ReplaceAll(strings.TrimPrefix(n.Text, "+"), "_", "") }

// IsFinite reports whether n is a number that is neither infinite nor NaN.
func (n *Node) IsFinite() bool {
	return n != nil && n.Kind == Number && !math.IsInf(n.Num, 0) && !math.IsNaN(n.Num)
}

// TypeName names n's kind for messages: "null", "boolean", "integer",
// "number", "string", "list" or "mapping".
func (n *Node) TypeName() string {
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		if n.IsInt() {
			return "integer"
		}
		return "number"
	case String:
		return "string"
	case List:
		return "list"
	case Map:
		return "mapping"
	}
	return "unknown"
}

// Value converts n into plain Go values: nil, bool, float64, string, []any
// and map[string]any. Map key order is lost; use Entries where it matters.
func (n *Node) Value() any {
	return n.convert(func(n *Node) any { return n.Num })
}

// JSONValue converts n into the values a JSON decoder would produce, for
// JSON Schema validation: like Value, except that an integral number below
// 2^53 in magnitude becomes an int64, as "3" would decode (3.0 and 1e3 are
// integers for JSON Schema too).
func (n *Node) JSONValue() any {
	return n.convert(func(n *Node) any {
		switch {
		case n.IsInt() && math.Abs(n.Num) < 1<<53:
			return int64(n.Num)
		case n.Rounded() && len(n.intText()) <= 400:
			// The integer as written, which a float64 cannot hold: 9007199254740993 is past a maximum
			// of 2^53, as a JSON decoder's json.Number of it is.
			if i, ok := new(big.Int).SetString(n.intText(), 0); ok {
				return json.Number(i.String())
			}
		}
		return n.Num
	})
}

// convert converts n into plain Go values, numbers with number.
func (n *Node) convert(number func(*Node) any) any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case Bool:
		return n.Bool
	case Number:
		return number(n)
	case String:
		return n.Text
	case List:
		out := make([]any, len(n.Items))
		for i, it := range n.Items {
			out[i] = it.convert(number)
		}
		return out
	case Map:
		out := make(map[string]any, len(n.Entries))
		for _, e := range n.Entries {
			out[e.Key] = e.Value.convert(number)
		}
		return out
	}
	return nil
}

// FromValue builds a Node without positions from plain Go values (the kinds
// Value returns, plus int, int64 and []string). Tests and defaults use it.
func FromValue(v any) *Node {
	switch v := v.(type) {
	case nil:
		return &Node{Kind: Null, Text: "null"}
	case bool:
		return &Node{Kind: Bool, Bool: v, Text: strconv.FormatBool(v)}
	case int:
		return &Node{Kind: Number, Num: float64(v), Text: strconv.Itoa(v)}
	case int64:
		return &Node{Kind: Number, Num: float64(v), Text: strconv.FormatInt(v, 10)}
	case float64:
		return &Node{Kind: Number, Num: v, Text: strconv.FormatFloat(v, 'g', -1, 64)}
	case string:
		return &Node{Kind: String, Text: v}
	case []string:
		n := &Node{Kind: List}
		for _, s := range v {
			n.Items = append(n.Items, FromValue(s))
		}
		return n
	case []any:
		n := &Node{Kind: List}
		for _, it := range v {
			n.Items = append(n.Items, FromValue(it))
		}
		return n
	case map[string]any:
		n := &Node{Kind: Map}
		for _, k := range sortedKeys(v) {
			n.Entries = append(n.Entries, Entry{Key: k, Value: FromValue(v[k])})
		}
		return n
	}
	panic("frontmatter.FromValue: unsupported type")
}
