package grader

import (
	"bytes"
	"slices"
	"strings"
)

// envCredentialWords are the name fragments (upper case) that make a variable a credential
// (PRODUCT.md section 8, "Environment"); they match in any case.
var envCredentialWords = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "KEY", "AUTH", "CREDENTIAL", "PRIVATE", "COOKIE"}

// envRunnerFiles are the GitHub runner's command files; a child that could write them could set outputs,
// environment variables and PATH for later steps.
var envRunnerFiles = []string{"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_STATE"}

// NeverPassed reports whether the variable name is never passed to a command, even when commands.pass-env
// lists it: GITHUB_TOKEN, ACTIONS_*, INPUT_* and the runner files GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH,
// GITHUB_STEP_SUMMARY, GITHUB_STATE. Names are compared in any case (Windows names are case-insensitive).
// Naming such a variable in commands.pass-env is a config error; the config package reports it.
func NeverPassed(name string) bool {
	up := strings.ToUpper(name)
	if up == "GITHUB_TOKEN" || strings.HasPrefix(up, "ACTIONS_") || strings.HasPrefix(up, "INPUT_") {
		return true
	}
	return slices.Contains(envRunnerFiles, up)
}

// envIsCredential reports whether name contains, in any case, one of the credential words.
func envIsCredential(name string) bool {
	up := strings.ToUpper(name)
	for _, w := range envCredentialWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}

// envName returns the name of a "K=V" entry: the text before the first '=' after the first byte (Windows
// keeps per-drive directories in entries such as "=C:=C:\dir"). An entry without '=' is all name.
func envName(kv string) string {
	if i := strings.IndexByte(kv[min(1, len(kv)):], '='); i >= 0 {
		return kv[:i+min(1, len(kv))]
	}
	return kv
}

// ScrubEnv returns the child's environment from env ("K=V" list, e.g. os.Environ()) and the values that were
// removed (for [Redact]).
//
// Removed: every [NeverPassed] variable, and every variable whose name contains, in any case, TOKEN, SECRET,
// PASSWORD, PASSWD, KEY, AUTH, CREDENTIAL, PRIVATE or COOKIE unless passEnv (commands.pass-env) names it
// exactly (case-sensitive). kept keeps env's order and entries unchanged; it is never nil, so an empty result
// given to [Command.Env] still means an empty environment. removed holds each non-empty removed value once, in
// env's order.
func ScrubEnv(env []string, passEnv []string) (kept []string, removed []string) {
	kept = make([]string, 0, len(env))
	for _, kv := range env {
		name := envName(kv)
		drop := NeverPassed(name) || (envIsCredential(name) && !slices.Contains(passEnv, name))
		if !drop {
			kept = append(kept, kv)
			continue
		}
		if len(name) < len(kv) {
			if v := kv[len(name)+1:]; v != "" && !slices.Contains(removed, v) {
				removed = append(removed, v)
			}
		}
	}
	return kept, removed
}

// redactMinLen is the shortest secret Redact replaces, in bytes: shorter values ("1", "true") would mask
// ordinary output.
const redactMinLen = 4

// redactMask replaces each secret.
var redactMask = []byte("***")

// Redact returns b with every occurrence of every secret of 4 or more bytes replaced by "***". Scanning goes
// left to right and, where several secrets start at the same byte, the longest wins. When no secret occurs,
// b itself is returned (no copy); otherwise a new slice is, and b is not modified.
func Redact(b []byte, secrets []string) []byte {
	// Fast path: output rarely holds a secret, and bytes.Index is vectorised.
	var found [][]byte
	for _, s := range secrets {
		if len(s) >= redactMinLen {
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
