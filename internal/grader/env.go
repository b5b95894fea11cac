package grader

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/evalgate/evalgate/internal/envpolicy"
)

// ScrubEnv returns the child's environment from env ("K=V" list, e.g. os.Environ()) and the values that were
// removed (for [Redact]).
//
// Removed: every [envpolicy.NeverPassed] variable, every variable whose name contains, in any case, TOKEN, SECRET,
// PASSWORD, PASSWD, KEY, AUTH, CREDENTIAL, PRIVATE or COOKIE unless passEnv (commands.pass-env) names it
// exactly (case-sensitive), and the whole GIT_CONFIG unit (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n,
// GIT_CONFIG_VALUE_n, GIT_CONFIG_PARAMETERS) unless passEnv names any member of it, which re-admits the
// whole unit. kept keeps env's order and entries unchanged; it is never nil, so an empty result given to
// [Command.Env] still means an empty environment. removed holds each non-empty removed value once, in env's
// order; of the GIT_CONFIG unit the values of GIT_CONFIG_VALUE_n and GIT_CONFIG_PARAMETERS are listed,
// GIT_CONFIG_PARAMETERS also value by value, and of the names in GIT_CONFIG_KEY_n and PARAMETERS only the
// user information of a URL in them (url.https://user:token@host/.insteadOf carries a credential).
// Removed too, whatever their names, unless passEnv names them: keys, the variables that hold a judge's key
// (api-key-env), which a config may name as it likes (OPENAI_SK).
func ScrubEnv(env, passEnv, keys []string) (kept []string, removed []string) {
	unitPassed := slices.ContainsFunc(passEnv, envpolicy.GitConfigUnit)
	kept = make([]string, 0, len(env))
	add := func(v string) {
		if v != "" && !slices.Contains(removed, v) {
			removed = append(removed, v)
		}
	}
	for _, kv := range env {
		name := envpolicy.Name(kv)
		unit := envpolicy.GitConfigUnit(name)
		var drop bool
		if unit {
			drop = !unitPassed
		} else {
			secret := envpolicy.Credential(name) || slices.Contains(keys, name)
			drop = envpolicy.NeverPassed(name) || (secret && !slices.Contains(passEnv, name))
		}
		if !drop {
			kept = append(kept, kv)
			continue
		}
		if len(name) == len(kv) {
			continue
		}
		v := kv[len(name)+1:]
		up := strings.ToUpper(name)
		switch {
		case !unit:
			add(v)
		case up == "GIT_CONFIG_PARAMETERS":
			add(v)
			for _, st := range envGitParameters(v) {
				if st.hasValue {
					add(st.value)
				}
			}
			for _, ui := range envURLUserinfo(v) {
				add(ui)
			}
		case strings.HasPrefix(up, "GIT_CONFIG_VALUE_"):
			add(v)
			for _, ui := range envURLUserinfo(v) {
				add(ui)
			}
		default: // GIT_CONFIG_KEY_n, GIT_CONFIG_COUNT
			for _, ui := range envURLUserinfo(v) {
				add(ui)
			}
		}
	}
	return kept, removed
}

// gitSetting is one setting of GIT_CONFIG_PARAMETERS: a key with its value, or a key alone.
type gitSetting struct {
	key, value string
	hasValue   bool
}

// envGitParameters reads a GIT_CONFIG_PARAMETERS string, which git writes as space-separated
// shell-quoted items, each 'key'='value' (or the older 'key=value'; a key alone has no value). A single
// quote or '!' inside a quoted word is written by closing the quotes, a backslash, the character, and
// opening them again. A malformed string yields the settings read before the fault.
func envGitParameters(s string) []gitSetting {
	var out []gitSetting
	for {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return out
		}
		key, rest, ok := envSingleQuoted(s)
		if !ok {
			return out
		}
		if after, isPair := strings.CutPrefix(rest, "="); isPair {
			value, rest2, ok := envSingleQuoted(after)
			if !ok {
				return out
			}
			out = append(out, gitSetting{key, value, true})
			s = rest2
			continue
		}
		k, v, found := strings.Cut(key, "=")
		out = append(out, gitSetting{k, v, found})
		s = rest
	}
}

