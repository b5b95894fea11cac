package tooldef

import (
	"fmt"
	"regexp"

	"github.com/evalgate/evalgate/internal/diag"

	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/shape"
)

// Builtins is the registry of built-in graders, in README order. A new grader adds its definition to this
// file and its line here, and its Run in package grader (README "Development").
var Builtins = []*Tool{Links, Headings, Contains, Absent, Length, CodeFences, FrontmatterSchema}

var Links = &Tool{
	Name:  "tool:links",
	Title: "Relative links and images resolve to files, and their #anchors to headings or ids",
	Doc: `Every relative link and image of the target (inline, reference-style and in GFM tables) must resolve
to an existing file or directory, and a #anchor must name a heading or an HTML id/name of this page (for a
link that is only "#anchor") or of the linked Markdown page (.md, .markdown, .mdown, .mkd, .mkdn, .mdwn).
Links with a scheme (https:, mailto:, ...) or starting with // and autolinks are not checked; nor are anchors
into files that are not Markdown, into directories, or "#top" (the top of any page).

A link is read as GitHub reads it: backslash escapes and character references resolved, percent-decoded, its
?query dropped; a link starting with / is resolved from the repository root, any other from the file's own
directory. File names compare case-sensitively on every file system: "guide.md" does not find "Guide.md". A
link that leaves the repository after cleaning and following symlinks is broken. Headings give anchors by
GitHub's slug rule: lowercase; keep letters, digits, spaces, "-" and "_" (and combining marks); spaces
become "-"; a repeated slug gets "-1", "-2", ... Explicit id="..." and name="..." attributes of HTML in the
page are anchors as written (case-sensitive).

On a documentation site, links name the site's URLs, not files: site picks the rules of its generator
(README "Links on real sites"). github (the default) is the above; hugo, docusaurus, mkdocs and starlight
resolve /-rooted links from the content root (root, default the preset's) and the static directories
(static), map pretty URLs (/a/b/) to their pages (a/b.md, a/b/index.md, a/b/_index.md, ...) as the
generator builds them (slugs, lowercasing, index pages, number prefixes), resolve relative links against
the page's URL as a browser does, and take anchors from {#custom-id} heading attributes and MDX id="..."
where the generator honours them. A link whose target holds templating ({{ }}, {% %}) or matches an ignore
pattern is not checked; an anchor into a page that includes other content (a shortcode include, an MDX
import, a snippet) is not judged when it is not found there.

Options: site (github, hugo, docusaurus, mkdocs or starlight; default github), root (the directory
/-rooted links resolve from, relative to the eval's directory), static (directories that also serve
/-rooted links), ignore (RE2 patterns; a link target matching one is not checked).
Codes: broken_link (no such file, or leaves the repository), missing_anchor; each at the link's line and
column in the file.`,
	Codes: findings([]diag.CodeInfo{
		{
			Code: "broken_link", Title: "A relative link or image does not resolve to a file",
			Doc:     "tool:links found a relative link or image whose path names no file or directory in the repository (names compare case-sensitively; a link leaving the repository is broken). Links with a scheme are not checked.",
			Example: "---\nevals:\n  - id: links\n    grader: tool:links\n---\nSee [the guide](gide.md).",
			Fix:     "Correct the link's path (relative to the page, or /-rooted from the repository root), or create the missing file.",
		},
		{
			Code: "missing_anchor", Title: "A link's #anchor names no heading or id in its page",
			Doc:     "tool:links found a #anchor that matches no heading slug (GitHub's rule: lowercase, spaces to -, repeats get -1, -2) and no HTML id or name in this page or the linked Markdown page.",
			Example: "---\nevals:\n  - id: links\n    grader: tool:links\n---\n# Install\nSee [below](#instal).",
			Fix:     "Correct the anchor to the heading's slug, or add the heading or an explicit id.",
		},
	}),
	Markdown:    true,
	PathOptions: []string{"root"},
	Options: &shape.Object{Fields: []shape.Field{
		{Name: "site", Type: &shape.Type{Kind: shape.String, Enum: Sites,
			Doc: "The site generator whose URL rules links follow (default github: files as GitHub renders them)."}},
		{Name: "root", Type: &shape.Type{Kind: shape.String, NonBlank: true,
			Doc: "The directory /-rooted links resolve from, relative to the eval's directory (default: the preset's content root, or the repository root)."}},
		{Name: "static", Type: &shape.Type{Kind: shape.List, Items: &shape.Type{Kind: shape.String, NonBlank: true},
			Doc: "Directories that also serve /-rooted links (images, downloads), relative to the eval's directory."}},
		{Name: "ignore", Type: &shape.Type{Kind: shape.List, Items: &shape.Type{Kind: shape.String, NonEmpty: true, RE2: true},
			Doc: "RE2 patterns: a link target matching one is not checked."}},
	}},
}

