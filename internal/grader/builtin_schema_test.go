package grader

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/google/go-cmp/cmp"
)

const builtinTestSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "required": ["title", "owner"],
  "properties": {
    "title": {"type": "string"},
    "tags": {"type": "array", "items": {"$ref": "defs.json#/$defs/tag"}},
    "author": {
      "type": "object",
      "required": ["name"],
      "properties": {"name": {"type": "string"}},
      "additionalProperties": false
    },
    "weight": {"type": "integer", "minimum": 1}
  }
}`

// builtinTestPage is a page's frontmatter; the file's line 1 is its opening "---".
const builtinTestPage = "---\n" +
	"title: 3\n" + // 2
	"tags: [ok, Bad]\n" + // 3: Bad at col 12
	"author:\n" + // 4
	"  name: 7\n" + // 5
	"  email: x\n" + // 6
	"weight: 0\n" + // 7
	"evals: [frontmatter-schema]\n" +
	"---\n"

// builtinAnyOfChain is a schema whose title is checked through n levels of anyOf, each branch of a
// level leading to the next: 2^n applications to one value.
func builtinAnyOfChain(n int) string {
	var defs []string
	for i := range n {
		defs = append(defs, fmt.Sprintf(`"d%d": {"anyOf": [{"$ref": "#/$defs/d%d"}, {"$ref": "#/$defs/d%d"}]}`, i, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"d%d": {"type": "integer"}`, n))
	return `{"$defs": {` + strings.Join(defs, ", ") + `}, "properties": {"title": {"$ref": "#/$defs/d0"}}}`
}

