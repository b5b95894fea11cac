package config

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/envpolicy"
	"github.com/evalgate/evalgate/internal/findings"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/shape"
	"github.com/evalgate/evalgate/internal/tooldef"
)

// toolKey is the pattern of a `tools` key: the tool:* branch of
// docmeta.GraderPattern.
var toolKey = regexp.MustCompile(`^tool:[a-z0-9][a-z0-9-]*$`)

// parser validates one config document.
type parser struct {
	k   *docmeta.Checker
	cfg *Config
}

// Parse parses the text of a config file. relPath is its repository-relative
// path (stamped on every result as File) and dir its absolute directory. The
// Config is never nil: with faults it holds what was valid, with every
// default applied. The results are the faults (Source config, Check
// "definition", Outcome fail, Severity error), in document order; notes are
// in Config.Notes.
func Parse(text []byte, relPath, dir string) (*Config, []diag.Result) {
	cfg := Default(dir)
	cfg.Path, cfg.Dir = relPath, dir
	sum := sha256.Sum256(text)
	cfg.SHA256 = hex.EncodeToString(sum[:])
	cfg.Version = 0
	p := &parser{k: docmeta.NewChecker(diag.SourceConfig), cfg: cfg}
	p.parse(text)

	var faults []diag.Result
	for _, r := range p.k.Results() {
		r.File = relPath
		if r.Verdictless {
			cfg.Notes = append(cfg.Notes, r)
		} else {
			faults = append(faults, r)
		}
	}
	return cfg, faults
}

func (p *parser) parse(text []byte) {
	if len(text) > frontmatter.MaxSize {
		p.k.Fault(diag.Pos{Line: 1, Col: 1}, "too_large", "the config is %d bytes; evalgate reads at most %d (1 MiB)", len(text), frontmatter.MaxSize)
		return
	}
	root, probs := frontmatter.ParseYAML(text, 1)
	for _, pr := range probs {
		p.k.Fault(pr.Pos, pr.Code, "%s", pr.Message)
	}
	if len(probs) > 0 && root == nil {
		return
	}
	if root == nil || root.Kind == frontmatter.Null {
		p.k.Fault(diag.Pos{Line: 1, Col: 1}, "missing_field", "the config is empty: it needs version: 1")
		return
	}
	// Named evals come first: suites refer to them, wherever they are
	// written. The commands section's lines are known even when it is
	// invalid (README "Security model": a change to it is announced).
	if root.Kind == frontmatter.Map {
		if kv := root.Get("evals"); kv != nil {
			p.evals(kv.Value)
		}
		if kv := root.Get("commands"); kv != nil {
			p.cfg.Commands.Pos, p.cfg.Commands.EndLine = kv.KeyPos, lastLine(kv.Value, kv.KeyPos.Line)
		}
	}
	readers := map[string]func(*frontmatter.Node){
		"version": p.version, "pages": p.pages, "suites": p.suites, "tools": p.tools,
		"commands": p.commands, "evalcase": p.evalcase, "jev": p.jev, "ai": p.ai, "reviews": p.reviews,
	}
	p.object(root, rootShape, "", func(kv *frontmatter.Entry) {
		if read := readers[kv.Key]; read != nil { // evals were read first
			read(kv.Value)
		}
	})
	// A definition with faults is left out of the catalog; suites saw it
	// as defined (a nil value), so that it was not also an unknown_use.
	for id, ev := range p.cfg.Catalog.Evals {
		if ev == nil {
			delete(p.cfg.Catalog.Evals, id)
		}
	}
}

// version must be 1, the only version of this config.
func (p *parser) version(n *frontmatter.Node) {
	if n.Kind != frontmatter.Number || !n.IsInt() {
		if n.Kind == frontmatter.Number && !n.IsFinite() {
			p.k.Fault(n.Pos, "invalid_value", "version must be 1, got %s", docmeta.Describe(n))
			return
		}
		p.k.Fault(n.Pos, "wrong_type", "version must be the integer 1, got %s", docmeta.Describe(n))
		return
	}
	if n.Num != 1 {
		p.k.Fault(n.Pos, "invalid_value", "version must be 1 (the only version of this config), got %s", docmeta.Describe(n))
		return
	}
	p.cfg.Version = 1
}

