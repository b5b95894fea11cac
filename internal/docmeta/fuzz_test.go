package docmeta_test

import (
	"path/filepath"
	"testing"

	"github.com/evalgate/evalgate/internal/docmeta"
	"github.com/evalgate/evalgate/internal/frontmatter"
	"github.com/evalgate/evalgate/internal/testfs"
)

// FuzzValidatePage parses arbitrary text as YAML frontmatter and validates
// it: no panic, every result well-formed and positioned inside the text,
// every resolved eval valid. Seeds: the frontmatter of every testdata page.
func FuzzValidatePage(f *testing.F) {
	for _, file := range testfs.Files(f, filepath.Join("testdata", "*", "*.md")) {
		if d := frontmatter.Split(file.Text); d.Format == frontmatter.FormatYAML {
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
