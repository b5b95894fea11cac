package frontmatter

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/evalgate/evalgate/internal/diag"
)

// Limits of what evalgate reads (README "Decisions where the specs are silent", "Limits").
const (
	// MaxSize is the largest frontmatter Parse reads, in bytes of Text
	// (1 MiB); larger frontmatter is too_large and not parsed.
	MaxSize = 1 << 20
	// maxDepth is the deepest nesting of lists and mappings: the root
	// collection is level 1, and a collection below 1,000 others is
	// syntax_error.
	maxDepth = 1000
	// maxDepthMessage is the one wording of a nesting deeper than maxDepth, in every syntax.
	maxDepthMessage = "nesting deeper than 1,000 levels"
	// maxAliasNodes is how many Nodes the expansion of YAML aliases may
	// create in one document, in total.
	maxAliasNodes = 10000
)

// Parse parses a page's frontmatter: d.Text as YAML or TOML by d.Format, with
// positions in the file's own lines (from d.TextLine). It returns nil and no
// problem for FormatNone. Text larger than MaxSize is one too_large problem
// at line 1, column 1, and is not parsed. See ParseYAML and ParseTOML for
// what else is reported and when the Node is nil.
func Parse(d Document) (*Node, []diag.Problem) {
	if d.Format != FormatYAML && d.Format != FormatTOML {
		return nil, nil
	}
	if len(d.Text) > MaxSize {
		return nil, []diag.Problem{{
			Pos:     diag.Pos{Line: 1, Col: 1},
			Code:    "too_large",
			Message: fmt.Sprintf("the frontmatter is %d bytes; evalgate reads at most %d (1 MiB)", len(d.Text), MaxSize),
		}}
	}
	if d.Format == FormatTOML {
		return ParseTOML(d.Text, d.TextLine)
	}
	return ParseYAML(d.Text, d.TextLine)
}

// checkUTF8 returns an invalid_utf8 problem at the first byte of text that is
// not valid UTF-8, or nil. firstLine is the file line of text's first line.
func checkUTF8(text []byte, firstLine int) *diag.Problem {
	if utf8.Valid(text) {
		return nil
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size <= 1 {
			return &diag.Problem{
				Pos:     posAt(text, i, firstLine),
				Code:    "invalid_utf8",
				Message: fmt.Sprintf("invalid UTF-8: byte 0x%02x is not part of a valid encoding", text[i]),
			}
		}
		i += size
	}
	return nil
}

// posAt is the file position of byte off of text (clamped to the text),
// where text's first line is file line firstLine and starts at column 1.
// Lines end at "\n"; the column counts code points, an invalid byte as one.
func posAt(text []byte, off, firstLine int) diag.Pos {
	off = max(0, min(off, len(text)))
	before := text[:off]
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return diag.Pos{
		Line: firstLine + bytes.Count(before, []byte{'\n'}),
		Col:  utf8.RuneCount(before[lineStart:]) + 1,
	}
}

// problems collects the problems of one parse, each once: an alias copies
// the positions of its anchored tree, and the copy's faults are the
// original's. It keeps diag.MaxFileFaults of them (README "Limits"): a
// frontmatter of 150,000 repeated keys made as many results, 158 MB, before.
type problems struct {
	kept diag.FileProblems
	seen map[diag.Problem]bool
}

func (ps *problems) add(pos diag.Pos, code, format string, args ...any) {
	p := diag.Problem{Pos: pos, Code: code, Message: fmt.Sprintf(format, args...)}
	if ps.seen[p] {
		return
	}
	if ps.seen == nil {
		ps.seen = map[diag.Problem]bool{}
	}
	if ps.kept.Len() < diag.MaxFileFaults {
		ps.seen[p] = true // past the bound a problem is only counted: seen stays small too
	}
	ps.kept.Add(p)
}

// list is the problems kept, then the first one not kept saying how many there are.
func (ps *problems) list() []diag.Problem { return ps.kept.List() }
