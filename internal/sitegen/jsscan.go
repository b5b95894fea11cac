package sitegen

import (
	"bytes"
	"path"
	"strings"
)

// The reader of docusaurus.config.* texts: JavaScript or TypeScript read for its object literals alone
// (DocusaurusInstances).

// jsScanner reads JavaScript or TypeScript far enough to find object literals and the string values of
// their keys: it skips comments, strings and template literals, and keeps a stack of the brackets it is
// in. Anything else is a token it steps over.
type jsScanner struct {
	src   []byte
	i     int
	stack []*jsFrame
	// preset holds what the text gave for the preset's docs, blog and pages: an instance, or nil for
	// false or for an instance it cannot read.
	preset  map[string]*Instance
	plugins []Instance
	depth   int // template literal nesting

	// Variables: the objects assigned to a name, and the options given by name (`docs: docsOptions`,
	// `[plugin, docsOptions]`), resolved once the whole text is read.
	vars       map[string]*jsFrame
	presetRefs []jsRef
	pluginRefs []jsRef
	declaring  bool   // the last word was const, let or var
	declName   string // the name it declares
	lastWord   string
	assign     string // a name followed by "=": the object opened next is its value
}

// jsRef is options given by a variable's name, for an instance of kind.
type jsRef struct{ kind, name string }

// jsFrame is one open bracket: an object ({), an array ([) or parentheses.
type jsFrame struct {
	open byte
	key  string // the key this object is the value of, when it is one
	// plugin is the first string of the array this object is the second element of (["name", {...}]).
	plugin string
	// In an array: its first element when that is a string, and how many elements have begun.
	first    string
	elements int
	// In an object: the string values of its keys, and the keys given other values.
	strs     map[string]string
	computed map[string]bool
	pending  string // a key whose value comes next
	// varName is the variable this object is assigned to; second, an array's second element when it
	// is a name.
	varName, second string
}

// maxJSDepth bounds the brackets and template literals the scanner follows; deeper text ends the scan.
const maxJSDepth = 200

func (sc *jsScanner) top() *jsFrame {
	if len(sc.stack) == 0 {
		return nil
	}
	return sc.stack[len(sc.stack)-1]
}

// scan reads the whole text, or up to where it can follow it no further.
func (sc *jsScanner) scan() {
	sc.preset = map[string]*Instance{}
	for sc.i < len(sc.src) {
		if !sc.step() {
			return
		}
	}
}

// step reads one token; false ends the scan.
func (sc *jsScanner) step() bool {
	c := sc.src[sc.i]
	switch {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		sc.i++
	case c == '/' && sc.peek(1) == '/':
		for sc.i < len(sc.src) && sc.src[sc.i] != '\n' {
			sc.i++
		}
	case c == '/' && sc.peek(1) == '*':
		end := bytes.Index(sc.src[sc.i+2:], []byte("*/"))
		if end < 0 {
			return false
		}
		sc.i += 2 + end + 2
	case c == '"' || c == '\'':
		s, ok := sc.str(c)
		if !ok {
			return false
		}
		sc.assign = ""
		sc.value(s, true)
	case c == '`':
		if !sc.template() {
			return false
		}
		sc.value("", false)
	case c == '{' || c == '[' || c == '(':
		if len(sc.stack) >= maxJSDepth {
			return false
		}
		sc.open(c)
		sc.i++
	case c == '}' || c == ']' || c == ')':
		sc.assign = ""
		sc.close(c)
		sc.i++
	case c == ':':
		sc.i++
	case c == '=':
		if next := sc.peek(1); next == '=' || next == '>' {
			sc.i += 2
			sc.assign = ""
			break
		}
		sc.assign = sc.declName
		if sc.assign == "" {
			sc.assign = sc.lastWord
		}
		sc.declName = ""
		sc.i++
	case c == ',' || c == ';':
		sc.assign = ""
		if f := sc.top(); f != nil && c == ',' {
			f.pending = ""
			if f.open == '[' {
				f.elements++
			}
		}
		sc.i++
	case isIdentStart(c):
		start := sc.i
		for sc.i < len(sc.src) && isIdentPart(sc.src[sc.i]) {
			sc.i++
		}
		sc.word(string(sc.src[start:sc.i]))
	default:
		sc.i++
	}
	return true
}

