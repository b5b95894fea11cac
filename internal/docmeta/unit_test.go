package docmeta_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/frontmatter"
)

func TestHashes(t *testing.T) {
	// The example of moose-docevals, docmeta's reference implementation: the exact bytes, no
	// trailing newline.
	const a = "The page includes an Examples heading."
	if got, want := docmeta.AssertionHash(a), "07d185732a48ace07056e847b0fadd72fa35f830f7b793f2790db1a59182fd7a"; got != want {
		t.Errorf("AssertionHash = %s, want %s", got, want)
	}
	if got, want := docmeta.ShorthandID(a), "auto-07d18573"; got != want {
		t.Errorf("ShorthandID = %s, want %s", got, want)
	}
	if docmeta.ShorthandID(a+" ") == docmeta.ShorthandID(a) {
		t.Errorf("ShorthandID trims its input")
	}
}

func TestPatterns(t *testing.T) {
	for s, want := range map[string]bool{
		"a": true, "0": true, "a-": true, "a--b": true, "links-resolve": true,
		"": false, "-a": false, "A": false, "a_b": false, "a.b": false, "é": false,
	} {
		if docmeta.ValidID(s) != want {
			t.Errorf("ValidID(%q) = %t", s, !want)
		}
	}
	for s, want := range map[string]bool{
		"ai": true, "command": true, "human": true, "tool:links": true, "tool:a-1": true,
		"llm": false, "AI": false, "tool:": false, "tool:a:b": false, "tool:-a": false, "tool:A": false, " ai": false,
	} {
		if docmeta.ValidGrader(s) != want {
			t.Errorf("ValidGrader(%q) = %t", s, !want)
		}
	}
}

// TestNoEvals: frontmatter without evals keys, or that is not a mapping,
// gives an empty page (README "Which files are checked": no result).
func TestNoEvals(t *testing.T) {
	for _, text := range []string{"", "title: x", "- a\n- b", "just text", "Eval-Suite: x\nevalsuite: y"} {
		root, probs := frontmatter.ParseYAML([]byte(text), 1)
		if len(probs) > 0 {
			t.Fatalf("%q: %v", text, probs)
		}
		for _, p := range []*docmeta.Page{docmeta.ValidatePage(root, nil, nil), docmeta.ValidatePage(nil, nil, nil)} {
			if p.HasEvals || len(p.Results) > 0 || len(p.Evals) > 0 {
				t.Errorf("%q: got %+v, want an empty page", text, p)
			}
		}
	}
	root, _ := frontmatter.ParseYAML([]byte("eval-skip: true"), 1)
	if p := docmeta.ValidatePage(root, nil, nil); !p.HasEvals || !p.Skip || p.SkipPos.Line != 1 {
		t.Errorf("eval-skip alone: %+v", p)
	}
}

// TestNilCatalog: without a config, use: and eval-suite name nothing.
func TestNilCatalog(t *testing.T) {
	root, _ := frontmatter.ParseYAML([]byte("eval-suite: s\nevals: [{use: x}, links-resolve, A.]\n"), 1)
	p := docmeta.ValidatePage(root, nil, nil)
	var codes []string
	for _, r := range p.Results {
		codes = append(codes, r.Code)
	}
	if len(codes) != 2 || codes[0] != "unknown_suite" || codes[1] != "unknown_use" {
		t.Errorf("codes = %v, want [unknown_suite unknown_use]", codes)
	}
	if len(p.Evals) != 2 {
		t.Errorf("got %d evals, want the two shorthands", len(p.Evals))
	}
}

// TestResolvedDoesNotAlias: resolving a page never changes the catalog, so
// one catalog serves every page (in parallel).
func TestResolvedDoesNotAlias(t *testing.T) {
	cat := loadCatalog(t)
	before := *cat.Evals["judge-tone"]
	optsBefore := len(cat.Evals["judge-tone"].Options.Entries)
	suiteBefore := *cat.Suites["how-to"].Evals[0]
	root, _ := frontmatter.ParseYAML([]byte("eval-suite: how-to\nevals:\n  - use: judge-tone\n    weight: 9\n    options: {z: 1}\n  - use: links-resolve\n    skip: true\n"), 1)
	p := docmeta.ValidatePage(root, cat, nil)
	if len(p.Results) > 0 {
		t.Fatalf("results: %v", p.Results)
	}
	after := cat.Evals["judge-tone"]
	if after.Weight != before.Weight || len(after.Options.Entries) != optsBefore || after.Pos != before.Pos {
		t.Errorf("named eval changed: %+v", after)
	}
	if s := cat.Suites["how-to"].Evals[0]; s.Skip != suiteBefore.Skip || s.Pos != suiteBefore.Pos {
		t.Errorf("suite eval changed: %+v", s)
	}
}

