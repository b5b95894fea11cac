package evalcase

import (
	"slices"
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
)

// TestVocabulary keeps the registry consistent: codeOrder repeats the
// assertions' codes in order, and every code evalcase gives is registered.
func TestVocabulary(t *testing.T) {
	var codes []string
	for _, a := range Vocabulary {
		if a.Title == "" || a.run == nil || len(a.Codes) == 0 {
			t.Errorf("%s is incomplete", a.Name)
		}
		for _, p := range a.Params {
			if p.Doc == "" || (p.Kind == ParamEnum) != (len(p.Enum) > 0) {
				t.Errorf("%s.%s is incomplete", a.Name, p.Name)
			}
		}
		codes = append(codes, a.Codes...)
	}
	if !slices.Equal(codes, codeOrder) {
		t.Errorf("codeOrder = %q, the vocabulary's codes are %q", codeOrder, codes)
	}
	for _, c := range append(codes, "ok", "no_candidate", "unknown_case", "duplicate_candidate", "internal_error",
		"syntax_error", "duplicate_key", "invalid_utf8", "too_large", "unknown_key", "missing_field", "wrong_type",
		"invalid_value", "invalid_id", "duplicate_id", "target_outside_repo", "target_unreadable") {
		if _, ok := diag.LookupCode(c); !ok {
			t.Errorf("code %s is not in diag.Codes", c)
		}
	}
}
