package grader

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/repofs"
	"github.com/evalgate/evalgate/internal/tooldef"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var builtinFrontmatterSchema = &Tool{Tool: tooldef.FrontmatterSchema, Run: builtinRunSchema}

func builtinRunSchema(ctx context.Context, in *ToolInput) ([]Finding, error) {
	const name = "tool:frontmatter-schema"
	pages := builtinPages(in)
	rel, _ := tooldef.OptString(in.Options, "schema")
	if rel == "" {
		return nil, fmt.Errorf("%s: option schema is missing", name)
	}
	root := filepath.Clean(in.RepoRoot)
	if filepath.IsAbs(rel) || filepath.VolumeName(rel) != "" || strings.HasPrefix(rel, "/") {
		return nil, fmt.Errorf("%s: %w: schema %q is an absolute path; write it relative to the eval's directory",
			name, ErrOutsideRepo, rel)
	}
	abs, st, why := pages.builtinLocate(root, in.OptionsDir, filepath.FromSlash(rel))
	switch {
	case st == builtinPathOutside && errors.Is(why, repofs.ErrLoop):
		return nil, fmt.Errorf("%s: %w schema %q: it is a symlink loop", name, ErrUnreadable, rel)
	case st == builtinPathOutside:
		return nil, builtinRefused(fmt.Sprintf("%s: schema %q %s", name, rel, builtinRefusal(why)))
	case st == builtinPathMissing:
		return nil, fmt.Errorf("%s: %w schema %q: no such file", name, ErrUnreadable, rel)
	case st == builtinPathDir:
		return nil, fmt.Errorf("%s: %w schema %q: it is a directory", name, ErrUnreadable, rel)
	}
	sch, err := pages.builtinSchema(root, abs)
	if err != nil {
		return nil, err
	}

	tree := in.Frontmatter
	if in.TargetKind == "file" {
		if tree, err = builtinParseData(in.Target); err != nil {
			return nil, fmt.Errorf("%s: %w %s as YAML or JSON: %v", name, ErrUnreadable, in.File, err)
		}
	}
	var inst any = map[string]any{} // a page without frontmatter has an empty one
	if tree != nil {
		inst = tree.JSONValue()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if _, ok := builtinSchemaWork(sch, inst, builtinSchemaMaxWork); !ok {
		return nil, fmt.Errorf("%s: %w: checking the frontmatter against schema %s applies its subschemas more than %d times (anyOf, oneOf, allOf or $ref nested too deep)",
			name, ErrSchemaTooComplex, builtinRepoPath(root, abs), builtinSchemaMaxWork)
	}
	err = sch.Validate(inst)
	if err == nil {
		return nil, nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	rootURL := builtinFileURL(root) + "/"
	if c := builtinRefCycle(verr); c != nil {
		// The schema cannot be applied: no verdict about the page, and no absolute path of the runner.
		return nil, fmt.Errorf("%s: %w schema %s: a $ref cycle (%s leads back to %s)", name, ErrUnreadable,
			builtinRepoPath(root, abs), c.KeywordLocation1, strings.TrimPrefix(c.URL, rootURL))
	}
	out := builtinSchemaFindings(verr, tree, rootURL)
	return out, nil
}

// builtinRefCycle returns the first reference cycle among the causes of verr, or nil.
func builtinRefCycle(verr *jsonschema.ValidationError) *kind.RefCycle {
	if c, ok := verr.ErrorKind.(*kind.RefCycle); ok {
		return c
	}
	for _, cause := range verr.Causes {
		if c := builtinRefCycle(cause); c != nil {
			return c
		}
	}
	return nil
}

// builtinSchemaPrinter renders the library's messages in English.
var builtinSchemaPrinter = message.NewPrinter(language.English)

// builtinSchemaFindings turns the leaves of a validation error into findings at the nodes of tree that
// they are about. rootURL ("file:///repo/") is cut from schema locations so keys are repository paths.
func builtinSchemaFindings(verr *jsonschema.ValidationError, tree *frontmatter.Node, rootURL string) []Finding {
	var leaves []*jsonschema.ValidationError
	var collect func(e *jsonschema.ValidationError)
	collect = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
			return
		}
		for _, c := range e.Causes {
			collect(c)
		}
	}
	collect(verr)

	var out []Finding
	seen := map[string]bool{}
	add := func(leaf *jsonschema.ValidationError, loc []string, msg string) {
		schemaLoc := strings.TrimPrefix(leaf.SchemaURL, rootURL)
		keyword := schemaLoc
		if kw := leaf.ErrorKind.KeywordPath(); len(kw) > 0 {
			if !strings.Contains(keyword, "#") {
				keyword += "#"
			}
			keyword += builtinJSONPointer(kw)
		}
		ptr := builtinJSONPointer(loc)
		key := keyword + " " + ptr
		if seen[key+"\x00"+msg] {
			return
		}
		seen[key+"\x00"+msg] = true
		where := ptr
		if where == "" {
			where = "the top level"
		}
		out = append(out, Finding{
			Pos:      builtinNodePosAt(tree, loc),
			Code:     "schema_violation",
			Key:      key,
			Message:  fmt.Sprintf("at %s: %s", where, msg),
			Evidence: map[string]any{"instance": ptr, "keyword": keyword},
		})
	}
	for _, leaf := range leaves {
		msg := strings.ReplaceAll(leaf.ErrorKind.LocalizedString(builtinSchemaPrinter), "\n", " ")
		loc := leaf.InstanceLocation
		switch k := leaf.ErrorKind.(type) {
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				add(leaf, append(loc[:len(loc):len(loc)], p), fmt.Sprintf("additional property %q not allowed", p))
			}
			continue
		case *kind.PropertyNames:
			add(leaf, append(loc[:len(loc):len(loc)], k.Property), msg)
			continue
		}
		add(leaf, loc, msg)
	}
	builtinSortFindings(out)
	return out
}

