package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPackageRules keeps the architecture of README "Development": the imports form the layers it
// describes, checked on what `go list` says the packages import.
func TestPackageRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "github.com/evalgate/evalgate/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/evalgate/evalgate/"
	imports := map[string][]string{} // package -> the module's packages it imports, both without the module path
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		imports[pkg] = nil
		for _, imp := range fields[1:] {
			if rest, ok := strings.CutPrefix(imp, mod); ok {
				imports[pkg] = append(imports[pkg], rest)
			}
		}
	}
	if len(imports["internal/engine"]) == 0 {
		t.Fatalf("go list listed no imports of internal/engine: %q", out)
	}
	leaves := []string{"internal/diag", "internal/repofs", "internal/envpolicy", "internal/proc", "internal/actionslog", "internal/jsonstr"}
	vocabularies := []string{"internal/docmeta", "internal/config", "internal/evalcase", "internal/jev", "internal/tooldef", "internal/baseline"}
	forbidden := map[string][]string{
		// Checking never executes, formats for a terminal or selects files.
		"vocabulary": {"internal/grader", "internal/report", "internal/engine", "internal/cli", "internal/changes"},
		// Reporters are pure functions of a report.
		"internal/report": {"internal/engine", "internal/grader", "internal/cli", "internal/changes"},
	}
	for pkg, imps := range imports {
		for _, imp := range imps {
			switch {
			case slices.Contains(leaves, pkg):
				t.Errorf("%s is a leaf but imports %s", pkg, imp)
			case slices.Contains(vocabularies, pkg) && slices.Contains(forbidden["vocabulary"], imp):
				t.Errorf("%s checks a vocabulary but imports %s", pkg, imp)
			case pkg == "internal/shape" && imp != "internal/diag" && imp != "internal/frontmatter":
				t.Errorf("internal/shape, the checking kit, imports %s: it knows only nodes and results", imp)
			case pkg == "internal/report" && slices.Contains(forbidden["internal/report"], imp):
				t.Errorf("internal/report imports %s", imp)
			case imp == "internal/engine" && pkg != "internal/cli":
				t.Errorf("%s imports internal/engine: only internal/cli may", pkg)
			case imp == "internal/cli" && pkg != "cmd/evalgate":
				t.Errorf("%s imports internal/cli: only cmd/evalgate may", pkg)
			case imp == "internal/testfs":
				t.Errorf("%s imports internal/testfs: only tests may", pkg)
			}
		}
	}
}

// TestSelfContained: the repository stands on its own (README "Development"). No file cites a document
// that is not in it: the team's product notes, the notes on the specs' origins, the style guide, or a
// path beside the checkout. Comments cite README sections or the specs by name.
func TestSelfContained(t *testing.T) {
	outside := []string{"PRODUCT" + ".md", "spec-" + "origins", "STYLE" + ".md", "style-" + "anchors", "../" + "shared"}
	root := filepath.Join("..", "..")
	read := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		read++
		for _, name := range outside {
			if i := bytes.Index(text, []byte(name)); i >= 0 {
				line := bytes.Count(text[:i], []byte("\n")) + 1
				t.Errorf("%s:%d cites %q, which is not in the repository", path, line, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if read < 100 {
		t.Fatalf("read only %d files under %s", read, root)
	}
}
