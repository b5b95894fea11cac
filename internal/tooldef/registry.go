package tooldef

import "github.com/evalgate/evalgate/internal/diag"

// Codes is the one registry of result codes, in documentation order (README "Codes"): diag.Codes with the
// built-in tools' finding codes, in registry order, in the place of the "builtin" group (after "skip"). It
// feeds `evalgate explain`, the README's code table (tested equal to it) and the SARIF rule descriptions.
var Codes = registry()

func registry() []diag.CodeInfo {
	var tools []diag.CodeInfo
	for _, t := range Builtins {
		tools = append(tools, t.Codes...)
	}
	out := make([]diag.CodeInfo, 0, len(diag.Codes)+len(tools))
	placed := false
	for _, c := range diag.Codes {
		if !placed && c.Group != "definition" && c.Group != "note" && c.Group != "running" && c.Group != "skip" {
			out, placed = append(out, tools...), true
		}
		out = append(out, c)
	}
	if !placed {
		out = append(out, tools...)
	}
	return out
}

// LookupCode returns the registry entry of code: one of evalgate's own or a built-in tool's.
func LookupCode(code string) (diag.CodeInfo, bool) {
	for _, t := range Builtins {
		for _, c := range t.Codes {
			if c.Code == code {
				return c, true
			}
		}
	}
	return diag.LookupCode(code)
}

// CodeNames returns every registered code, in registry order.
func CodeNames() []string { return codeNames(Codes) }

// CodeNames returns the codes the tool gives, in its order.
func (t *Tool) CodeNames() []string { return codeNames(t.Codes) }

func codeNames(codes []diag.CodeInfo) []string {
	names := make([]string, len(codes))
	for i, c := range codes {
		names[i] = c.Code
	}
	return names
}
