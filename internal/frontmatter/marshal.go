package frontmatter

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MarshalYAML writes n as a YAML 1.2 document (for `target: frontmatter`):
// block style, two-space indentation, map entries in their order. Parsing the
// output with ParseYAML gives the same values: strings that would read as
// another type ("true", "1", "null", "") are quoted, numbers are written in
// a core-schema spelling (their source text when it is one). A nil tree, or
// an empty Map, is "{}\n". Invalid UTF-8 in strings, which no parsed tree
// holds, is written as U+FFFD.
func MarshalYAML(n *Node) []byte {
	if n == nil {
		return []byte("{}\n")
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(toYAML(n)); err != nil {
		// toYAML builds only nodes the encoder accepts: valid UTF-8, no
		// tags, no aliases. An error here is a bug, not bad input.
		panic("frontmatter.MarshalYAML: " + err.Error())
	}
	if err := enc.Close(); err != nil {
		panic("frontmatter.MarshalYAML: " + err.Error())
	}
	return buf.Bytes()
}

func toYAML(n *Node) *yaml.Node {
	if n == nil {
		return &yaml.Node{Kind: yaml.ScalarNode, Value: "null"}
	}
	switch n.Kind {
	case Bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatBool(n.Bool)}
	case Number:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: formatNumber(n)}
	case String:
		return yamlString(n.Text)
	case List:
		y := &yaml.Node{Kind: yaml.SequenceNode, Content: make([]*yaml.Node, 0, len(n.Items))}
		for _, it := range n.Items {
			y.Content = append(y.Content, toYAML(it))
		}
		return y
	case Map:
		y := &yaml.Node{Kind: yaml.MappingNode, Content: make([]*yaml.Node, 0, 2*len(n.Entries))}
		for _, e := range n.Entries {
			y.Content = append(y.Content, yamlString(e.Key), toYAML(e.Value))
		}
		return y
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Value: "null"}
}

// yamlString is a scalar that reads back as the string s. evalgate forces
// double quotes where the core schema would read another type, where a YAML
// 1.1 reader would read a boolean ("yes", "off"), and where a character is
// one YAML folds, escapes or treats as a line break. The tag !!str makes the
// encoder quote, too, what its own YAML 1.1-style resolver reads as a number
// or timestamp ("1_000", "2026-01-01"), so the output means the same to
// readers of either YAML version; the tag itself is not written.
func yamlString(s string) *yaml.Node {
	s = strings.ToValidUTF8(s, "\uFFFD")
	y := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	var probe Node
	resolvePlain(s, &probe)
	if probe.Kind != String || isYAML11Bool(s) || needsQuotes(s) {
		y.Style = yaml.DoubleQuotedStyle
	}
	return y
}

// isYAML11Bool reports whether YAML 1.1 reads the plain scalar s as a
// boolean (https://yaml.org/type/bool.html).
func isYAML11Bool(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
		"on", "On", "ON", "off", "Off", "OFF":
		return true
	}
	return false
}

// needsQuotes reports whether s holds a character that a plain or block
// scalar could not carry unchanged: controls other than "\n", a tab,
// U+0085, U+2028, U+2029, U+FEFF, or a line break next to a space.
func needsQuotes(s string) bool {
	for _, r := range s {
		switch {
		case r < 0x20 && r != '\n', r == 0x7F, r == 0x85, r == 0x2028, r == 0x2029, r == 0xFEFF:
			return true
		case r >= 0x80 && r < 0xA0, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
			return true
		}
	}
	return strings.Contains(s, "\n") && (strings.Contains(s, " \n") || strings.Contains(s, "\n ") ||
		strings.HasPrefix(s, " ") || strings.HasSuffix(s, " "))
}

// formatNumber spells n in the core schema: its source text when that reads
// back as the same number, else its value.
func formatNumber(n *Node) string {
	var probe Node
	resolvePlain(n.Text, &probe)
	if probe.Kind == Number && (probe.Num == n.Num || math.IsNaN(probe.Num) && math.IsNaN(n.Num)) {
		return n.Text
	}
	v := n.Num
	if s, ok := specialFloat(v, ".nan", ".inf"); ok {
		return s
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// specialFloat spells v when it is NaN or an infinity, as a syntax spells them: nan, inf, and "-"
// before inf (YAML's core schema: .nan, .inf; TOML: nan, inf).
func specialFloat(v float64, nan, inf string) (string, bool) {
	switch {
	case math.IsNaN(v):
		return nan, true
	case math.IsInf(v, 1):
		return inf, true
	case math.IsInf(v, -1):
		return "-" + inf, true
	}
	return "", false
}