// object holds n against o with the checking kit (README "Development"), records its faults, then hands
// each valid entry to read, in source order; a list is handed on even when some items failed, and read skips
// those (items that are not non-empty strings), so that the others are still checked. It reports whether n
// passed.
func (p *parser) object(n *frontmatter.Node, o *shape.Object, what string, read func(kv *frontmatter.Entry)) bool {
	var k shape.Checker
	var valid []*frontmatter.Entry
	ok := k.Object(n, o, what, func(f *shape.Field, kv *frontmatter.Entry, ok bool) {
		if ok || f.Type.Kind == shape.List && kv.Value.Kind == frontmatter.List {
			valid = append(valid, kv)
		}
	})
	for _, pr := range k.Problems() {
		p.k.Fault(pr.Pos, pr.Code, "%s", pr.Message)
	}
	for _, kv := range valid {
		read(kv)
	}
	return ok
}

func (p *parser) pages(n *frontmatter.Node) {
	p.object(n, pagesSection, "pages", func(kv *frontmatter.Entry) {
		globs := p.globs(kv.Value, "pages."+kv.Key)
		if kv.Key == "include" {
			p.cfg.Pages.Include, p.cfg.Pages.WholeRepo = globs, false
		} else {
			p.cfg.Pages.Exclude = globs
		}
	})
}

func (p *parser) evalcase(n *frontmatter.Node) {
	p.object(n, evalcaseSection, "evalcase", func(kv *frontmatter.Entry) {
		globs := p.globs(kv.Value, "evalcase."+kv.Key)
		if kv.Key == "include" {
			p.cfg.EvalCase.Include = globs
		} else {
			p.cfg.EvalCase.Candidates = globs
		}
	})
}

// globs checks a list of doublestar patterns relative to the config's
// directory (README "Which files are checked"). A pattern must be valid, relative, and free of
// ".." segments: candidates are clean paths inside the directory, so ".."
// could only reach outside it. Such faults are invalid_value (a bad
// pattern), not target_outside_repo (which is about a path read). A leading
// "./" is dropped, since clean paths never start with it. The list may be
// empty (it then selects nothing).
func (p *parser) globs(n *frontmatter.Node, what string) []string {
	out := make([]string, 0, len(n.Items))
	for i, it := range n.Items {
		if it.Kind != frontmatter.String || it.Text == "" {
			continue // the kit reported it
		}
		w := shape.Item(what, i)
		raw := it.Text
		g := raw
		for strings.HasPrefix(g, "./") {
			g = g[2:]
		}
		switch {
		case absolute(g) && !escapedMeta(g):
			p.k.Fault(it.Pos, "invalid_value", "%s must be relative to the config's directory, got %s", w, docmeta.Quote(raw))
		case hasDotDot(g):
			p.k.Fault(it.Pos, "invalid_value", "%s must not contain \"..\": globs stay inside the config's directory, got %s", w, docmeta.Quote(raw))
		case repofs.InGit(g):
			p.k.Fault(it.Pos, "invalid_value", "%s must not reach into .git, got %s", w, docmeta.Quote(raw))
		case g == "" || !doublestar.ValidatePattern(g):
			p.k.Fault(it.Pos, "invalid_value", "%s is not a valid glob, got %s", w, docmeta.Quote(raw))
		default:
			out = append(out, g)
		}
	}
	return out
}

