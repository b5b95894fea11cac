package evalcase

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestDecodeCase checks that the partial decoding of a graded case reads a valid case
// as json.Unmarshal into caseDoc does.
func TestDecodeCase(t *testing.T) {
	var recur recurring
	for _, line := range []string{
		baseCase,
		seedCase,
		strings.Replace(baseCase, `"source": "Welcome, %s!"`, `"sou\u0072ce" : "We\"l\u00e9come,\t%s!\\"`, 1),
		strings.Replace(baseCase, `"required_tokens": ["%s"]`, `"required_tokens": [ "%s" , "\u0025d", "x" ]`, 1),
		strings.Replace(baseCase, `"params": {"syntax": "printf", "allow_reorder": true}`, `"params" :  { "syntax" : "printf" , "nested": [{"a": "}]"}] }`, 1),
		`{"id": "a.b", "assertions": [], "required_tokens": [], "source": ""}`,
		`  { }  `,
	} {
		var want caseDoc
		if err := json.Unmarshal([]byte(line), &want); err != nil {
			t.Fatal(err)
		}
		// Without a table of recurring texts, and through one the lines before have filled.
		for _, r := range []*recurring{nil, &recur} {
			var got caseDoc
			if err := decodeCase([]byte(line), &got, r); err != nil {
				t.Errorf("%s: %v", line, err)
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s:\ngot  %+v\nwant %+v", line, got, want)
			}
		}
	}
}

// TestCaseIDOf: the id of a case line is read alone, escapes decoded, wherever it stands.
func TestCaseIDOf(t *testing.T) {
	for _, tt := range []struct {
		line, want string
		err        bool
	}{
		{`{"schema_version": 1, "id": "a.b", "source": "x"}`, "a.b", false},
		{`{"source": {"id": "not.this"}, "id": "a\u002eb"}`, "a.b", false},
		{`{"schema_version": 1}`, "", false},
		{`xxxx`, "", true},
		{`{"id": 7}`, "", true},
	} {
		got, err := caseIDOf([]byte(tt.line))
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("caseIDOf(%s) = %q, %v; want %q, error %v", tt.line, got, err, tt.want, tt.err)
		}
	}
}
