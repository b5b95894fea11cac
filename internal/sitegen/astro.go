package sitegen

import "regexp"

// AstroConfigs are the names of an Astro site's config file, in the site folder.
var AstroConfigs = []string{"astro.config.mjs", "astro.config.js", "astro.config.ts", "astro.config.mts"}

// starlightDefaultLocale matches Starlight's defaultLocale option given as a string literal.
var starlightDefaultLocale = regexp.MustCompile(`\bdefaultLocale\s*:\s*['"]([a-z]{2,3}(?:-[A-Za-z]{2,4})?)['"]`)

// StarlightDefaultLocale is the defaultLocale the astro config of the Starlight site in dir (inside the
// repository repo) gives: the locale whose page an untranslated page's URL in another locale serves
// (Starlight's i18n guide, "Fallback content"). It is "" when the config gives none, gives "root" (the
// default locale's pages are at the site root), or cannot be read.
func StarlightDefaultLocale(repo, dir string) string {
	for _, name := range AstroConfigs {
		if b, ok := ReadConfig(repo, dir, name); ok {
			if m := starlightDefaultLocale.FindSubmatch(b); m != nil {
				return string(m[1])
			}
			return ""
		}
	}
	return ""
}