// gitQuote single-quotes s as git does: a quote or '!' closes the quotes, is escaped, and opens them again.
func gitQuote(s string) string {
	return "'" + strings.NewReplacer("'", `'\''`, "!", `'\!'`).Replace(s) + "'"
}

// envSingleQuoted reads one shell single-quoted word at the start of s, joining quoted parts separated by
// git's escapes (a backslash and a single quote or '!'), and returns its text and what follows it.
func envSingleQuoted(s string) (word, rest string, ok bool) {
	if !strings.HasPrefix(s, "'") {
		return "", s, false
	}
	var b strings.Builder
	s = s[1:]
	for {
		end := strings.IndexByte(s, '\'')
		if end < 0 {
			return "", s, false
		}
		b.WriteString(s[:end])
		s = s[end+1:]
		if len(s) >= 3 && s[0] == '\\' && (s[1] == '\'' || s[1] == '!') && s[2] == '\'' {
			b.WriteByte(s[1])
			s = s[3:]
			continue
		}
		return b.String(), s, true
	}
}

// envURLUserinfo returns the user information of every URL in s ("user:token" in "https://user:token@host/")
// and the password part of it ("token").
func envURLUserinfo(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			return out
		}
		s = s[i+3:]
		auth := s
		if j := strings.IndexAny(auth, "/?#' "); j >= 0 {
			auth = auth[:j]
		}
		if at := strings.LastIndexByte(auth, '@'); at >= 0 {
			out = append(out, auth[:at])
			if _, pw, ok := strings.Cut(auth[:at], ":"); ok {
				out = append(out, pw)
			}
		}
	}
}

// GitEnv returns the environment for evalgate's own git commands from env (e.g. os.Environ()): only what
// git's local commands read (gitReads: PATH, HOME, the locale, TMPDIR, GIT_* and the like), none of the
// never-passed or credential-named variables. The rest is left out, whatever its name: a process of the
// same user can read a running git's /proc/PID/environ, and a judge's key may be in any variable
// (api-key-env: OPENAI_SK). Of the GIT_CONFIG unit only the
// settings local commands read are kept (gitLocalSetting: safe.directory, core.*), renumbered; an
// http.extraheader or a url.insteadOf there may carry the workflow's token. GIT_DIR, GIT_WORK_TREE and
// GIT_COMMON_DIR are left out too: evalgate's repository is the folder that holds .git, found without git
// (README "Which files are checked"), and its git commands run there; one of them pointing at another
// repository made git answer for that one, and a --base run checked nothing. The order of env is kept.
func GitEnv(env []string) []string {
	out := make([]string, 0, len(env))
	unit := map[string]string{}
	at := -1 // where the unit goes: where its first variable was
	for _, kv := range env {
		name := envpolicy.Name(kv)
		switch {
		case envpolicy.GitConfigUnit(name):
			_, v, _ := strings.Cut(kv[len(name):], "=") // an entry may lack '=' (a hostile parent's)
			unit[strings.ToUpper(name)] = v
			if at < 0 {
				at = len(out)
			}
		case gitReads(name) && !(envpolicy.NeverPassed(name) || envpolicy.Credential(name) || gitLocation(name)):
			out = append(out, kv)
		}
	}
	if at < 0 {
		return out
	}
	return slices.Insert(out, at, gitLocalUnit(unit)...)
}

// gitReads says whether git's local commands may read the variable name: the system's (PATH, HOME, the
// user, the locale, the time zone, the temporary folder, the terminal, the library path, Windows' own),
// sudo's (git's ownership check trusts SUDO_UID under root) and git's (GIT_*).
func gitReads(name string) bool {
	up := strings.ToUpper(name)
	switch up {
	case "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TERM", "XDG_CONFIG_HOME",
		"LD_LIBRARY_PATH", "SUDO_UID", "SUDO_GID", "SUDO_USER",
		"SYSTEMROOT", "WINDIR", "COMSPEC", "PATHEXT", "USERPROFILE", "TEMP", "TMP":
		return true
	}
	return strings.HasPrefix(up, "LC_") || strings.HasPrefix(up, "GIT_")
}

