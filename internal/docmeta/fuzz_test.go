package docmeta_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/frontmatter"
)

// FuzzValidatePage parses arbitrary text as YAML frontmatter and validates
// it: no panic, every result well-formed and positioned inside the text,
// every resolved eval valid. Seeds: the frontmatter of every testdata page.
func FuzzValidatePage(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.md"))
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if d := frontmatter.Split(text); d.Format == frontmatter.FormatYAML {
			f.Add(d.Text)
		}
	}
	cat := loadCatalog(f)
	f.Fuzz(func(t *testing.T, text []byte) {
		root, _ := frontmatter.ParseYAML(text, 1)
		for _, c := range []*docmeta.Catalog{cat, nil} {
			page := docmeta.ValidatePage(root, c, nil)
			checkInvariants(t, page, text)
		}
	})
}
