// Package docmeta is the docmeta:evals:1.0.0-proposal.2 vocabulary: it
// validates the evals keys of a page's frontmatter and of the config's named
// evals and suites, and resolves a page's eval plan (suite evals, use:
// references, shorthand ids).
package docmeta

import (
	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/findings"
	"github.com/evalgate/evalgate/internal/frontmatter"
)

// Origin says where an eval's definition was written. It decides the working
// directory of a command and the base of relative paths in options
// (README "Graders"): the page's directory, or the config file's.
type Origin int

const (
	OriginPage   Origin = iota // written inline on the page
	OriginConfig               // a named eval or suite entry of the config
)

// Target kinds (`target:`).
const (
	TargetBody        = "body"
	TargetRaw         = "raw"
	TargetFrontmatter = "frontmatter"
	TargetFile        = "file" // {source: file, path: ...}
)

// Target selects the bytes a grader receives.
type Target struct {
	Kind string   // TargetBody (the default), TargetRaw, TargetFrontmatter or TargetFile
	Path string   // TargetFile: the path as written, relative to the page's directory
	Pos  diag.Pos // where target was written; zero when defaulted
}

// Eval is one resolved, valid eval with every default applied.
type Eval struct {
	ID        string   // the id; "auto-<8 hex>" for a string shorthand
	Pos       diag.Pos // the entry in the page (a suite's eval: the page's eval-suite key)
	Origin    Origin
	Shorthand bool   // written as a string shorthand
	Use       string // the named eval a use: entry refers to; "" otherwise
	Suite     string // the suite whose entry it is, on a page; "" for the page's own entries
	Assertion string // "" when none was given

	Type     string // diag.TypeRegression (default) or diag.TypeCapability
	Grader   string // "ai" (default), "command", "human" or "tool:NAME"
	Provider string
	Model    string
	Runs     int // 0 when not given

	Target   Target
	Weight   float64 // > 0, default 1
	Evidence string
	// Examples are the pass and fail anchors of examples, each a list (a single string is one item).
	Examples struct{ Pass, Fail []string }

	Command []string // nil when not (yet) generated
	// CommandInPage is true when the command is written in page frontmatter
	// (an inline entry), false when it comes from the config.
	CommandInPage          bool
	SuccessExitCodes       []int // default [0]
	TimeoutMS              int   // 0: use the config's default
	GeneratedAssertionHash string
	HasHash                bool

	// Options is a Map node (never nil after resolution); with use:, the
	// page's options merged one level deep over the named eval's.
	Options     *frontmatter.Node
	Severity    diag.Severity
	SeverityMap map[string]diag.Severity // built-in finding code -> severity
	// Findings turns a config command eval's output into findings (README "Findings from command
	// tools"); the config sets it, never a page.
	Findings *findings.Spec
	Skip     bool
}

// Suite is a named suite of the config.
type Suite struct {
	Name           string
	Pos            diag.Pos // the suite's key in the config
	TargetPassRate float64  // in [0, 1], default 1
	Evals          []*Eval  // its entries, resolved (use: entries against the config's evals)
	// Pages and Exclude are doublestar globs relative to the config's
	// directory: the suite applies to every selected page Pages match and
	// Exclude does not. Empty for a suite only eval-suite names.
	Pages, Exclude []string
}

// Catalog is what a page can refer to: the config's named evals and suites.
// A nil Catalog (no config) has neither.
type Catalog struct {
	Evals  map[string]*Eval
	Suites map[string]*Suite
}

// Provenance is one valid eval-provenance entry.
type Provenance struct {
	GeneratedBy string
	Evals       []string
	Pos         diag.Pos
}

// Page is the outcome of validating and resolving one page's frontmatter.
type Page struct {
	// HasEvals is true when the root holds `evals` or any `eval-*` key, valid
	// or not, or a suite applies to the page by path (README "Which files are
	// checked": such a page counts as having evals).
	HasEvals bool
	// HasKeys is true when the frontmatter itself holds such a key; a page
	// a suite reaches by path has evals without one.
	HasKeys  bool
	Suite    string // eval-suite, when valid
	SuitePos diag.Pos
	// Suites are the suites that apply to the page: by path (config order),
	// then eval-suite. A suite's score covers the evals of its pages.
	Suites  []string
	Skip    bool // eval-skip: true
	SkipPos diag.Pos
	// Evals is the resolved plan: the suites' evals first (by path, then
	// eval-suite), then the page's entries (a later eval replaces an earlier
	// one of the same id in place).
	// Entries with definition faults are left out.
	Evals      []*Eval
	Provenance []Provenance
	// Results are the definition faults (check "definition", outcome fail,
	// severity error) and the notes (stale_generated_command,
	// shorthand_names_eval, unreviewed_provenance), with Source page and
	// File unset: the caller stamps the file.
	Results []diag.Result
}

func (o Origin) String() string {
	if o == OriginConfig {
		return "config"
	}
	return "page"
}
