package grader

import (
	"strings"
	"testing"
)

// TestBlankMDX: ESM statements, JSX tag lines and expression lines are
// blanked byte for byte (lines and offsets kept), the Markdown between
// component tags and everything inside code fences stays.
func TestBlankMDX(t *testing.T) {
	src := "import Tabs from '@theme/Tabs';\n" +
		"import {\n  A,\n  B,\n} from 'x';\n" +
		"\n" +
		"# Title\n" +
		"<Tabs\n  groupId=\"os\"\n>\n" +
		"<TabItem value=\"a\" id=\"install-a\">\n" +
		"## Inside\n" +
		"</TabItem>\n" +
		"</Tabs>\n" +
		"{/* a comment */}\n" +
		"```jsx\nimport X from 'y';\n<Tabs>\n```\n" +
		"export const meta = {a: 1};\n" +
		"\n" +
		"<div id=\"html\">kept: HTML is Markdown's</div>\n"
	m := builtinBlankMDX([]byte(src))
	if len(m.blanked) != len(src) || strings.Count(string(m.blanked), "\n") != strings.Count(src, "\n") {
		t.Fatalf("blanking moved bytes: %d bytes, %d lines", len(m.blanked), strings.Count(string(m.blanked), "\n"))
	}
	lines := strings.Split(string(m.blanked), "\n")
	for i, want := range map[int]string{
		0: "", 1: "", 4: "", 6: "# Title", 7: "", 9: "", 10: "", 11: "## Inside", 12: "", 13: "", 14: "",
		15: "```jsx", 16: "import X from 'y';", 17: "<Tabs>", 19: "", 21: `<div id="html">kept: HTML is Markdown's</div>`,
	} {
		if got := strings.TrimSpace(lines[i]); got != want {
			t.Errorf("line %d = %q, want %q", i+1, got, want)
		}
	}
	if !strings.Contains(string(m.jsx), `id="install-a"`) {
		t.Errorf("JSX text %q lacks the TabItem's id", m.jsx)
	}
	if strings.Contains(string(m.kept), "import") && !strings.Contains(string(m.kept), "import X from 'y'") || strings.Contains(string(m.kept), "Tabs from") {
		t.Errorf("kept text still holds ESM: %q", m.kept)
	}
}

// TestMDXTools: on an MDX page, links inside imports are not links, a
// heading between component tags counts, a JSX id is an anchor, and length
// leaves ESM and JSX out.
func TestMDXTools(t *testing.T) {
	page := "import Thing from './missing-component.mdx';\n\n# Guide\n<Note id=\"custom\">\n## Steps\n</Note>\n\n" +
		"See [steps](#steps), [custom](#custom) and [gone](#gone).\n"
	root := builtinTestRepo(t, map[string]string{"docs/guide.mdx": page})
	in := &ToolInput{Target: []byte(page), TargetKind: "body", File: "docs/guide.mdx", FirstLine: 1,
		Dir: root + "/docs", RepoRoot: root}
	findings, err := builtinTestRun(t, "tool:links", in)
	if err != nil {
		t.Fatal(err)
	}
	if len(findings) != 1 || !strings.Contains(findings[0].Message, `"#gone"`) {
		t.Errorf("links findings %+v, want only #gone", findings)
	}
	in.Options = builtinTestOpts(t, `{required: [Guide, Steps]}`)
	if f, _ := builtinTestRun(t, "tool:headings", in); len(f) != 0 {
		t.Errorf("headings findings %+v: the heading inside <Note> is missed", f)
	}
	// 10 words of Markdown source (link targets included); the import and
	// the <Note> tags would add 8.
	in.Options = builtinTestOpts(t, `{max-words: 10}`)
	if f, _ := builtinTestRun(t, "tool:length", in); len(f) != 0 {
		t.Errorf("length findings %+v: ESM and JSX were counted", f)
	}
}

// FuzzBlankMDX: blanking never moves a byte: the output has the input's
// length, each byte is the input's or a space, and newlines stay newlines.
func FuzzBlankMDX(f *testing.F) {
	for _, s := range []string{"import a from 'b'\n\n# T\n", "<Tabs\n>\n## x\n</Tabs>\n", "```\n<A>\n```\n", "{/* c */}\n", "<", "<>\n</>", "~~~~\nexport x\n~~~\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m := builtinBlankMDX(src)
		if len(m.blanked) != len(src) {
			t.Fatalf("length %d, want %d", len(m.blanked), len(src))
		}
		for i, c := range m.blanked {
			if c != src[i] && (c != ' ' || src[i] == '\n') {
				t.Fatalf("byte %d: %q became %q", i, src[i], c)
			}
		}
		if len(m.kept) > len(src) {
			t.Fatalf("kept %d bytes of %d", len(m.kept), len(src))
		}
	})
}