func (sc *jsScanner) peek(n int) byte {
	if sc.i+n < len(sc.src) {
		return sc.src[sc.i+n]
	}
	return 0
}

// nextIsColon reports whether the next token after sc.i, past white space and comments, is ':'.
func (sc *jsScanner) nextIsColon() bool {
	j := sc.i
	for j < len(sc.src) {
		switch c := sc.src[j]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			j++
		case c == '/' && j+1 < len(sc.src) && sc.src[j+1] == '*':
			end := bytes.Index(sc.src[j+2:], []byte("*/"))
			if end < 0 {
				return false
			}
			j += 2 + end + 2
		default:
			return c == ':' && (j+1 >= len(sc.src) || sc.src[j+1] != ':')
		}
	}
	return false
}

// word handles an identifier: a key when a ':' follows in an object, else a value.
func (sc *jsScanner) word(w string) {
	switch {
	case w == "const" || w == "let" || w == "var":
		sc.declaring = true
		return
	case sc.declaring:
		sc.declaring, sc.declName = false, w
	}
	sc.lastWord, sc.assign = w, ""
	f := sc.top()
	if f != nil && f.open == '{' && f.pending == "" && sc.nextIsColon() {
		f.pending = w
		return
	}
	sc.valueWord(w)
}

// value handles a string literal (literal) or another value token: a key when a ':' follows in an
// object, else the value of the pending key, or an element of an array.
func (sc *jsScanner) value(s string, literal bool) {
	f := sc.top()
	if f == nil {
		return
	}
	if f.open == '{' && f.pending == "" && literal && sc.nextIsColon() {
		f.pending = s
		return
	}
	if f.open == '[' && f.elements == 0 && literal && f.first == "" {
		f.first = s
	}
	if f.open != '{' || f.pending == "" {
		return
	}
	if literal {
		if f.strs == nil {
			f.strs = map[string]string{}
		}
		f.strs[f.pending] = s
	} else {
		sc.computed(f)
	}
	f.pending = ""
}

// valueWord handles an identifier in value position: false turns the preset's docs, blog or pages
// off; anything else is a value the scanner cannot read.
func (sc *jsScanner) valueWord(w string) {
	f := sc.top()
	if f != nil && f.open == '[' && f.elements == 1 && f.second == "" {
		f.second = w
	}
	if f == nil || f.open != '{' || f.pending == "" {
		return
	}
	switch {
	case w == "false" && isKind(f.pending):
		sc.preset[f.pending] = nil
		f.pending = ""
		return
	case isKind(f.pending) && w != "true" && w != "null" && w != "undefined":
		sc.presetRefs = append(sc.presetRefs, jsRef{kind: f.pending, name: w})
	}
	sc.computed(f)
}

func (sc *jsScanner) computed(f *jsFrame) {
	if f.computed == nil {
		f.computed = map[string]bool{}
	}
	f.computed[f.pending] = true
	f.pending = ""
}

func (sc *jsScanner) open(c byte) {
	f := &jsFrame{open: c}
	if c == '{' && sc.assign != "" {
		f.varName, sc.assign = sc.assign, ""
	}
	if parent := sc.top(); parent != nil {
		switch {
		case c == '{' && parent.open == '{' && parent.pending != "":
			f.key, parent.pending = parent.pending, ""
		case c == '{' && parent.open == '[' && parent.elements == 1:
			f.plugin = parent.first
		case parent.open == '{' && parent.pending != "":
			// An array or a call as a key's value: not a string.
			sc.computed(parent)
		}
	}
	sc.stack = append(sc.stack, f)
}

func (sc *jsScanner) close(c byte) {
	open := map[byte]byte{'}': '{', ']': '[', ')': '('}[c]
	for len(sc.stack) > 0 {
		f := sc.top()
		sc.stack = sc.stack[:len(sc.stack)-1]
		if f.open == open {
			switch open {
			case '{':
				sc.object(f)
				if f.varName != "" {
					if sc.vars == nil {
						sc.vars = map[string]*jsFrame{}
					}
					sc.vars[f.varName] = f
				}
			case '[':
				if kind := pluginKind(f.first); kind != "" && f.second != "" {
					sc.pluginRefs = append(sc.pluginRefs, jsRef{kind: kind, name: f.second})
				}
			}
			return
		}
	}
}