// absolute reports whether a config path or glob is absolute on any
// platform: rooted ("/x", "\x") or with a drive letter ("C:x").
func absolute(s string) bool {
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, `\`) {
		return true
	}
	return len(s) >= 2 && s[1] == ':' && ('a' <= s[0] && s[0] <= 'z' || 'A' <= s[0] && s[0] <= 'Z')
}

// escapedMeta reports whether the glob g starts with an escaped meta character (`\[locale\]/**`, which
// evalgate init writes for a folder named [locale]): an escape, not a rooted Windows path.
func escapedMeta(g string) bool {
	return len(g) >= 2 && g[0] == '\\' && strings.IndexByte("*?[]{}", g[1]) >= 0
}

// hasDotDot reports whether s has a ".." segment, with '/' or '\' as
// separators.
func hasDotDot(s string) bool {
	for _, seg := range strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return true
		}
	}
	return false
}

// relPath checks a config path (a jev contract or replay): a non-empty
// relative path without ".." segments, so that it stays inside the config's
// directory; otherwise target_outside_repo (README "Security model": in the config, a
// config error). Whether a symlink leads out is judged when the file is
// read. It returns the cleaned path with '/'.
func (p *parser) relPath(n *frontmatter.Node, what string) (string, bool) {
	s, ok := p.k.NonEmpty(n, what)
	if !ok {
		return "", false
	}
	if absolute(s) || hasDotDot(s) {
		p.k.Fault(n.Pos, "target_outside_repo", "%s must be a relative path inside the config's directory (no \"..\"), got %s", what, docmeta.Quote(s))
		return "", false
	}
	if repofs.InGit(s) {
		p.k.Fault(n.Pos, "target_outside_repo", "%s must not be inside .git, got %s", what, docmeta.Quote(s))
		return "", false
	}
	return path.Clean(strings.ReplaceAll(s, `\`, "/")), true
}

// evals reads the named evals: kebab ids -> definitions (docmeta.NamedEval).
func (p *parser) evals(n *frontmatter.Node) {
	if !p.k.Mapping(n, "evals") {
		return
	}
	for i := range n.Entries {
		kv := &n.Entries[i]
		what := docmeta.Child("evals", kv.Key)
		if !docmeta.ValidID(kv.Key) {
			p.k.Fault(kv.KeyPos, "invalid_id", "evals: the id %s must be kebab-case (lowercase letters, digits and hyphens, not starting with a hyphen)", docmeta.Quote(kv.Key))
		}
		value, spec, fpos := p.configFindings(kv.Value, what)
		ev, rs := docmeta.NamedEval(kv.Key, kv.KeyPos, value, what)
		p.k.Add(rs...)
		if !docmeta.ValidID(kv.Key) {
			ev = nil
		}
		p.attachFindings(ev, spec, fpos, what)
		p.cfg.Catalog.Evals[kv.Key] = ev // nil when invalid: see parse
	}
}

// suites reads `suites`: name -> {target-pass-rate, evals, pages, exclude}.
func (p *parser) suites(n *frontmatter.Node) {
	if n.Kind == frontmatter.Map && len(n.Entries) > maxSuites {
		p.k.Fault(n.Pos, "invalid_value", "suites holds %d suites; evalgate reads at most %d", len(n.Entries), maxSuites)
		return
	}
	p.each(n, "suites", func(kv *frontmatter.Entry, what string) {
		if kv.Key == "" {
			p.k.Fault(kv.KeyPos, "invalid_value", "suites: a suite name must not be empty")
			return
		}
		s := &docmeta.Suite{Name: kv.Key, Pos: kv.KeyPos, TargetPassRate: 1}
		before := p.k.Faults()
		p.object(kv.Value, suiteEntry, what, func(f *frontmatter.Entry) {
			switch f.Key {
			case "target-pass-rate":
				s.TargetPassRate = f.Value.Num
			case "evals":
				// Inline command entries may set findings, as tools entries do (README "Findings
				// from command tools"): the config's own key, read here, not docmeta's.
				list, specs := f.Value, map[string]*findings.Spec{}
				fpos := map[string]diag.Pos{}
				if list.Kind == frontmatter.List {
					cp := *list
					cp.Items = make([]*frontmatter.Node, len(list.Items))
					for i, it := range list.Items {
						w := shape.Item(what+".evals", i)
						v, spec, pos := p.configFindings(it, w)
						cp.Items[i] = v
						if spec != nil {
							if id := it.Get("id"); id != nil {
								specs[id.Value.Text], fpos[id.Value.Text] = spec, pos
							}
						}
					}
					list = &cp
				}
				evals, rs := docmeta.SuiteEvals(list, what+".evals", p.cfg.Catalog.Evals)
				p.k.Add(rs...)
				for _, ev := range evals {
					if spec := specs[ev.ID]; spec != nil {
						p.attachFindings(ev, spec, fpos[ev.ID], what+".evals")
					}
				}
				s.Evals = evals
			case "pages":
				s.Pages = p.globs(f.Value, what+".pages")
			case "exclude":
				s.Exclude = p.globs(f.Value, what+".exclude")
			}
		})
		if p.k.Faults() == before {
			p.cfg.Catalog.Suites[kv.Key] = s
			if len(s.Pages) > 0 {
				p.cfg.PathSuites = append(p.cfg.PathSuites, s)
			}
		}
	})
}

// tools reads `tools`: "tool:NAME" -> {command}. A tool may not take a
// built-in's name (README "Configuration").
func (p *parser) tools(n *frontmatter.Node) {
	p.each(n, "tools", func(kv *frontmatter.Entry, what string) {
		switch {
		case !toolKey.MatchString(kv.Key):
			p.k.Fault(kv.KeyPos, "invalid_value", "tools: the name %s must be tool:NAME with NAME kebab-case", docmeta.Quote(kv.Key))
		case tooldef.Lookup(kv.Key) != nil:
			p.k.Fault(kv.KeyPos, "invalid_value", "tools: %s is a built-in grader; give the integration another name", kv.Key)
		}
		t := Tool{Name: kv.Key, Pos: kv.KeyPos}
		before := p.k.Faults()
		p.object(kv.Value, toolEntry, what, func(f *frontmatter.Entry) {
			switch f.Key {
			case "command":
				for _, it := range f.Value.Items {
					t.Command = append(t.Command, it.Text)
				}
			case "findings":
				t.Findings = p.findings(f.Value, what+".findings")
			}
		})
		if p.k.Faults() == before {
			p.cfg.Tools[kv.Key] = t
		}
	})
}

// configFindings takes a config eval's findings key out of its entry n: the entry without it (for
// docmeta, whose vocabulary has no such key), the findings read, and where the key was.
func (p *parser) configFindings(n *frontmatter.Node, what string) (*frontmatter.Node, *findings.Spec, diag.Pos) {
	e := n.Get("findings")
	if e == nil {
		return n, nil, diag.Pos{}
	}
	spec := p.findings(e.Value, what+".findings")
	cp := *n
	cp.Entries = slices.DeleteFunc(slices.Clone(n.Entries), func(kv frontmatter.Entry) bool { return kv.Key == "findings" })
	return &cp, spec, e.KeyPos
}

// attachFindings gives a config eval its findings; only a command eval runs a tool whose output they
// read.
func (p *parser) attachFindings(ev *docmeta.Eval, spec *findings.Spec, pos diag.Pos, what string) {
	if ev == nil || spec == nil {
		return
	}
	if ev.Grader != "command" {
		p.k.Fault(pos, "invalid_value", "%s.findings applies to a command eval (or a tools entry), not to grader %s", what, ev.Grader)
		return
	}
	ev.Findings = spec
}

// findings reads a tool's findings: "sarif", or {pattern} with a named group line (README "Findings
// from command tools"). nil after a fault.
func (p *parser) findings(n *frontmatter.Node, what string) *findings.Spec {
	switch n.Kind {
	case frontmatter.String:
		if n.Text == "sarif" {
			return &findings.Spec{SARIF: true}
		}
		p.k.Fault(n.Pos, "invalid_value", "%s must be sarif or {pattern: RE2}, got %s%s", what, docmeta.Describe(n), diag.Suggest(n.Text, []string{"sarif"}))
		return nil
	case frontmatter.Map:
		var spec *findings.Spec
		p.object(n, findingsPattern, what, func(f *frontmatter.Entry) {
			if err := findings.CheckPattern(f.Value.Text); err != nil {
				p.k.Fault(f.Value.Pos, "invalid_value", "%s.pattern %v", what, err)
				return
			}
			spec = &findings.Spec{Pattern: regexp.MustCompile(f.Value.Text)}
		})
		return spec
	}
	p.k.Fault(n.Pos, "wrong_type", "%s must be sarif or {pattern: RE2}, got %s", what, docmeta.Describe(n))
	return nil
}

// each calls read for every entry of a section whose keys are the user's (suites, tools), with the entry's
// name for messages ("suites.how-to"); a section that is not a mapping is one fault.
func (p *parser) each(n *frontmatter.Node, section string, read func(kv *frontmatter.Entry, what string)) {
	if !p.k.Mapping(n, section) {
		return
	}
	for i := range n.Entries {
		read(&n.Entries[i], docmeta.Child(section, n.Entries[i].Key))
	}
}

// commands reads the command policy (README "Security model").
func (p *parser) commands(n *frontmatter.Node) {
	c := &p.cfg.Commands
	p.object(n, commandsSection, "commands", func(f *frontmatter.Entry) {
		switch f.Key {
		case "timeout-ms":
			c.TimeoutMS = int(f.Value.Num)
		case "frontmatter":
			c.FrontmatterDeny = f.Value.Text == "deny"
		case "allow":
			c.Allow, c.AllowSet = make([]string, 0, len(f.Value.Items)), true
			for _, it := range f.Value.Items {
				c.Allow = append(c.Allow, it.Text)
			}
		case "pass-env":
			c.PassEnv = []string{}
			for i, it := range f.Value.Items {
				w, name := shape.Item("commands.pass-env", i), it.Text
				switch {
				case it.Kind != frontmatter.String || name == "": // the kit reported it
				case strings.ContainsAny(name, "=\x00"):
					p.k.Fault(it.Pos, "invalid_value", "%s must be a variable name, got %s", w, docmeta.Quote(name))
				case envpolicy.NeverPassed(name):
					p.k.Fault(it.Pos, "invalid_value", "%s: %s is never passed to commands (GITHUB_TOKEN, ACTIONS_*, INPUT_* and the runner files are not), so it cannot be listed", w, docmeta.Quote(name))
				default:
					c.PassEnv = append(c.PassEnv, name)
				}
			}
		}
	})
}

// lastLine is the last line n or any of its descendants starts on.
func lastLine(n *frontmatter.Node, line int) int {
	line = max(line, n.Pos.Line)
	for _, it := range n.Items {
		line = lastLine(it, line)
	}
	for _, e := range n.Entries {
		line = max(line, e.KeyPos.Line)
		line = lastLine(e.Value, line)
	}
	return line
}

// jev reads the list of jevcheck runs.
func (p *parser) jev(n *frontmatter.Node) {
	if !p.k.List(n, "jev", false) {
		return
	}
	for i, it := range n.Items {
		what := shape.Item("jev", i)
		e := JevEntry{Pos: it.Pos}
		before := p.k.Faults()
		p.object(it, jevEntry, what, func(f *frontmatter.Entry) {
			w := what + "." + f.Key
			switch f.Key {
			case "contract":
				e.Contract, _ = p.relPath(f.Value, w)
			case "answers":
				e.Answers, _ = p.relPath(f.Value, w)
			case "from":
				e.From, _ = p.relPath(f.Value, w)
			case "candidate-model":
				e.CandidateModel = f.Value.Text
			case "baseline-model":
				e.BaselineModel = f.Value.Text
			case "allow-unpinned":
				e.AllowUnpinned = f.Value.Bool
			}
		})
		if p.k.Faults() == before {
			p.cfg.Jev = append(p.cfg.Jev, e)
		}
	}
}

// ai reads the judge's settings (README "The AI judge"): the kit holds the section against its table;
// here are what a table cannot say: null-or-number values, the providers and what each kind needs, and
// a judge that names one of them.
func (p *parser) ai(n *frontmatter.Node) {
	a := &p.cfg.AI
	var judge *frontmatter.Entry
	var names []string // every provider written, valid or not, for the judge's near miss
	p.object(n, aiSection, "ai", func(f *frontmatter.Entry) {
		w, v := "ai."+f.Key, f.Value
		switch f.Key {
		case "judge":
			judge = f
		case "providers":
			p.each(v, w, func(kv *frontmatter.Entry, what string) {
				names = append(names, kv.Key)
				if pr, ok := p.provider(kv, what); ok {
					a.Providers[kv.Key] = pr
				}
			})
		case "runs":
			a.Runs = int(v.Num)
		case "temperature":
			a.Temperature = p.nullOrNumber(v, w, 0, 2)
		case "max-output-tokens":
			a.MaxOutputTokens = int(v.Num)
		case "timeout-ms":
			a.TimeoutMS = int(v.Num)
		case "retries":
			a.Retries = int(v.Num)
		case "concurrency":
			a.Concurrency = int(v.Num)
		case "max-calls":
			if x := p.nullOrNumber(v, w, 0, maxCalls); x != nil {
				if *x != float64(int(*x)) {
					p.k.Fault(v.Pos, "invalid_value", "%s must be a whole number, got %s", w, docmeta.Describe(v))
				} else {
					m := int(*x)
					a.MaxCalls = &m
				}
			}
		case "agreement":
			a.Agreement = v.Num
		case "max-target-bytes":
			a.MaxTargetBytes = int(v.Num)
		case "cache":
			a.Cache = ""
			if v.Text != "" {
				a.Cache, _ = p.relPath(v, w)
			}
		}
	})
	if judge != nil {
		name := judge.Value.Text
		switch _, ok := a.Providers[name]; {
		case ok:
			a.Judge = name
		case slices.Contains(names, name):
			// The provider has faults of its own.
		default:
			slices.Sort(names)
			p.k.Fault(judge.Value.Pos, "invalid_value", "ai.judge names no provider of ai.providers: %s%s",
				docmeta.Quote(name), diag.Suggest(name, names))
		}
	}
}

// nullOrNumber reads a value that is null (nil) or a number from lo to hi.
func (p *parser) nullOrNumber(v *frontmatter.Node, what string, lo, hi float64) *float64 {
	switch {
	case v.Kind == frontmatter.Null:
		return nil
	case v.Kind != frontmatter.Number || !v.IsFinite():
		p.k.Fault(v.Pos, "wrong_type", "%s must be a number or null, got %s", what, docmeta.Describe(v))
	case v.Num < lo || v.Num > hi:
		p.k.Fault(v.Pos, "invalid_value", "%s must be a number from %s to %s, got %s", what, shape.Num(lo), shape.Num(hi), docmeta.Describe(v))
	default:
		x := v.Num
		return &x
	}
	return nil
}

// secretHeaders are header names that carry keys: a key never appears in a file (api-key-env names the
// variable that holds it).
var secretHeaders = []string{"authorization", "proxy-authorization", "x-api-key", "api-key", "cookie"}

// runnerVariable says name is one of the runner's own variables, such as GITHUB_TOKEN.
func runnerVariable(name string) bool {
	u := strings.ToUpper(name)
	return strings.HasPrefix(u, "GITHUB_") || strings.HasPrefix(u, "ACTIONS_") || strings.HasPrefix(u, "RUNNER_")
}

// provider reads one judge provider: its kind decides which keys it needs and takes.
func (p *parser) provider(kv *frontmatter.Entry, what string) (Provider, bool) {
	pr := Provider{Name: kv.Key, Pos: kv.KeyPos}
	before := p.k.Faults()
	has := map[string]*frontmatter.Entry{}
	p.object(kv.Value, providerEntry, what, func(f *frontmatter.Entry) {
		has[f.Key] = f
		switch f.Key {
		case "kind":
			pr.Kind = f.Value.Text
		case "base-url":
			pr.BaseURL = f.Value.Text
			switch u, err := url.Parse(f.Value.Text); {
			case err == nil && u.User != nil:
				// Not echoed: the credentials would reach the report.
				p.k.Fault(f.Value.Pos, "invalid_value", "%s.base-url holds credentials, which never appear in a file: name the key's variable with api-key-env", what)
			case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
				p.k.Fault(f.Value.Pos, "invalid_value", "%s.base-url must be an http or https URL, got %s", what, docmeta.Describe(f.Value))
			}
		case "api-key-env":
			pr.APIKeyEnv = f.Value.Text
			if runnerVariable(pr.APIKeyEnv) {
				// A pull request may edit the config: its base-url would receive the workflow's token.
				p.k.Fault(f.Value.Pos, "invalid_value", "%s.api-key-env must name the judge's key, not %s: the runner's own variables (GITHUB_*, ACTIONS_*, RUNNER_*) are never sent", what, docmeta.Quote(pr.APIKeyEnv))
			}
		case "auth":
			pr.Auth = f.Value.Text
		case "model":
			pr.Model = f.Value.Text
		case "headers", "query":
			m := map[string]string{}
			for _, e := range f.Value.Entries {
				if e.Value.Kind != frontmatter.String {
					p.k.Fault(e.Value.Pos, "wrong_type", "%s.%s.%s must be a string, got %s", what, f.Key, e.Key, docmeta.Describe(e.Value))
					continue
				}
				if f.Key == "headers" && slices.Contains(secretHeaders, strings.ToLower(e.Key)) {
					p.k.Fault(e.KeyPos, "invalid_value", "%s.headers.%s carries a key, which never appears in a file: name the variable with api-key-env", what, e.Key)
					continue
				}
				m[e.Key] = e.Value.Text
			}
			if f.Key == "headers" {
				pr.Headers = m
			} else {
				pr.Query = m
			}
		case "command":
			for _, it := range f.Value.Items {
				pr.Command = append(pr.Command, it.Text)
			}
		}
	})
	if pr.Kind == "" {
		return pr, false
	}
	for _, k := range []string{"model", "command"} {
		if e := kv.Value.Get(k); e != nil && has[k] == nil {
			has[k] = e // present, with a fault of its own: not missing too
		}
	}
	wrongFor := func(keys ...string) {
		for _, k := range keys {
			if e := has[k]; e != nil {
				p.k.Fault(e.KeyPos, "invalid_value", "%s: %s does not apply to a %s provider", what, k, pr.Kind)
			}
		}
	}
	switch pr.Kind {
	case "command":
		wrongFor("base-url", "api-key-env", "auth", "headers", "query")
		if has["command"] == nil {
			p.k.Fault(kv.KeyPos, "missing_field", "%s: a command provider needs command (an argv list)", what)
		}
	default:
		wrongFor("command")
		if has["model"] == nil {
			p.k.Fault(kv.KeyPos, "missing_field", "%s: an %s provider needs model", what, pr.Kind)
		}
		auths := map[string][]string{"openai": {"bearer", "api-key", "none"}, "anthropic": {"x-api-key"}}[pr.Kind]
		if e := has["auth"]; e != nil && !slices.Contains(auths, pr.Auth) {
			p.k.Fault(e.Value.Pos, "invalid_value", "%s.auth of an %s provider must be %s, got %s", what, pr.Kind, shape.OrList(auths), docmeta.Describe(e.Value))
		}
		if pr.Auth == "" {
			pr.Auth = auths[0]
		}
		if pr.BaseURL == "" {
			pr.BaseURL = map[string]string{"openai": "https://api.openai.com/v1", "anthropic": "https://api.anthropic.com"}[pr.Kind]
		}
		if pr.APIKeyEnv == "" && pr.Auth != "none" {
			p.k.Fault(kv.KeyPos, "missing_field", "%s: an %s provider with auth %s needs api-key-env (the variable that holds the key)", what, pr.Kind, pr.Auth)
		}
	}
	return pr, p.k.Faults() == before
}

// reviews reads the human reviews file's path, relative to the config's directory; it is kept
// repository-relative.
func (p *parser) reviews(n *frontmatter.Node) {
	rel, ok := p.relPath(n, "reviews")
	if !ok {
		return
	}
	p.cfg.Reviews = rel
	if prefix := filepath.ToSlash(filepath.Dir(p.cfg.Path)); p.cfg.Path != "" && prefix != "." {
		p.cfg.Reviews = prefix + "/" + rel
	}
}