// builtinJSONPointer renders tokens as a JSON Pointer (RFC 6901): "" for none.
func builtinJSONPointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}

// builtinNodePosAt returns the position of the instance location loc in tree: a property's key, a list
// item's start; the deepest existing node's when loc goes further than tree; tree's own (its first key)
// for the empty location.
func builtinNodePosAt(tree *frontmatter.Node, loc []string) diag.Pos {
	if tree == nil {
		return diag.Pos{}
	}
	cur, pos := tree, tree.Pos
	for _, tok := range loc {
		switch cur.Kind {
		case frontmatter.Map:
			e := cur.Get(tok)
			if e == nil {
				return pos
			}
			pos, cur = e.KeyPos, e.Value
		case frontmatter.List:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.Items) {
				return pos
			}
			cur = cur.Items[i]
			pos = cur.Pos
		default:
			return pos
		}
		if cur == nil {
			return pos
		}
	}
	return pos
}

// builtinFileURL is the file: URL of the absolute path p.
func builtinFileURL(p string) string {
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows volume: file:///C:/...
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// builtinSchema returns the schema at abs compiled, cached per repository root and path (errors too).
func (c *PageCache) builtinSchema(root, abs string) (*jsonschema.Schema, error) {
	v, err := c.builtinGet("schema\x00"+root+"\x00"+abs, func() (any, error) {
		const name = "tool:frontmatter-schema"
		show := builtinRepoPath(root, abs)
		doc, err := builtinLoadSchemaDoc(abs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w schema %s: %v", name, ErrUnreadable, show, err)
		}
		loader := &builtinSchemaLoader{pages: c, root: root, refs: builtinSchemaRefs(doc)}
		if loader.refs > builtinSchemaMaxRefs {
			return nil, loader.tooManyRefs(name, show)
		}
		comp := jsonschema.NewCompiler()
		comp.DefaultDraft(jsonschema.Draft2020)
		comp.UseLoader(loader)
		u := builtinFileURL(abs)
		if err := comp.AddResource(u, doc); err != nil {
			return nil, fmt.Errorf("%s: %w schema %s: %v", name, ErrUnreadable, show, err)
		}
		sch, err := comp.Compile(u)
		if err != nil {
			if loader.fault != nil {
				return nil, fmt.Errorf("%s: schema %s: %w", name, show, loader.fault)
			}
			msg := strings.ReplaceAll(err.Error(), builtinFileURL(root)+"/", "")
			return nil, fmt.Errorf("%s: %w schema %s: %s", name, ErrUnreadable, show, strings.ReplaceAll(msg, "\n", " "))
		}
		return sch, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*jsonschema.Schema), nil
}

func builtinRepoPath(root, abs string) string {
	if r, err := filepath.Rel(root, abs); err == nil {
		return filepath.ToSlash(r)
	}
	return abs
}

// builtinSchemaLoader loads $ref targets for the compiler: files inside the repository only, never the
// network. The compiler does not wrap its loader's errors, so the first failure is kept in fault.
type builtinSchemaLoader struct {
	pages *PageCache
	root  string
	fault error
	refs  int // the $ref of the documents loaded so far (builtinSchemaMaxRefs)
}

// tooManyRefs is the error of a schema whose documents hold more than builtinSchemaMaxRefs $ref.
func (l *builtinSchemaLoader) tooManyRefs(name, show string) error {
	return fmt.Errorf("%s: %w: schema %s and the files it reaches hold more than %d $ref", name, ErrSchemaTooComplex, show, builtinSchemaMaxRefs)
}

// keep records err as the loader's fault unless one is recorded already, and returns it.
func (l *builtinSchemaLoader) keep(err error) error {
	if l.fault == nil {
		l.fault = err
	}
	return err
}

func (l *builtinSchemaLoader) Load(u string) (any, error) {
	pu, err := url.Parse(u)
	if err != nil || pu.Scheme != "file" {
		return nil, l.keep(fmt.Errorf("%w: $ref %q: only files inside the repository are loaded, never a URL", ErrOutsideRepo, u))
	}
	p, err := jsonschema.FileLoader{}.ToFile(u)
	if err != nil {
		return nil, l.keep(fmt.Errorf("%w $ref %q: %v", ErrUnreadable, u, err))
	}
	rel, err := filepath.Rel(l.root, p)
	if err != nil {
		return nil, l.keep(fmt.Errorf("%w: $ref to %s", ErrOutsideRepo, p))
	}
	abs, st, why := l.pages.builtinLocate(l.root, l.root, rel)
	switch {
	case st == builtinPathOutside && errors.Is(why, repofs.ErrLoop):
		return nil, l.keep(fmt.Errorf("%w $ref %s: it is a symlink loop", ErrUnreadable, filepath.ToSlash(rel)))
	case st == builtinPathOutside:
		return nil, l.keep(builtinRefused(fmt.Sprintf("$ref to %s: it %s", filepath.ToSlash(rel), builtinRefusal(why))))
	case st == builtinPathMissing || st == builtinPathDir:
		return nil, l.keep(fmt.Errorf("%w $ref %s: no such file", ErrUnreadable, filepath.ToSlash(rel)))
	}
	doc, err := builtinLoadSchemaDoc(abs)
	if err != nil {
		return nil, l.keep(fmt.Errorf("%w $ref %s: %v", ErrUnreadable, filepath.ToSlash(rel), err))
	}
	if l.refs += builtinSchemaRefs(doc); l.refs > builtinSchemaMaxRefs {
		return nil, l.keep(fmt.Errorf("%w: $ref %s: the schema's files hold more than %d $ref", ErrSchemaTooComplex, filepath.ToSlash(rel), builtinSchemaMaxRefs))
	}
	return doc, nil
}

// builtinLoadSchemaDoc reads a schema document: YAML for .yaml and .yml, JSON otherwise (with a YAML
// fallback for other extensions). JSON numbers stay json.Number.
func builtinLoadSchemaDoc(abs string) (any, error) {
	data, err := repofs.ReadFile(abs, repofs.BodyLimit)
	if err != nil {
		return nil, err
	}
	ext := strings.ToLower(filepath.Ext(abs))
	if ext != ".yaml" && ext != ".yml" {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err == nil || ext == ".json" {
			return doc, err
		}
	}
	n, err := builtinParseData(data)
	if err != nil {
		return nil, err
	}
	return n.JSONValue(), nil
}

// builtinParseData parses YAML (or JSON, read as YAML) into a Node tree with positions, through the same
// parser as frontmatter: YAML 1.2 core-schema scalars, duplicate keys refused, alias expansion and nesting
// bounded (README "Decisions where the specs are silent"). The first problem becomes the error.
func builtinParseData(data []byte) (*frontmatter.Node, error) {
	n, problems := frontmatter.ParseYAML(data, 1)
	if len(problems) > 0 {
		p := problems[0]
		return nil, fmt.Errorf("line %d: %s", p.Pos.Line, p.Message)
	}
	return n, nil
}
