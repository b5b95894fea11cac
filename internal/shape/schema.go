package shape

import (
	"cmp"
	"maps"
)

// JSONSchema renders t as a JSON Schema (draft 2020-12) object, the export `evalgate schema` writes. It
// states what the checker checks: kinds, lengths, enums, patterns, ranges, unique items, fields, required
// keys and rules; Schema is merged last.
func (t *Type) JSONSchema() map[string]any {
	if t == nil {
		return map[string]any{}
	}
	if t.Ref != "" {
		s := map[string]any{"$ref": "#/$defs/" + t.Ref}
		if t.Doc != "" {
			s["description"] = t.Doc
		}
		if t.Kind == List && t.NonEmpty {
			s["minItems"] = 1
		}
		if t.Kind == List && t.MaxItems > 0 {
			s["maxItems"] = t.MaxItems
		}
		return s
	}
	s := map[string]any{}
	if t.Doc != "" {
		s["description"] = t.Doc
	}
	switch t.Kind {
	case String:
		s["type"] = "string"
		if t.NonEmpty || t.NonBlank {
			s["minLength"] = 1
		}
		if t.NonBlank {
			s["pattern"] = `\S`
		}
		if t.Enum != nil {
			delete(s, "type")
			s["enum"] = t.Enum
		}
		if t.Pattern != nil {
			s["pattern"] = t.Pattern.RE.String()
		}
	case Bool:
		s["type"] = "boolean"
	case Int, Number:
		s["type"] = "number"
		if t.Kind == Int {
			s["type"] = "integer"
		}
		minimum, maximum := t.Min, t.Max
		if t.Kind == Int {
			// Without bounds of its own, an integer is bounded by ±2^53 (maxExact), as the checker bounds it.
			minimum = cmp.Or(minimum, Ptr(-maxExact))
			maximum = cmp.Or(maximum, Ptr(maxExact))
		}
		if minimum != nil {
			if t.MinExclusive {
				s["exclusiveMinimum"] = *minimum
			} else {
				s["minimum"] = *minimum
			}
		}
		if maximum != nil {
			s["maximum"] = *maximum
		}
	case List:
		s["type"] = "array"
		if t.NonEmpty {
			s["minItems"] = 1
		}
		if t.MaxItems > 0 {
			s["maxItems"] = t.MaxItems
		}
		if t.Unique {
			s["uniqueItems"] = true
		}
		if t.Items != nil {
			s["items"] = t.Items.JSONSchema()
		}
	case Map:
		s["type"] = "object"
		if t.Object != nil {
			maps.Copy(s, t.Object.JSONSchema())
		}
	}
	maps.Copy(s, t.Schema)
	return s
}

// JSONSchema renders o's properties, required keys, closedness and rules as the members of a JSON
// Schema object (without "type").
func (o *Object) JSONSchema() map[string]any {
	s := map[string]any{}
	if len(o.Fields) > 0 {
		props := map[string]any{}
		var required []string
		for _, f := range o.Fields {
			props[f.Name] = f.Type.JSONSchema()
			if f.Required {
				required = append(required, f.Name)
			}
		}
		s["properties"] = props
		if required != nil {
			s["required"] = required
		}
	}
	if len(o.Fields) == 0 {
		s["maxProperties"] = 0
	} else {
		s["additionalProperties"] = false
	}
	var allOf []any
	for _, r := range o.Rules {
		switch r.Kind {
		case AtLeastOne:
			var anyOf []any
			for _, k := range r.Keys {
				anyOf = append(anyOf, map[string]any{"required": []string{k}})
			}
			allOf = append(allOf, map[string]any{"anyOf": anyOf})
		case NotBoth:
			allOf = append(allOf, map[string]any{"not": map[string]any{"required": r.Keys}})
		case Requires:
			dep, _ := s["dependentRequired"].(map[string]any)
			if dep == nil {
				dep = map[string]any{}
				s["dependentRequired"] = dep
			}
			dep[r.Keys[0]] = r.Keys[1:]
		case NotAbove:
			// Not expressible in JSON Schema: checked by evalgate alone.
		}
	}
	if allOf != nil {
		s["allOf"] = allOf
	}
	return s
}