// gitLocation says whether the variable name tells git where a repository is, rather than letting it find
// the repository from its working directory.
func gitLocation(name string) bool {
	switch strings.ToUpper(name) {
	case "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR":
		return true
	}
	return false
}

// gitLocalSetting says whether a git setting passed in the environment reaches evalgate's own git commands.
func gitLocalSetting(key string) bool {
	key = strings.ToLower(key)
	return key == "safe.directory" || strings.HasPrefix(key, "core.")
}

// gitLocalUnit rebuilds the GIT_CONFIG unit (its variables by upper-case name) with only the local
// settings: GIT_CONFIG_COUNT with its keys and values renumbered from 0, and GIT_CONFIG_PARAMETERS.
func gitLocalUnit(unit map[string]string) []string {
	var out []string
	if params, ok := unit["GIT_CONFIG_PARAMETERS"]; ok {
		var kept []string
		for _, st := range envGitParameters(params) {
			switch {
			case !gitLocalSetting(st.key):
			case st.hasValue:
				kept = append(kept, gitQuote(st.key)+"="+gitQuote(st.value))
			default:
				kept = append(kept, gitQuote(st.key))
			}
		}
		if kept != nil {
			out = append(out, "GIT_CONFIG_PARAMETERS="+strings.Join(kept, " "))
		}
	}
	n, _ := strconv.Atoi(unit["GIT_CONFIG_COUNT"])
	var pairs []string
	for i := range min(n, 1000) {
		key, ok := unit["GIT_CONFIG_KEY_"+strconv.Itoa(i)]
		if !ok || !gitLocalSetting(key) {
			continue
		}
		j := strconv.Itoa(len(pairs) / 2)
		pairs = append(pairs, "GIT_CONFIG_KEY_"+j+"="+key, "GIT_CONFIG_VALUE_"+j+"="+unit["GIT_CONFIG_VALUE_"+strconv.Itoa(i)])
	}
	if pairs != nil {
		out = append(append(out, "GIT_CONFIG_COUNT="+strconv.Itoa(len(pairs)/2)), pairs...)
	}
	return out
}

// redactMask replaces each secret.
var redactMask = []byte("***")

// Redact returns b with every occurrence of every secret of 4 or more bytes replaced by "***". Scanning goes
// left to right and, where several secrets start at the same byte, the longest wins. When no secret occurs,
// b itself is returned (no copy); otherwise a new slice is, and b is not modified.
func Redact(b []byte, secrets []string) []byte {
	// Fast path: output rarely holds a secret, and bytes.Index is vectorised.
	var found [][]byte
	for _, s := range secrets {
		if len(s) >= envpolicy.MinMasked {
			if sb := []byte(s); bytes.Contains(b, sb) && !slices.ContainsFunc(found, func(f []byte) bool { return bytes.Equal(f, sb) }) {
				found = append(found, sb)
			}
		}
	}
	if len(found) == 0 {
		return b
	}
	// Longest first: at equal positions the first in this order wins, so a secret that extends another is
	// masked whole.
	slices.SortStableFunc(found, func(x, y []byte) int { return len(y) - len(x) })
	next := make([]int, len(found)) // next[k]: the first occurrence of found[k] at or after pos, or -1
	for k, s := range found {
		next[k] = bytes.Index(b, s)
	}
	out := make([]byte, 0, len(b))
	pos := 0
	for {
		best := -1
		for k, s := range found {
			if next[k] >= 0 && next[k] < pos { // overlapped by the previous match: look again
				if j := bytes.Index(b[pos:], s); j >= 0 {
					next[k] = pos + j
				} else {
					next[k] = -1
				}
			}
			if next[k] >= 0 && (best < 0 || next[k] < next[best]) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		out = append(out, b[pos:next[best]]...)
		out = append(out, redactMask...)
		pos = next[best] + len(found[best])
	}
	return append(out, b[pos:]...)
}
