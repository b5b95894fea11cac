// Package config reads `.evalgate.yaml` (README "Configuration") strictly: every
// unknown key, wrong type, bad range and dangling reference is a positioned
// definition result, and any such result makes the run exit 2 without
// grading anything. Named evals and suite entries are validated with the
// same rules as page entries (package docmeta).
package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/findings"
	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/review"
)

// Names looks for, in order, at the repository root when no --config is
// given (README "Commands").
var Names = []string{".evalgate.yaml", ".evalgate.yml"}

// DefaultTimeoutMS is commands.timeout-ms when the config sets none: 30 s
// (README "Security model").
const DefaultTimeoutMS = 30000

// DefaultPages are pages.include when the config sets none.
var DefaultPages = []string{"**/*.md", "**/*.markdown", "**/*.mdx"}

// Config is a parsed `.evalgate.yaml`, with every default applied.
type Config struct {
	// Path is the repository-relative path of the config file ('/'), "" when
	// there is none.
	Path string
	// SHA256 is the hex SHA-256 of the config file's bytes, "" when there is none: shards of one run
	// must share it (README "Shards").
	SHA256 string
	// Dir is the absolute directory of the config file (the repository root
	// when there is none): globs and paths of the config are relative to it,
	// and config evals' commands run in it (README "Security model").
	Dir     string
	Version int
	Pages   Pages
	// Catalog holds the named evals (Origin config, Pos their key) and the
	// suites (Pos their key); never nil. Only valid definitions are in it.
	Catalog *docmeta.Catalog
	// PathSuites are the suites with pages globs, in config order: each
	// applies to the selected pages it matches (README "Suites").
	PathSuites []*docmeta.Suite
	Tools      map[string]Tool // "tool:NAME" -> integration
	Commands   Commands
	EvalCase   EvalCase
	Jev        []JevEntry
	AI         AI
	// Reviews is the human reviews file, relative to the repository root ('/'): the config's reviews
	// (relative to its directory), else .evalgate/reviews.jsonl at the root.
	Reviews string
	// Notes are results about the config that are not faults and never make
	// the run exit 2: stale_generated_command of named evals and suite
	// entries, shorthand_names_eval of suite entries (Source config,
	// Verdictless, File the config's path).
	Notes []diag.Result
}

// Pages selects the Markdown pages (README "Which files are checked").
type Pages struct {
	// Include holds doublestar globs relative to Dir; DefaultPages, relative
	// to the repository root, when the config sets none (WholeRepo).
	Include []string
	// WholeRepo says Include is DefaultPages: they cover the whole
	// repository wherever the config file lives (README "Which files are
	// checked"), not only its directory.
	WholeRepo bool
	Exclude   []string // doublestar globs relative to Dir
}

// Tool is a tool:* integration defined in the config, run like a command
// grader with the eval's options as JSON in EVALGATE_OPTIONS.
type Tool struct {
	Name    string // "tool:NAME"
	Command []string
	Pos     diag.Pos // the tool's key in the config
	// Findings, when set, turns the tool's output into findings (README "Findings from command tools").
	Findings *findings.Spec
}

// Commands holds the command policy (README "Security model").
type Commands struct {
	TimeoutMS       int  // default DefaultTimeoutMS
	FrontmatterDeny bool // frontmatter: deny
	// Allow is the allow-list of argv[0]; nil when not given (AllowSet
	// false): then every command may run. An empty non-nil list allows none.
	Allow    []string
	AllowSet bool
	PassEnv  []string // variables the credential patterns would remove
	// Pos is the `commands` key and EndLine the last line of its section;
	// both zero when the config has no commands section. A change touching
	// these lines gets a notice (README "Security model").
	Pos     diag.Pos
	EndLine int
}

// EvalCase selects EvalCase v1 fixtures and candidates.
type EvalCase struct {
	Include    []string // globs relative to Dir
	Candidates []string // globs relative to Dir
}

// JevEntry is one jevcheck run: a contract, optionally with a replay
// (answers) and, for compare, a baseline replay (from).
type JevEntry struct {
	Contract       string // relative to Dir, cleaned, '/'
	Answers        string // "" when the contract is only validated
	CandidateModel string
	BaselineModel  string
	AllowUnpinned  bool
	From           string // "" unless this is a compare
	Pos            diag.Pos
}

// AI is the judge's settings (README "The AI judge"), every default applied. Without providers there is
// no judge: ai evals stay pending.
type AI struct {
	Judge           string              // the default provider's name; "" for none
	Providers       map[string]Provider // by name; never nil
	Runs            int
	Temperature     *float64 // nil: not sent
	MaxOutputTokens int
	TimeoutMS       int
	Retries         int
	Concurrency     int
	MaxCalls        *int // nil: no budget
	Agreement       float64
	MaxTargetBytes  int
	Cache           string // relative to Dir, '/'; "" turns the cache off
}