// Sites are tool:links' site presets (README "Links on real sites").
var Sites = []string{"github", "hugo", "docusaurus", "mkdocs", "starlight"}

var Headings = &Tool{
	Name:  "tool:headings",
	Title: "Required headings are present and heading levels are not skipped",
	Doc: `Every heading listed in required must be present at any level, compared exactly with the heading's
trimmed text: its text as rendered (emphasis and code markers removed) or its Markdown source. A heading more
than one level below the previous heading (## then ####) is a skipped level; the first heading may have any
level, and going up any number of levels is fine.

Options: required (a list of non-empty strings; optional: without it only levels are checked).
Codes: missing_heading (no position: the result points at the eval entry), skipped_level (at the heading's
line).`,
	Codes: findings([]diag.CodeInfo{
		{
			Code: "missing_heading", Title: "A required heading is missing",
			Doc:     "tool:headings did not find a heading listed in its required option (trimmed text, exact, at any level).",
			Example: "---\nevals:\n  - id: sections\n    grader: tool:headings\n    options: {required: [Install]}\n---\n# Setup",
			Fix:     "Add the heading to the page, or correct its text to match exactly.",
		},
		{
			Code: "skipped_level", Title: "A heading is more than one level below the previous one",
			Doc:     "tool:headings found a heading more than one level deeper than the heading before it, which breaks the page's outline.",
			Example: "---\nevals:\n  - id: outline\n    grader: tool:headings\n---\n# Guide\n### Details",
			Fix:     "Use the next level (## after #), or add the missing intermediate heading.",
		},
	}),
	Markdown: true,
	Options: &shape.Object{Fields: []shape.Field{
		{Name: "required", Type: headingList},
	}},
}

var Contains = &Tool{
	Name:  "tool:contains",
	Title: "The target contains a text or matches a pattern",
	Doc: `The target must contain text (a literal string) or match pattern (RE2 syntax, Go's regexp: no
lookaround or backreferences; use (?m) for ^ and $ at line ends, (?s) for . across lines). Exactly one of
text and pattern is required; ignore-case: true compares without case. Empty matches do not count.

Options: text (string) or pattern (string), ignore-case (boolean, default false).
Codes: text_missing (no position: the result points at the eval entry).`,
	Codes: findings([]diag.CodeInfo{
		{
			Code: "text_missing", Title: "Required text or pattern is missing",
			Doc:     "tool:contains did not find its text (or RE2 pattern) in the target.",
			Example: "---\nevals:\n  - id: license\n    grader: tool:contains\n    options: {text: Apache-2.0}\n---\nNo license here.",
			Fix:     "Add the required text to the page, or correct the option (ignore-case: true for a case-insensitive match).",
		},
	}),
	Options: textOptions,
}

var Absent = &Tool{
	Name:  "tool:absent",
	Title: "The target does not contain a text or match a pattern",
	Doc: `The target must not contain text (a literal string) nor match pattern (RE2 syntax, as for
tool:contains). Exactly one of text and pattern is required; ignore-case: true compares without case. Every
non-empty, non-overlapping match is one finding.

Options: text (string) or pattern (string), ignore-case (boolean, default false).
Codes: text_present, at each match's line and column.`,
	Codes: findings([]diag.CodeInfo{
		{
			Code: "text_present", Title: "Forbidden text or pattern is present",
			Doc:     "tool:absent found its text (or RE2 pattern) in the target; each match is a result at its line and column.",
			Example: "---\nevals:\n  - id: no-todo\n    grader: tool:absent\n    options: {text: TODO}\n---\nTODO: write this.",
			Fix:     "Remove or reword each match.",
		},
	}),
	Options: textOptions,
}

