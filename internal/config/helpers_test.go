package config_test

import (
	"testing"

	"github.com/evalgate/evalgate/internal/frontmatter"
)

func mustYAML(t testing.TB, text string) *frontmatter.Node {
	t.Helper()
	n, probs := frontmatter.ParseYAML([]byte(text), 1)
	if len(probs) > 0 {
		t.Fatalf("%q: %v", text, probs)
	}
	return n
}
