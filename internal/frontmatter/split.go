package frontmatter

import "bytes"

// Format is the syntax of a page's frontmatter.
type Format int

const (
	// FormatNone: the file has no frontmatter.
	FormatNone Format = iota
	// FormatYAML: YAML between a "---" line and a "---" or "..." line.
	FormatYAML
	// FormatTOML: TOML between two "+++" lines.
	FormatTOML
)

func (f Format) String() string {
	switch f {
	case FormatYAML:
		return "yaml"
	case FormatTOML:
		return "toml"
	}
	return "none"
}

// Document is a file split into frontmatter and body. Text and Body are
// subslices of the file Split was given, never copies. Line numbers are
// 1-based file lines; lines end at "\n" (a "\r" before it belongs to the line
// end), as in diag.LineIndex.
type Document struct {
	Format Format
	// Text is the frontmatter between the fence lines, fences excluded; it
	// ends with the line break of its last line. Empty (not nil) for an empty
	// frontmatter; nil when Format is FormatNone.
	Text []byte
	// TextLine is the file line of Text's first line: 2 whenever there is
	// frontmatter (the opening fence is line 1), 0 for FormatNone.
	TextLine int
	// Body is everything after the closing fence line; the whole file,
	// BOM included, when Format is FormatNone.
	Body []byte
	// BodyLine is the file line holding Body's first byte: 1 + the number of
	// "\n" before BodyOffset. When the closing fence ends the file without a
	// line break, Body is empty and BodyLine is the fence's own line.
	BodyLine int
	// BodyOffset is the byte offset of Body in the file.
	BodyOffset int
}

// utf8BOM is the byte order mark a file may start with (README "Which files are checked").
var utf8BOM = []byte("\xEF\xBB\xBF")

// CutBOM returns text without its leading byte order mark, and whether it had one: frontmatter,
// EvalCase and jev files may all start with one.
func CutBOM(text []byte) ([]byte, bool) { return bytes.CutPrefix(text, utf8BOM) }

// Split finds the frontmatter at the very start of src (README "Which files are checked"): an
// optional UTF-8 BOM, then a line that is exactly "---" (YAML) or "+++"
// (TOML), closed by the next line that is "---" or "..." (YAML) or "+++"
// (TOML). Fence lines may carry trailing spaces and tabs; lines end in LF or
// CRLF. A fence that is never closed is not frontmatter: the result is then
// FormatNone with the whole file as Body.
//
// Split allocates nothing and reads src only as far as the closing fence: it
// runs on every page of a repository, frontmatter or not.
func Split(src []byte) Document {
	none := Document{Body: src, BodyLine: 1}
	start := 0
	if bytes.HasPrefix(src, utf8BOM) {
		start = len(utf8BOM)
	}
	format, textStart := opening(src, start)
	if format == FormatNone {
		return none
	}
	line := 2
	for i := textStart; i < len(src); line++ {
		content, next, newline := nextLine(src, i)
		if closes(format, content) {
			bodyLine := line
			if newline {
				bodyLine++
			}
			return Document{
				Format:     format,
				Text:       src[textStart:i],
				TextLine:   2,
				Body:       src[next:],
				BodyLine:   bodyLine,
				BodyOffset: next,
			}
		}
		i = next
	}
	return none
}

// Opening returns the format of the fence that opens src (after an optional BOM), closed or not: what
// Split would find if src went on to a closing fence. A caller that read only a prefix of a file uses it to
// tell frontmatter longer than the prefix from no frontmatter.
func Opening(src []byte) Format {
	start := 0
	if bytes.HasPrefix(src, utf8BOM) {
		start = len(utf8BOM)
	}
	f, _ := opening(src, start)
	return f
}

// opening returns the format of the fence line at src[start:] and the offset after it, or FormatNone.
func opening(src []byte, start int) (Format, int) {
	rest := src[start:]
	if len(rest) < 4 || (rest[0] != '-' && rest[0] != '+') {
		return FormatNone, 0 // fast path: most files do not start with a fence
	}
	open, textStart, ok := nextLine(src, start)
	if !ok { // no line break: the file is only a fence (or junk)
		return FormatNone, 0
	}
	switch {
	case isFence(open, '-'):
		return FormatYAML, textStart
	case isFence(open, '+'):
		return FormatTOML, textStart
	}
	return FormatNone, 0
}

// nextLine returns the line of src starting at byte i without its line end
// ("\n", "\r\n", or a final "\r" at the end of the file), the offset of the
// next line, and whether the line ended with "\n".
func nextLine(src []byte, i int) (content []byte, next int, newline bool) {
	j := bytes.IndexByte(src[i:], '\n')
	if j < 0 {
		content, next = src[i:], len(src)
	} else {
		content, next, newline = src[i:i+j], i+j+1, true
	}
	if n := len(content); n > 0 && content[n-1] == '\r' {
		content = content[:n-1]
	}
	return content, next, newline
}

// closes reports whether line closes frontmatter of format f.
func closes(f Format, line []byte) bool {
	if len(line) < 3 {
		return false
	}
	switch c := line[0]; {
	case f == FormatYAML && (c == '-' || c == '.'):
		return isFence(line, c)
	case f == FormatTOML && c == '+':
		return isFence(line, c)
	}
	return false
}

// isFence reports whether line is three c followed only by spaces and tabs.
func isFence(line []byte, c byte) bool {
	if len(line) < 3 || line[0] != c || line[1] != c || line[2] != c {
		return false
	}
	for _, b := range line[3:] {
		if b != ' ' && b != '\t' {
			return false
		}
	}
	return true
}