var Length = &Tool{
	Name:  "tool:length",
	Title: "The target's length is within limits",
	Doc: `Measures the target's Markdown source as written (markup included): max-chars counts Unicode code
points; min-words and max-words count words, the Unicode word segments (UAX #29) that hold a letter or a
digit, so punctuation and spaces are not words. At least one option is required; min-words may not exceed
max-words.

Options: max-chars, min-words, max-words (integers, 0 or more).
Codes: too_long, too_short, with evidence {actual, limit, option}; no position: the result points at the
eval entry.`,
	Codes: findings([]diag.CodeInfo{
		{
			Code: "too_long", Title: "The target is longer than allowed",
			Doc:     "tool:length counted more code points than max-chars, or more words than max-words, in the target's Markdown source.",
			Example: "---\nevals:\n  - id: short\n    grader: tool:length\n    options: {max-words: 3}\n---\nThis page has far too many words.",
			Fix:     "Shorten the page (or its target), or raise the limit.",
		},
		{
			Code: "too_short", Title: "The target is shorter than required",
			Doc:     "tool:length counted fewer words than min-words in the target (words are Unicode word segments holding a letter or digit).",
			Example: "---\nevals:\n  - id: substantial\n    grader: tool:length\n    options: {min-words: 100}\n---\nStub.",
			Fix:     "Write more, or lower min-words.",
		},
	}),
	Options: &shape.Object{
		Fields: []shape.Field{
			{Name: "max-chars", Type: &shape.Type{Kind: shape.Int, Min: shape.Ptr(0), Doc: "At most this many code points."}},
			{Name: "min-words", Type: &shape.Type{Kind: shape.Int, Min: shape.Ptr(0), Doc: "At least this many words."}},
			{Name: "max-words", Type: &shape.Type{Kind: shape.Int, Min: shape.Ptr(0), Doc: "At most this many words."}},
		},
		Rules: []shape.Rule{
			{Kind: shape.AtLeastOne, Keys: []string{"max-chars", "min-words", "max-words"}, Message: "give max-chars, min-words or max-words"},
			{Kind: shape.NotAbove, Keys: []string{"min-words", "max-words"}, Message: "min-words may not exceed max-words"},
		},
	},
}

var CodeFences = &Tool{
	Name:  "tool:code-fences",
	Title: "Every fenced code block names a language",
	Doc: "Every fenced code block (``` or ~~~) must name a language: the first word of its info string is\n" +
		"not empty. Indented code blocks have no info string and are not checked.\n\n" +
		"Options: none.\n" +
		"Codes: fence_without_language, at the opening fence's line.",
	Codes: findings([]diag.CodeInfo{
		{
			Code: "fence_without_language", Title: "A fenced code block names no language",
			Doc:     "tool:code-fences found a fenced code block whose info string is empty, so readers and highlighters cannot tell its language.",
			Example: "---\nevals:\n  - id: fences\n    grader: tool:code-fences\n---\n```\nnpm install\n```",
			Fix:     "Name the language after the opening fence (```sh), or text for plain output.",
		},
	}),
	Markdown: true,
}

