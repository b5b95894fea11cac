package evalcase

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestDecodeCase checks that pass 2's partial decoding reads a valid case
// as json.Unmarshal into caseDoc does.
func TestDecodeCase(t *testing.T) {
	for _, line := range []string{
		baseCase,
		seedCase,
		strings.Replace(baseCase, `"source": "Welcome, %s!"`, `"sou\u0072ce" : "We\"l\u00e9come,\t%s!\\"`, 1),
		strings.Replace(baseCase, `"required_tokens": ["%s"]`, `"required_tokens": [ "%s" , "\u0025d", "x" ]`, 1),
		strings.Replace(baseCase, `"params": {"syntax": "printf", "allow_reorder": true}`, `"params" :  { "syntax" : "printf" , "nested": [{"a": "}]"}] }`, 1),
		`{"id": "a.b", "assertions": [], "required_tokens": [], "source": ""}`,
		`  { }  `,
	} {
		var got, want caseDoc
		if err := decodeCase([]byte(line), &got); err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if err := json.Unmarshal([]byte(line), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", line, got, want)
		}
	}
}
