package frontmatter

import (
	"bytes"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name       string
		src        string
		format     Format
		text       string // the frontmatter text; ignored for FormatNone
		body       string
		bodyLine   int
		bodyOffset int
	}{
		{"yaml", "---\na: 1\n---\n# Title\n", FormatYAML, "a: 1\n", "# Title\n", 4, 13},
		{"yaml closed by dots", "---\na: 1\n...\nbody", FormatYAML, "a: 1\n", "body", 4, 13},
		{"toml", "+++\na = 1\n+++\nbody\n", FormatTOML, "a = 1\n", "body\n", 4, 14},
		{"toml does not close at ---", "+++\na = 1\n---\n+++\nbody", FormatTOML, "a = 1\n---\n", "body", 5, 18},
		{"yaml does not close at +++", "---\na: 1\n+++\n---\n", FormatYAML, "a: 1\n+++\n", "", 5, 17},
		{"bom", "\ufeff---\na: 1\n---\nbody", FormatYAML, "a: 1\n", "body", 4, 16},
		{"crlf", "---\r\na: 1\r\n---\r\nbody\r\n", FormatYAML, "a: 1\r\n", "body\r\n", 4, 16},
		{"bom and crlf", "\ufeff---\r\na: 1\r\n---\r\n", FormatYAML, "a: 1\r\n", "", 4, 19},
		{"trailing blanks on fences", "--- \t\na: 1\n---  \nbody", FormatYAML, "a: 1\n", "body", 4, 17},
		{"trailing blanks before crlf", "---  \r\na: 1\r\n... \r\nb", FormatYAML, "a: 1\r\n", "b", 4, 19},
		{"empty frontmatter", "---\n---\nbody", FormatYAML, "", "body", 3, 8},
		{"closing fence ends the file", "---\na: 1\n---", FormatYAML, "a: 1\n", "", 3, 12},
		{"closing fence at eof after crlf", "---\r\na: 1\r\n---\r", FormatYAML, "a: 1\r\n", "", 3, 15},
		{"only dashes", "---", FormatNone, "", "---", 1, 0},
		{"only dashes and newline", "---\n", FormatNone, "", "---\n", 1, 0},
		{"unterminated", "---\na: 1\nbody\n", FormatNone, "", "---\na: 1\nbody\n", 1, 0},
		{"unterminated toml", "+++\na = 1\n---\n", FormatNone, "", "+++\na = 1\n---\n", 1, 0},
		{"no frontmatter", "# Title\n\ntext\n", FormatNone, "", "# Title\n\ntext\n", 1, 0},
		{"fence not on line 1", "\n---\na: 1\n---\n", FormatNone, "", "\n---\na: 1\n---\n", 1, 0},
		{"text after fence", "--- a\nb: 1\n---\n", FormatNone, "", "--- a\nb: 1\n---\n", 1, 0},
		{"four dashes", "----\na: 1\n----\n", FormatNone, "", "----\na: 1\n----\n", 1, 0},
		{"leading space", " ---\na: 1\n---\n", FormatNone, "", " ---\na: 1\n---\n", 1, 0},
		{"closing needs exact fence", "---\na: 1\n--- x\n----\n---\nb", FormatYAML, "a: 1\n--- x\n----\n", "b", 6, 24},
		{"bom alone", "\ufeff", FormatNone, "", "\ufeff", 1, 0},
		{"empty", "", FormatNone, "", "", 1, 0},
		{"binary", "\x00\xff\xfe---\n\x00\n---\n", FormatNone, "", "\x00\xff\xfe---\n\x00\n---\n", 1, 0},
		{"binary frontmatter", "---\n\x00\xff\x01\n---\n\xfe", FormatYAML, "\x00\xff\x01\n", "\xfe", 4, 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			d := Split(src)
			if d.Format != tt.format {
				t.Fatalf("Format = %v, want %v", d.Format, tt.format)
			}
			if string(d.Body) != tt.body || d.BodyLine != tt.bodyLine || d.BodyOffset != tt.bodyOffset {
				t.Errorf("Body = %q at line %d, offset %d; want %q at line %d, offset %d",
					d.Body, d.BodyLine, d.BodyOffset, tt.body, tt.bodyLine, tt.bodyOffset)
			}
			if tt.format == FormatNone {
				if d.Text != nil || d.TextLine != 0 {
					t.Errorf("no frontmatter: Text = %q, TextLine = %d; want nil, 0", d.Text, d.TextLine)
				}
				return
			}
			if string(d.Text) != tt.text || d.Text == nil || d.TextLine != 2 {
				t.Errorf("Text = %q (nil %v) at line %d, want %q at line 2", d.Text, d.Text == nil, d.TextLine, tt.text)
			}
			checkSplit(t, src, d)
		})
	}
}

// checkSplit asserts the invariants of a split: Text and Body are subslices
// of src in order, and the line numbers agree with the offsets.
func checkSplit(t *testing.T, src []byte, d Document) {
	t.Helper()
	if d.BodyOffset < 0 || d.BodyOffset > len(src) || !sameSlice(d.Body, src[d.BodyOffset:]) {
		t.Fatalf("Body is not src[BodyOffset:] (offset %d of %d)", d.BodyOffset, len(src))
	}
	if want := 1 + bytes.Count(src[:d.BodyOffset], []byte("\n")); d.BodyLine != want {
		t.Errorf("BodyLine = %d, want %d", d.BodyLine, want)
	}
	if d.Format == FormatNone {
		if d.BodyOffset != 0 || d.Text != nil {
			t.Errorf("FormatNone: BodyOffset %d, Text %q", d.BodyOffset, d.Text)
		}
		return
	}
	off := textOffset(src, d.Text)
	if off < 0 {
		t.Fatalf("Text is not a subslice of src")
	}
	if off+len(d.Text) > d.BodyOffset {
		t.Errorf("Text [%d,%d) overlaps Body at %d", off, off+len(d.Text), d.BodyOffset)
	}
	if want := 1 + bytes.Count(src[:off], []byte("\n")); d.TextLine != want {
		t.Errorf("TextLine = %d, want %d", d.TextLine, want)
	}
}

// textOffset is the offset of sub inside src, or -1 when sub is not a
// subslice of src (compared by address, not by content).
func textOffset(src, sub []byte) int {
	if sub == nil {
		return -1
	}
	for off := 0; off+len(sub) <= len(src); off++ {
		if sameSlice(sub, src[off:off+len(sub)]) {
			return off
		}
	}
	return -1
}

func sameSlice(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	if cap(a) == 0 || cap(b) == 0 {
		return cap(a) == cap(b) || len(a) == 0
	}
	return &a[:1][0] == &b[:1][0]
}

func TestSplitAllocatesNothing(t *testing.T) {
	page := []byte(benchPage())
	plain := []byte(strings.Repeat("just text\n", 200))
	for _, src := range [][]byte{page, plain} {
		if n := testing.AllocsPerRun(100, func() { Split(src) }); n != 0 {
			t.Errorf("Split allocates %v times per call, want 0", n)
		}
	}
}