// builtinRefChain is a schema whose title is checked through a chain of n $ref.
func builtinRefChain(n int) string {
	var defs []string
	for i := range n {
		defs = append(defs, fmt.Sprintf(`"d%d": {"$ref": "#/$defs/d%d"}`, i, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"d%d": {"type": "string"}`, n))
	return `{"$defs": {` + strings.Join(defs, ", ") + `}, "properties": {"title": {"$ref": "#/$defs/d0"}}}`
}

func builtinSchemaRepo(t *testing.T) (repo string, in *ToolInput) {
	t.Helper()
	root := builtinTestRepo(t, map[string]string{
		"outside.json":                  "{}",
		"repo/schemas/page.schema.json": builtinTestSchema,
		"repo/schemas/defs.json":        `{"$defs": {"tag": {"type": "string", "pattern": "^[a-z-]+$"}}}`,
		"repo/schemas/page.schema.yaml": "type: object\nrequired: [title]\nproperties:\n  title: {type: string}\n  weight: {type: integer, maximum: 1e3}\n",
		"repo/schemas/draft7.json":      `{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"title": {"type": "string"}}}`,
		"repo/schemas/remote-ref.json":  `{"properties": {"title": {"$ref": "https://example.com/title.json"}}}`,
		"repo/schemas/remote-meta.json": `{"$schema": "https://example.com/meta.json"}`,
		"repo/schemas/id-ref.json":      `{"$id": "https://example.com/s.json", "$ref": "defs.json"}`,
		"repo/schemas/outside-ref.json": `{"$ref": "../../outside.json"}`,
		"repo/schemas/missing-ref.json": `{"$ref": "missing.json"}`,
		"repo/schemas/invalid.json":     `{"type": 5}`,
		"repo/schemas/syntax.json":      `{"type": `,
		"repo/schemas/link.json":        "symlink:../../outside.json",
		"repo/schemas/anyof.json":       builtinAnyOfChain(24),
		"repo/schemas/refs.json":        builtinRefChain(builtinSchemaMaxRefs + 1),
		"repo/schemas/ref-file.json":    `{"properties": {"title": {"$ref": "refs-half.json"}}}`,
		"repo/schemas/refs-half.json":   builtinRefChain(builtinSchemaMaxRefs),
		"repo/docs/page.md":             builtinTestPage + "# Body\n",
	})
	repo = filepath.Join(root, "repo")
	doc := frontmatter.Split([]byte(builtinTestPage))
	fm, problems := frontmatter.ParseYAML(doc.Text, doc.TextLine)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	return repo, &ToolInput{
		Target:      []byte("# Body\n"),
		TargetKind:  "body",
		File:        "docs/page.md",
		FirstLine:   10,
		Dir:         filepath.Join(repo, "docs"),
		OptionsDir:  filepath.Join(repo, "docs"),
		RepoRoot:    repo,
		Frontmatter: fm,
		Pages:       NewPageCache(),
	}
}

func TestBuiltinFrontmatterSchema(t *testing.T) {
	_, in := builtinSchemaRepo(t)
	in.Options = builtinTestOpts(t, "schema: ../schemas/page.schema.json")
	got, err := builtinTestRun(t, "tool:frontmatter-schema", in)
	if err != nil {
		t.Fatal(err)
	}
	want := []builtinTestFinding{
		{diag.Pos{Line: 2, Col: 1}, "schema_violation", "schemas/page.schema.json#/properties/title/type /title"},
		{diag.Pos{Line: 2, Col: 1}, "schema_violation", "schemas/page.schema.json#/required "},
		{diag.Pos{Line: 3, Col: 12}, "schema_violation", "schemas/defs.json#/$defs/tag/pattern /tags/1"},
		{diag.Pos{Line: 5, Col: 3}, "schema_violation", "schemas/page.schema.json#/properties/author/properties/name/type /author/name"},
		{diag.Pos{Line: 6, Col: 3}, "schema_violation", "schemas/page.schema.json#/properties/author/additionalProperties /author/email"},
		{diag.Pos{Line: 7, Col: 1}, "schema_violation", "schemas/page.schema.json#/properties/weight/minimum /weight"},
	}
	builtinTestCheck(t, want, got)
	for _, f := range got {
		if f.Message == "" || strings.Contains(f.Message, "\n") || strings.Contains(f.Message, "file://") {
			t.Errorf("%v: message %q", f.Pos, f.Message)
		}
	}
	if got[1].Message != `at the top level: missing property 'owner'` {
		t.Errorf("required message = %q", got[1].Message)
	}
	if got[4].Message != `at /author/email: additional property "email" not allowed` {
		t.Errorf("additionalProperties message = %q", got[4].Message)
	}

	// Valid frontmatter: no findings, and the compiled schema comes from the cache.
	in.Frontmatter = frontmatter.FromValue(map[string]any{"title": "T", "owner": "me", "tags": []any{"a-b"}, "weight": 3.0})
	if got, err := builtinTestRun(t, "tool:frontmatter-schema", in); err != nil || len(got) != 0 {
		t.Errorf("valid frontmatter: got %+v, %v", got, err)
	}

	// A page without frontmatter is validated as an empty mapping.
	in.Frontmatter = nil
	got, err = builtinTestRun(t, "tool:frontmatter-schema", in)
	if err != nil || len(got) != 1 || got[0].Pos != (diag.Pos{}) {
		t.Errorf("no frontmatter: got %+v, %v", got, err)
	}
}

// TestBuiltinFrontmatterSchemaTargets: schemas in YAML and of an older draft, and companion files
// in YAML and JSON, positioned in the target that was read.
func TestBuiltinFrontmatterSchemaTargets(t *testing.T) {
	tests := []struct {
		name, schema string
		companion    string // the text of docs/data.yaml, the target; "" validates the page's frontmatter
		want         []builtinTestFinding
		err          error
	}{
		{name: "YAML schema", schema: "../schemas/page.schema.yaml", want: []builtinTestFinding{
			{diag.Pos{Line: 2, Col: 1}, "schema_violation", "schemas/page.schema.yaml#/properties/title/type /title"},
		}},
		{name: "draft-07 from the built-in meta-schemas", schema: "../schemas/draft7.json", want: []builtinTestFinding{
			{diag.Pos{Line: 2, Col: 1}, "schema_violation", "schemas/draft7.json#/properties/title/type /title"},
		}},
		{name: "YAML companion", schema: "../schemas/page.schema.json", companion: "owner: me\ntitle:\n  - not a string\n",
			want: []builtinTestFinding{
				{diag.Pos{Line: 2, Col: 1}, "schema_violation", "schemas/page.schema.json#/properties/title/type /title"},
			}},
		{name: "JSON companion", schema: "../schemas/page.schema.json",
			companion: "{\n  \"owner\": \"me\",\n  \"tags\": [\"a\", \"B\"], \"title\": \"x\"\n}\n",
			want: []builtinTestFinding{
				{diag.Pos{Line: 3, Col: 17}, "schema_violation", "schemas/defs.json#/$defs/tag/pattern /tags/1"},
			}},
		{name: "valid companion", schema: "../schemas/page.schema.json", companion: "title: T\nowner: me\n"},
		{name: "unparseable companion", schema: "../schemas/page.schema.json", companion: "title: [unclosed\n", err: ErrUnreadable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, in := builtinSchemaRepo(t)
			in.Options = builtinTestOpts(t, "schema: "+tt.schema)
			if tt.companion != "" {
				in.TargetKind, in.File, in.FirstLine = "file", "docs/data.yaml", 1
				in.Frontmatter, in.Target = nil, []byte(tt.companion)
			}
			got, err := builtinTestRun(t, "tool:frontmatter-schema", in)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			builtinTestCheck(t, tt.want, got)
		})
	}
}

func TestBuiltinFrontmatterSchemaErrors(t *testing.T) {
	tests := []struct {
		schema string
		want   error
		text   string // in the message
	}{
		{"../schemas/remote-ref.json", ErrOutsideRepo, "https://example.com/title.json"},
		{"../schemas/remote-meta.json", ErrOutsideRepo, "https://example.com/meta.json"},
		{"../schemas/id-ref.json", ErrOutsideRepo, "https://example.com/defs.json"},
		{"../schemas/outside-ref.json", ErrOutsideRepo, "$ref"},
		{"../schemas/missing-ref.json", ErrUnreadable, "missing.json"},
		{"../schemas/invalid.json", ErrUnreadable, "schemas/invalid.json"},
		{"../schemas/syntax.json", ErrUnreadable, "schemas/syntax.json"},
		{"../schemas/nope.json", ErrUnreadable, "no such file"},
		{"../schemas", ErrUnreadable, "directory"},
		{"../schemas/link.json", ErrOutsideRepo, "link.json"},
		{"../../outside.json", ErrOutsideRepo, "outside.json"},
		{"/etc/passwd", ErrOutsideRepo, "absolute"},
		// Work bounded before it starts: 2^24 applications of an anyOf chain, a $ref chain the compiler
		// takes quadratic time on, in the schema or in a file it reaches.
		{"../schemas/anyof.json", ErrSchemaTooComplex, "more than 1000000 times"},
		{"../schemas/refs.json", ErrSchemaTooComplex, "more than 10000 $ref"},
		{"../schemas/ref-file.json", ErrSchemaTooComplex, "more than 10000 $ref"},
	}
	for _, tt := range tests {
		t.Run(tt.schema, func(t *testing.T) {
			_, in := builtinSchemaRepo(t)
			in.Options = builtinTestOpts(t, "schema: "+tt.schema)
			for range 2 { // the second run reads the cached error
				got, err := builtinTestRun(t, "tool:frontmatter-schema", in)
				if !errors.Is(err, tt.want) || len(got) != 0 {
					t.Fatalf("got %+v, %v; want error %v", got, err, tt.want)
				}
				if other := map[error]error{ErrOutsideRepo: ErrUnreadable, ErrUnreadable: ErrOutsideRepo}[tt.want]; errors.Is(err, other) {
					t.Errorf("error %v is also %v", err, other)
				}
				if !strings.Contains(err.Error(), tt.text) || strings.Contains(err.Error(), "\n") {
					t.Errorf("error %q: want one line naming %q", err, tt.text)
				}
			}
		})
	}
}

func TestBuiltinParseData(t *testing.T) {
	n, err := builtinParseData([]byte("a: &x {b: [1, 2.5, yes, null, ~, '3', 2001-01-01]}\nc: *x\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"a": map[string]any{"b": []any{1.0, 2.5, "yes", nil, nil, "3", "2001-01-01"}},
		"c": map[string]any{"b": []any{1.0, 2.5, "yes", nil, nil, "3", "2001-01-01"}},
	}
	if diff := cmp.Diff(want, n.Value()); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
	if c := n.Get("c"); c.KeyPos != (diag.Pos{Line: 2, Col: 1}) || c.Value.Pos != (diag.Pos{Line: 2, Col: 4}) {
		t.Errorf("alias positions: key %v, value %v", c.KeyPos, c.Value.Pos)
	}
	n, err = builtinParseData([]byte("é: [ü, x]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if x := n.Get("é").Value.Items[1]; x.Pos != (diag.Pos{Line: 1, Col: 8}) {
		t.Errorf("position after non-ASCII text: %v, want 1:8 (code points)", x.Pos)
	}
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
	if _, err := builtinParseData([]byte(bomb)); err == nil {
		t.Error("alias expansion beyond 10000 nodes: no error")
	}
	if _, err := builtinParseData([]byte("a: 1\na: 2\n")); err == nil {
		t.Error("duplicate key: no error")
	}
}