// TestValidatePageByPath: suites that apply by path come first, in the
// order given, then eval-suite, then the page's entries; on an id collision
// the later wins in place, silently. Their evals point at line 1 and name
// their suite; a page without frontmatter gets them too.
func TestValidatePageByPath(t *testing.T) {
	ev := func(id, grader string) *docmeta.Eval {
		return &docmeta.Eval{ID: id, Grader: grader, Origin: docmeta.OriginConfig, Weight: 1}
	}
	site := &docmeta.Suite{Name: "site", Evals: []*docmeta.Eval{ev("links", "tool:links"), ev("title", "tool:headings")}}
	guides := &docmeta.Suite{Name: "guides", Evals: []*docmeta.Eval{ev("title", "tool:absent"), ev("fences", "tool:code-fences")}}
	howto := &docmeta.Suite{Name: "how-to", Evals: []*docmeta.Eval{ev("fences", "tool:links")}}
	cat := &docmeta.Catalog{Suites: map[string]*docmeta.Suite{"site": site, "guides": guides, "how-to": howto}}

	plan := func(p *docmeta.Page) string {
		var parts []string
		for _, e := range p.Evals {
			parts = append(parts, fmt.Sprintf("%s=%s@%d(%s)", e.ID, e.Grader, e.Pos.Line, e.Suite))
		}
		return strings.Join(parts, " ")
	}
	tests := []struct {
		name, yaml string // yaml "" is a page without frontmatter
		byPath     []*docmeta.Suite
		want       string
		suites     []string
	}{
		{"no frontmatter", "", []*docmeta.Suite{site},
			"links=tool:links@1(site) title=tool:headings@1(site)", []string{"site"}},
		{"the later suite wins in place", "title: x\n", []*docmeta.Suite{site, guides},
			"links=tool:links@1(site) title=tool:absent@1(guides) fences=tool:code-fences@1(guides)", []string{"site", "guides"}},
		{"eval-suite after the path suites", "eval-suite: how-to\n", []*docmeta.Suite{site, guides},
			"links=tool:links@1(site) title=tool:absent@1(guides) fences=tool:links@1(how-to)", []string{"site", "guides", "how-to"}},
		{"the page's entry last", "evals:\n  - {id: links, grader: \"tool:headings\", options: {required: [A]}}\n", []*docmeta.Suite{site},
			"links=tool:headings@2() title=tool:headings@1(site)", []string{"site"}},
		{"a suite by path and by name once", "eval-suite: site\n", []*docmeta.Suite{site},
			"links=tool:links@1(site) title=tool:headings@1(site)", []string{"site"}},
	}
	for _, tt := range tests {
		var root *frontmatter.Node
		if tt.yaml != "" {
			root, _ = frontmatter.ParseYAML([]byte(tt.yaml), 1)
		}
		p := docmeta.ValidatePage(root, cat, tt.byPath)
		if len(p.Results) > 0 {
			t.Errorf("%s: results %v", tt.name, p.Results)
		}
		if !p.HasEvals || plan(p) != tt.want || !slices.Equal(p.Suites, tt.suites) {
			t.Errorf("%s: has evals %v, plan %q, suites %q;\nwant plan %q, suites %q", tt.name, p.HasEvals, plan(p), p.Suites, tt.want, tt.suites)
		}
		if wantKeys := strings.Contains(tt.yaml, "eval"); p.HasKeys != wantKeys {
			t.Errorf("%s: HasKeys %v, want %v", tt.name, p.HasKeys, wantKeys)
		}
	}
	if site.Evals[0].Pos.Line != 0 || site.Evals[0].Suite != "" {
		t.Errorf("resolving changed the suite's own eval: %+v", site.Evals[0])
	}
}

// TestMetadata: the eval vocabulary is left out, every other key kept in
// order, and the page's own tree is not changed.
func TestMetadata(t *testing.T) {
	root, _ := frontmatter.ParseYAML([]byte("title: T\nevals: [A.]\neval-suite: s\ntags: [x]\neval-skip: false\nevaluation: kept\n"), 1)
	var keys []string
	for _, e := range docmeta.Metadata(root).Entries {
		keys = append(keys, e.Key)
	}
	if want := []string{"title", "tags", "evaluation"}; !slices.Equal(keys, want) {
		t.Errorf("Metadata keys %q, want %q", keys, want)
	}
	if len(root.Entries) != 6 {
		t.Errorf("the page's tree lost keys: %d left", len(root.Entries))
	}
	if docmeta.Metadata(nil) != nil {
		t.Error("Metadata(nil) is not nil")
	}
}