// object takes what a closed object says of an instance: as the preset's docs, blog or pages
// options, or as a content plugin's options.
func (sc *jsScanner) object(f *jsFrame) {
	kind := pluginKind(f.plugin)
	fromPlugin := kind != ""
	if !fromPlugin && isKind(f.key) {
		kind = f.key
	}
	if kind == "" {
		return
	}
	in, ok := instanceOf(kind, f)
	switch {
	case fromPlugin:
		if ok {
			sc.plugins = append(sc.plugins, in)
		}
	case !ok:
		// The preset's instance is somewhere the text does not say: it is left out, unless an
		// earlier object gave it.
		if _, given := sc.preset[kind]; !given {
			sc.preset[kind] = nil
		}
	case placed(f):
		sc.preset[kind] = &in
	}
	// An object of that name without any (the preset's docs with only a sidebarPath, or
	// themeConfig.docs, the sidebar's options) leaves the instance as it was.
}

// placed says whether the options f say where an instance is, or which version of it is served first.
func placed(f *jsFrame) bool {
	for _, k := range []string{"path", "routeBasePath", "id", "lastVersion"} {
		if _, ok := f.strs[k]; ok {
			return true
		}
	}
	return false
}

// instanceOf is the instance the object f gives, or false when its path or route is not a string.
func instanceOf(kind string, f *jsFrame) (Instance, bool) {
	if f.computed["path"] || f.computed["routeBasePath"] {
		return Instance{}, false
	}
	in := Instance{Kind: kind}
	for _, def := range defaultInstances {
		if def.Kind == kind {
			in = def
		}
	}
	if p, ok := f.strs["path"]; ok {
		if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
			return Instance{}, false
		}
		in.Path = path.Clean(p)
	}
	if r, ok := f.strs["routeBasePath"]; ok {
		in.Route = strings.Trim(path.Clean("/"+r), "/")
	}
	in.ID, in.LastVersion = f.strs["id"], f.strs["lastVersion"]
	return in, true
}

func isKind(s string) bool { return s == "docs" || s == "blog" || s == "pages" }

// str reads a string literal quoted by q, decoding its escapes; false when it is not closed on its line.
func (sc *jsScanner) str(q byte) (string, bool) {
	var b strings.Builder
	for j := sc.i + 1; j < len(sc.src); j++ {
		switch c := sc.src[j]; c {
		case q:
			sc.i = j + 1
			return b.String(), true
		case '\n':
			return "", false
		case '\\':
			j++
			if j < len(sc.src) {
				b.WriteByte(sc.src[j])
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}

// template skips a template literal, the code of its ${} included; false when it is not closed.
func (sc *jsScanner) template() bool {
	if sc.depth >= maxJSDepth {
		return false
	}
	sc.depth++
	defer func() { sc.depth-- }()
	for j := sc.i + 1; j < len(sc.src); j++ {
		switch sc.src[j] {
		case '\\':
			j++
		case '`':
			sc.i = j + 1
			return true
		case '$':
			if j+1 < len(sc.src) && sc.src[j+1] == '{' {
				sc.i = j + 2
				if !sc.skipCode() {
					return false
				}
				j = sc.i - 1
			}
		}
	}
	return false
}

// skipCode skips the code of a ${} up to its closing brace, strings and nested templates included.
func (sc *jsScanner) skipCode() bool {
	braces := 0
	for sc.i < len(sc.src) {
		switch c := sc.src[sc.i]; c {
		case '"', '\'':
			if _, ok := sc.str(c); !ok {
				return false
			}
			continue
		case '`':
			if !sc.template() {
				return false
			}
			continue
		case '{':
			braces++
		case '}':
			if braces == 0 {
				sc.i++
				return true
			}
			braces--
		}
		sc.i++
	}
	return false
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || '0' <= c && c <= '9' }
