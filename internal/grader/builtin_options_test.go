package grader

import (
	"testing"

	"github.com/evalgate/evalgate/internal/diag"
	"github.com/google/go-cmp/cmp"
)

func TestBuiltinCheckOptions(t *testing.T) {
	type prob struct {
		Pos  diag.Pos
		Code string
	}
	tests := []struct {
		tool string
		opts string // YAML; "" is no options at all
		want []prob
	}{
		{"tool:links", "", nil},
		{"tool:links", "{}", nil},
		{"tool:links", "check-external: true\n", []prob{{diag.Pos{Line: 1, Col: 1}, "unknown_key"}}},
		{"tool:links", "[a]", []prob{{diag.Pos{Line: 1, Col: 1}, "wrong_type"}}},
		{"tool:code-fences", "x: 1\nlang: go\n", []prob{{diag.Pos{Line: 1, Col: 1}, "unknown_key"}, {diag.Pos{Line: 2, Col: 1}, "unknown_key"}}},

		{"tool:headings", "", nil},
		{"tool:headings", "required: [Intro, Usage]\n", nil},
		{"tool:headings", "required: Intro\n", []prob{{diag.Pos{Line: 1, Col: 11}, "wrong_type"}}},
		{"tool:headings", "required: []\n", []prob{{diag.Pos{Line: 1, Col: 11}, "invalid_value"}}},
		{"tool:headings", "required:\n  - Intro\n  - 3\n  - \"  \"\n", []prob{{diag.Pos{Line: 3, Col: 5}, "wrong_type"}, {diag.Pos{Line: 4, Col: 5}, "invalid_value"}}},
		{"tool:headings", "levels: 2\n", []prob{{diag.Pos{Line: 1, Col: 1}, "unknown_key"}}},
		{"tool:headings", "required:\n", []prob{{diag.Pos{Line: 1, Col: 10}, "wrong_type"}}},

		{"tool:contains", "", []prob{{diag.Pos{}, "missing_field"}}},
		{"tool:contains", "{}", []prob{{diag.Pos{Line: 1, Col: 1}, "missing_field"}}},
		{"tool:contains", "ignore-case: true\n", []prob{{diag.Pos{Line: 1, Col: 1}, "missing_field"}}},
		{"tool:contains", "text: TODO\n", nil},
		{"tool:contains", "pattern: '(?m)^TODO'\nignore-case: true\n", nil},
		{"tool:contains", "text: a\npattern: b\n", []prob{{diag.Pos{Line: 2, Col: 1}, "invalid_value"}}},
		{"tool:contains", "pattern: b\ntext: a\n", []prob{{diag.Pos{Line: 2, Col: 1}, "invalid_value"}}},
		{"tool:contains", "text: 3\n", []prob{{diag.Pos{Line: 1, Col: 7}, "wrong_type"}}},
		{"tool:contains", "text: ''\n", []prob{{diag.Pos{Line: 1, Col: 7}, "invalid_value"}}},
		{"tool:absent", "pattern: 'a(b'\n", []prob{{diag.Pos{Line: 1, Col: 10}, "invalid_value"}}},
		{"tool:absent", "pattern: '(?<=a)b'\n", []prob{{diag.Pos{Line: 1, Col: 10}, "invalid_value"}}},
		{"tool:absent", "text: x\nignore-case: 'yes'\n", []prob{{diag.Pos{Line: 2, Col: 14}, "wrong_type"}}},
		{"tool:absent", "text: x\ncase: true\n", []prob{{diag.Pos{Line: 2, Col: 1}, "unknown_key"}}},

		{"tool:length", "", []prob{{diag.Pos{}, "missing_field"}}},
		{"tool:length", "{}", []prob{{diag.Pos{Line: 1, Col: 1}, "missing_field"}}},
		{"tool:length", "max-chars: 100\n", nil},
		{"tool:length", "max-chars: 1e3\nmin-words: 3.0\n", nil},
		{"tool:length", "max-chars: -1\n", []prob{{diag.Pos{Line: 1, Col: 12}, "invalid_value"}}},
		{"tool:length", "max-chars: 2.5\n", []prob{{diag.Pos{Line: 1, Col: 12}, "wrong_type"}}},
		{"tool:length", "max-chars: .inf\n", []prob{{diag.Pos{Line: 1, Col: 12}, "invalid_value"}}},
		{"tool:length", "max-chars: '10'\n", []prob{{diag.Pos{Line: 1, Col: 12}, "wrong_type"}}},
		{"tool:length", "min-words: 10\nmax-words: 5\n", []prob{{diag.Pos{Line: 1, Col: 12}, "invalid_value"}}},
		{"tool:length", "max-lines: 5\n", []prob{{diag.Pos{Line: 1, Col: 1}, "unknown_key"}, {diag.Pos{Line: 1, Col: 1}, "missing_field"}}},

		{"tool:frontmatter-schema", "", []prob{{diag.Pos{}, "missing_field"}}},
		{"tool:frontmatter-schema", "schema: schemas/page.json\n", nil},
		{"tool:frontmatter-schema", "schema: 3\n", []prob{{diag.Pos{Line: 1, Col: 9}, "wrong_type"}}},
		{"tool:frontmatter-schema", "schema: ' '\n", []prob{{diag.Pos{Line: 1, Col: 9}, "invalid_value"}}},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.opts, func(t *testing.T) {
			var got []prob
			for _, p := range LookupBuiltin(tt.tool).CheckOptions(builtinTestOpts(t, tt.opts), "options") {
				got = append(got, prob{p.Pos, p.Code})
				if p.Message == "" {
					t.Errorf("%s: empty message", p.Code)
				}
				if _, ok := diag.LookupCode(p.Code); !ok {
					t.Errorf("unregistered code %s", p.Code)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
