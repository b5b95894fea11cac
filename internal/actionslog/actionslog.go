// Package actionslog reads a step's output the way the GitHub Actions runner
// does, for tests that check that no text from a page, a fixture, a grader
// or a path acts as a workflow command. It is used only by tests.
//
// The runner reads the output line by line (a line ends at CR, LF or CRLF),
// strips leading white space with .NET's String.TrimStart, and acts on a
// line that then starts with "::" ("::NAME PROPERTIES::DATA"); its legacy
// parser acts on "##[" anywhere in a line. "::stop-commands::TOKEN" makes it
// ignore every command until a line "::TOKEN::".
package actionslog

import (
	"strings"
)

// Command is a workflow command the runner acts on.
type Command struct {
	// Name is the command's name ("error", "stop-commands"); "##[" for a
	// line the legacy parser acts on.
	Name string
	// Info is the text between the two "::", Name and properties.
	Info string
	// Props are the properties, unescaped as the runner does.
	Props map[string]string
	// Data is the text after the second "::", unescaped.
	Data string
	// Line is the whole line as written.
	Line string
}

// IsWhiteSpace reports whether .NET's Char.IsWhiteSpace holds for r, which
// is what String.TrimStart strips: U+0009–U+000D, U+0020, U+0085, U+00A0,
// U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F and U+3000.
func IsWhiteSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// Lines splits out as the runner does: at CR, LF and CRLF.
func Lines(out string) []string {
	var lines []string
	for len(out) > 0 {
		i := strings.IndexAny(out, "\r\n")
		if i < 0 {
			lines = append(lines, out)
			break
		}
		lines = append(lines, out[:i])
		if out[i] == '\r' && i+1 < len(out) && out[i+1] == '\n' {
			i++
		}
		out = out[i+1:]
	}
	return lines
}

// Read returns the workflow commands the runner would act on in out, in
// order, and whether commands are still stopped at its end. It errs on the
// side of seeing commands: every "::NAME...::" counts, registered or not,
// a stop token is matched without regard to case, and "##[" counts even
// while commands are stopped.
func Read(out string) (cmds []Command, stopped bool) {
	stopToken := ""
	for _, line := range Lines(out) {
		if strings.Contains(line, "##[") {
			cmds = append(cmds, Command{Name: "##[", Line: line})
			continue
		}
		c, ok := parse(line)
		if !ok {
			continue
		}
		if stopToken != "" {
			if strings.EqualFold(c.Name, stopToken) {
				stopToken = ""
				cmds = append(cmds, c)
			}
			continue
		}
		if c.Name == "stop-commands" {
			stopToken = c.Data
		}
		cmds = append(cmds, c)
	}
	return cmds, stopToken != ""
}

// parse reads one line as a "::" command.
func parse(line string) (Command, bool) {
	trimmed := strings.TrimLeftFunc(line, IsWhiteSpace)
	rest, ok := strings.CutPrefix(trimmed, "::")
	if !ok {
		return Command{}, false
	}
	info, data, ok := strings.Cut(rest, "::")
	if !ok {
		return Command{}, false
	}
	c := Command{Name: info, Info: info, Props: map[string]string{}, Data: unescapeData(data), Line: line}
	if name, props, ok := strings.Cut(info, " "); ok {
		c.Name = name
		for _, p := range strings.Split(props, ",") {
			if k, v, ok := strings.Cut(p, "="); ok {
				c.Props[k] = unescapeProperty(v)
			}
		}
	}
	return c, true
}

// unescapeData and unescapeProperty undo the escaping as the runner does
// ("%25" last).
func unescapeData(s string) string {
	s = strings.NewReplacer("%0D", "\r", "%0A", "\n").Replace(s)
	return strings.ReplaceAll(s, "%25", "%")
}

func unescapeProperty(s string) string {
	s = strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",").Replace(s)
	return strings.ReplaceAll(s, "%25", "%")
}