var FrontmatterSchema = &Tool{
	Name:  "tool:frontmatter-schema",
	Title: "The frontmatter satisfies a JSON Schema",
	Doc: `Validates the page's frontmatter, or a companion file (target {source: file}, read as YAML or JSON),
against the JSON Schema file named by schema, with github.com/santhosh-tekuri/jsonschema/v6. The schema is a
JSON or YAML file (.yaml, .yml) whose path is relative to the directory of the eval's definition (the page's,
or the config file's) and stays inside the repository. Drafts 4 to 2020-12 are supported ($schema); without
$schema the schema is read as draft 2020-12, and format is an annotation, not an assertion, as that draft
says. $ref is resolved offline: a reference to a file inside the repository is loaded; every other URL
(http:, https:, a file outside the repository) is refused, and the eval errors (target_outside_repo). The
meta-schemas of the drafts are built in.

Each failed leaf keyword is one finding, at the offending key: a property's key, a list item's first
character; required and dependentRequired point at the object missing the property (its key, or the first
key of the frontmatter); additionalProperties and propertyNames point at each offending key.

Options: schema (a path, required).
Codes: schema_violation. A missing, unparseable or invalid schema, or an unparseable companion, is an error
(target_unreadable); a schema path or $ref leaving the repository is an error (target_outside_repo).`,
	Codes: findings([]diag.CodeInfo{
		{
			Code: "schema_violation", Title: "The frontmatter does not satisfy its JSON Schema",
			Doc:     "tool:frontmatter-schema validated the frontmatter (or a companion file) against the JSON Schema its schema option names and found a violation; each is a result at the offending key.",
			Example: "---\ntitle: 42\nevals:\n  - id: meta\n    grader: tool:frontmatter-schema\n    options: {schema: page.schema.json}\n---\n(page.schema.json requires title to be a string)",
			Fix:     "Change the frontmatter to satisfy the schema, or correct the schema.",
		},
	}),
	Frontmatter: true,
	PathOptions: []string{"schema"},
	Options: &shape.Object{Fields: []shape.Field{{
		Name: "schema", Required: true, Missing: "needs schema, the path of a JSON Schema file",
		Type: &shape.Type{Kind: shape.String, NonBlank: true, Doc: "The JSON Schema file, relative to the eval's directory."},
	}}},
}

// findings fills in what every built-in tool's code shares: it is a finding (group "builtin", outcome fail)
// at the eval's own severity (README "Built-in tool:* graders"); a definition states each code's title,
// doc, example and fix.
func findings(codes []diag.CodeInfo) []diag.CodeInfo {
	for i := range codes {
		codes[i].Group, codes[i].Outcome, codes[i].Severity = "builtin", string(diag.Fail), diag.SeverityEval
	}
	return codes
}

// headingList is the type of tool:headings' required: a non-empty list of non-blank strings.
var headingList = &shape.Type{Kind: shape.List, NonEmpty: true, Doc: "Headings that must be present, at any level.",
	Items: &shape.Type{Kind: shape.String, NonBlank: true}}

// textOptions are the options of tool:contains and tool:absent.
var textOptions = &shape.Object{
	Fields: []shape.Field{
		{Name: "text", Type: &shape.Type{Kind: shape.String, NonEmpty: true, Doc: "A literal text."}},
		{Name: "pattern", Type: &shape.Type{Kind: shape.String, NonEmpty: true, RE2: true, Doc: "An RE2 pattern."}},
		{Name: "ignore-case", Type: &shape.Type{Kind: shape.Bool, Doc: "Compare without case (default false)."}},
	},
	Rules: []shape.Rule{
		{Kind: shape.AtLeastOne, Keys: []string{"text", "pattern"}, Message: "give option text or pattern"},
		{Kind: shape.NotBoth, Keys: []string{"text", "pattern"}, Message: "give text or pattern, not both"},
	},
}

// TextRegexp compiles the options of tool:contains or tool:absent into one regexp, and returns the
// option that names it and its value.
func TextRegexp(opts *frontmatter.Node) (re *regexp.Regexp, option, value string, err error) {
	expr := ""
	if t, ok := OptString(opts, "text"); ok {
		option, value, expr = "text", t, regexp.QuoteMeta(t)
	} else if p, ok := OptString(opts, "pattern"); ok {
		option, value, expr = "pattern", p, p
	} else {
		return nil, "", "", fmt.Errorf("option text or pattern is missing")
	}
	if optBoolValue(opts, "ignore-case") {
		expr = "(?i)" + expr
	}
	re, err = shape.Compile(expr)
	return re, option, value, err
}
