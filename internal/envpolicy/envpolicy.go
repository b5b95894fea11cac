// Package envpolicy says which environment variables are credentials and which never reach a child process
// (README "Security model"): names only, no values, and how long a value must be to be masked. The config
// validates commands.pass-env with it, package grader scrubs children's environments with it, and package
// proc withholds those variables from evalgate's own environment block at start. It imports nothing of
// evalgate's.
package envpolicy

import (
	"slices"
	"strings"
)

// MinMasked is the shortest secret value masked as *** in text (a command's output, a judge's error, a
// report): a shorter one ("1", "true", "e") would mask parts of ordinary words and protects nothing.
const MinMasked = 4

// credentialWords are the name fragments (upper case) that make a variable a credential (README
// "Security model"); they match in any case.
var credentialWords = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "KEY", "AUTH", "CREDENTIAL", "PRIVATE", "COOKIE"}

// runnerFiles are the GitHub runner's command files; a child that could write them could set outputs,
// environment variables and PATH for later steps.
var runnerFiles = []string{"GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_STATE"}

// NeverPassed reports whether the variable name is never passed to a command, even when commands.pass-env
// lists it: GITHUB_TOKEN, ACTIONS_*, INPUT_* and the runner files GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH,
// GITHUB_STEP_SUMMARY, GITHUB_STATE. Names are compared in any case (Windows names are case-insensitive).
// Naming such a variable in commands.pass-env is a config error; the config package reports it.
func NeverPassed(name string) bool {
	up := strings.ToUpper(name)
	if up == "GITHUB_TOKEN" || strings.HasPrefix(up, "ACTIONS_") || strings.HasPrefix(up, "INPUT_") {
		return true
	}
	return slices.Contains(runnerFiles, up)
}

// Credential reports whether name contains, in any case, one of the credential words.
func Credential(name string) bool {
	up := strings.ToUpper(name)
	for _, w := range credentialWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}

// Name returns the name of a "K=V" entry: the text before the first '=' after the first byte (Windows
// keeps per-drive directories in entries such as "=C:=C:\dir"). An entry without '=' is all name.
func Name(kv string) string {
	if i := strings.IndexByte(kv[min(1, len(kv)):], '='); i >= 0 {
		return kv[:i+min(1, len(kv))]
	}
	return kv
}

// GitConfigUnit reports whether name belongs to the GIT_CONFIG unit: GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n,
// GIT_CONFIG_VALUE_n (n decimal digits) and GIT_CONFIG_PARAMETERS, compared in any case. git reads them
// together (COUNT numbers the KEY/VALUE pairs; a KEY without its VALUE, or the reverse, is a fatal error
// in every git command), so they are removed and re-admitted together.
func GitConfigUnit(name string) bool {
	up := strings.ToUpper(name)
	if up == "GIT_CONFIG_COUNT" || up == "GIT_CONFIG_PARAMETERS" {
		return true
	}
	n, ok := strings.CutPrefix(up, "GIT_CONFIG_KEY_")
	if !ok {
		n, ok = strings.CutPrefix(up, "GIT_CONFIG_VALUE_")
	}
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}

// Withheld reports whether evalgate keeps the variable out of its own environment block at start (README
// "Security model"): every variable grader.ScrubEnv removes unless commands.pass-env names it, that is the
// never-passed ones, the credential-named ones and the GIT_CONFIG unit. Their values stay in the process's
// memory only, where pass-env can still re-admit them.
func Withheld(name string) bool {
	return NeverPassed(name) || Credential(name) || GitConfigUnit(name)
}