// Provider is one judge provider: an HTTP API (openai, anthropic) or a command.
type Provider struct {
	Name, Kind, BaseURL, APIKeyEnv, Auth, Model string
	Headers, Query                              map[string]string
	Command                                     []string
	Pos                                         diag.Pos // the provider's key in the config
}

// The ai section's defaults (README "The AI judge").
const (
	DefaultJudgeRuns        = 1
	DefaultMaxOutputTokens  = 1024
	DefaultJudgeTimeoutMS   = 60000
	DefaultJudgeRetries     = 3
	DefaultJudgeConcurrency = 4
	DefaultMaxTargetBytes   = 256 << 10
	DefaultJudgeCache       = ".evalgate/cache"
)

func defaultAI() AI {
	return AI{Providers: map[string]Provider{}, Runs: DefaultJudgeRuns, MaxOutputTokens: DefaultMaxOutputTokens,
		TimeoutMS: DefaultJudgeTimeoutMS, Retries: DefaultJudgeRetries, Concurrency: DefaultJudgeConcurrency,
		Agreement: 1, MaxTargetBytes: DefaultMaxTargetBytes, Cache: DefaultJudgeCache}
}

// Default is the configuration of a repository without a config file.
func Default(root string) *Config {
	dir, err := filepath.Abs(root)
	if err != nil {
		dir = root
	}
	return &Config{
		Dir:      dir,
		Version:  1,
		Pages:    Pages{Include: append([]string(nil), DefaultPages...), WholeRepo: true},
		Catalog:  &docmeta.Catalog{Evals: map[string]*docmeta.Eval{}, Suites: map[string]*docmeta.Suite{}},
		Tools:    map[string]Tool{},
		Commands: Commands{TimeoutMS: DefaultTimeoutMS},
		AI:       defaultAI(),
		Reviews:  review.Name,
	}
}

// Load reads the config file path (relative to root, or absolute) and parses
// it. With path "", it looks for Names at root and returns Default(root)
// when there is none. The error is only for I/O (a missing explicit path
// included: errors.Is(err, fs.ErrNotExist)); the results are the config's
// faults, each positioned, and any of them means the caller exits 2.
func Load(root, path string) (*Config, []diag.Result, error) {
	if path == "" {
		for _, name := range Names {
			_, err := os.Lstat(filepath.Join(root, name))
			if err == nil {
				path = name
				break
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, nil, err
			}
		}
		if path == "" {
			return Default(root), nil, nil
		}
	}
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(root, path)
	}
	rel := filepath.ToSlash(path)
	if absRoot, err := filepath.Abs(root); err == nil {
		if absFull, err := filepath.Abs(full); err == nil {
			if r, err := filepath.Rel(absRoot, absFull); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				rel = filepath.ToSlash(r)
				// A pull request can commit the config as a symlink: to /etc/passwd, into .git, to /dev/zero.
				if _, err := repofs.Within(absRoot, absRoot, r); err != nil {
					code, why := repofs.Refusal(err)
					cfg, res := fileFault(rel, root, diag.Pos{}, code, "the config %s; it was not read", why)
					return cfg, res, nil
				}
			}
		}
	}
	text, err := repofs.ReadFile(full, repofs.ConfigLimit)
	var tooLarge *repofs.TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		cfg, res := fileFault(rel, root, diag.Pos{Line: 1, Col: 1}, "too_large",
			"the config is %s; evalgate reads at most %s", repofs.Size(tooLarge.Size), repofs.Size(repofs.ConfigLimit))
		return cfg, res, nil
	case errors.Is(err, repofs.ErrNotRegular):
		var pe *fs.PathError
		errors.As(err, &pe)
		cfg, res := fileFault(rel, root, diag.Pos{}, "target_unreadable", "the config %v; only a regular file is read", pe.Err)
		return cfg, res, nil
	case err != nil:
		return nil, nil, err
	}
	dir, err := filepath.Abs(filepath.Dir(full))
	if err != nil {
		return nil, nil, err
	}
	cfg, results := Parse(text, rel, dir)
	return cfg, results, nil
}

// fileFault is the one result of a config file that cannot be read as text, with the default
// configuration: the run reports it and exits 2 without grading anything. A zero pos names the file only.
func fileFault(rel, root string, pos diag.Pos, code, format string, args ...any) (*Config, []diag.Result) {
	cfg := Default(root)
	cfg.Path = rel
	k := docmeta.NewChecker(diag.SourceConfig)
	k.Fault(pos, code, format, args...)
	res := k.Results()
	for i := range res {
		res[i].File = rel
	}
	return cfg, res
}
