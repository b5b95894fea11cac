package grader

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/tooldef"
	"github.com/google/go-cmp/cmp"
)

// builtinTestRepo writes files (repository path -> content) under a new temporary directory and returns
// its absolute path. A content starting with "symlink:" makes a symlink to the rest.
func builtinTestRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		builtinTestWrite(t, p, content)
	}
	return root
}

// builtinTestOpts parses YAML into a positioned Node, as option values arrive from a page.
func builtinTestOpts(t testing.TB, src string) *frontmatter.Node {
	t.Helper()
	if src == "" {
		return nil
	}
	n, err := builtinParseData([]byte(src))
	if err != nil {
		t.Fatalf("options %q: %v", src, err)
	}
	return n
}

// builtinTestRun checks the options with CheckOptions, then runs the tool.
func builtinTestRun(t testing.TB, name string, in *ToolInput) ([]Finding, error) {
	t.Helper()
	tool := LookupBuiltin(name)
	if tool == nil {
		t.Fatalf("no built-in %s", name)
	}
	if probs := tool.CheckOptions(in.Options, "options"); len(probs) > 0 {
		t.Fatalf("%s: options rejected: %v", name, probs)
	}
	return tool.Run(context.Background(), in)
}

func TestBuiltinRegistry(t *testing.T) {
	seen := map[string]bool{}
	markdown := map[string]bool{"tool:links": true, "tool:headings": true, "tool:code-fences": true}
	var names []string
	for _, tool := range Builtins {
		names = append(names, tool.Name)
		if !strings.HasPrefix(tool.Name, "tool:") || seen[tool.Name] {
			t.Errorf("bad or repeated name %q", tool.Name)
		}
		seen[tool.Name] = true
		if tool.Title == "" || strings.HasSuffix(tool.Title, ".") || strings.Contains(tool.Title, "\n") {
			t.Errorf("%s: title %q must be one line without a trailing period", tool.Name, tool.Title)
		}
		if !strings.Contains(tool.Doc, "Options:") || !strings.Contains(tool.Doc, "Codes:") {
			t.Errorf("%s: doc must state its options and codes", tool.Name)
		}
		if tool.Run == nil || len(tool.Codes) == 0 {
			t.Errorf("%s: incomplete", tool.Name)
		}
		for _, c := range tool.Codes {
			if !strings.Contains(tool.Doc, c.Code) {
				t.Errorf("%s: doc does not mention code %s", tool.Name, c.Code)
			}
		}
		if tool.Markdown != markdown[tool.Name] {
			t.Errorf("%s: Markdown = %v", tool.Name, tool.Markdown)
		}
		if LookupBuiltin(tool.Name) != tool {
			t.Errorf("LookupBuiltin(%q) does not return the tool", tool.Name)
		}
	}
	want := []string{"tool:links", "tool:headings", "tool:contains", "tool:absent", "tool:length", "tool:code-fences", "tool:frontmatter-schema"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("registry order (-want +got):\n%s", diff)
	}
	if LookupBuiltin("tool:nope") != nil || LookupBuiltin("links") != nil {
		t.Error("LookupBuiltin finds an unknown tool")
	}
}

func builtinTestWrite(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if target, ok := strings.CutPrefix(content, "symlink:"); ok {
		builtinTestSymlink(t, filepath.FromSlash(target), p)
		return
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func builtinTestSymlink(t testing.TB, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

// cmpIgnoreMessage compares findings without their messages.
var cmpIgnoreMessage = cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Message" }, cmp.Ignore())

// TestRegistryMatchesDefinitions: the generated registry pairs every definition of tooldef.Builtins with
// its Run, in the same order, and nothing runs without a definition; a grader added without
// `go generate ./internal/grader` fails here.
func TestRegistryMatchesDefinitions(t *testing.T) {
	if len(Builtins) != len(tooldef.Builtins) {
		t.Fatalf("%d graders for %d definitions: run go generate ./internal/grader", len(Builtins), len(tooldef.Builtins))
	}
	for i, def := range tooldef.Builtins {
		if Builtins[i].Tool != def || Builtins[i].Run == nil {
			t.Errorf("Builtins[%d] is %s, want %s with a Run", i, Builtins[i].Name, def.Name)
		}
	}
}
