package grader

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// scrubCase is ScrubEnv of a test's environment with passEnv and keys.
type scrubCase struct {
	name        string
	passEnv     []string
	keys        []string
	wantKept    []string
	wantRemoved []string
}

func runScrubCases(t *testing.T, env []string, tests []scrubCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, removed := ScrubEnv(env, tt.passEnv, tt.keys)
			if !slices.Equal(kept, tt.wantKept) {
				t.Errorf("kept:\n got %q\nwant %q", kept, tt.wantKept)
			}
			if !slices.Equal(removed, tt.wantRemoved) {
				t.Errorf("removed:\n got %q\nwant %q", removed, tt.wantRemoved)
			}
		})
	}
}

func TestScrubEnv(t *testing.T) {
	env := []string{
		"PATH=/usr/bin:/bin",
		"HOME=/home/u",
		"LANG=C.UTF-8",
		"MY_API_KEY=key-value-1",
		"npm_token=npm-value-2",
		"DbPassword=pw-value-3",
		"MYSQL_PASSWD=pw-value-4",
		"AWS_SECRET_ACCESS_KEY=aws-value-5",
		"GOOGLE_APPLICATION_CREDENTIALS=/k.json",
		"SSH_AUTH_SOCK=/tmp/agent",
		"GPG_PRIVATE=gpg-value-6",
		"SESSION_COOKIE=ck-value-7",
		"GITHUB_TOKEN=ghs_value8",
		"ACTIONS_RUNTIME_TOKEN=rt-value-9",
		"INPUT_PATHS=docs/",
		"GITHUB_OUTPUT=/runner/output",
		"GITHUB_WORKSPACE=/ws",
		"EMPTY_TOKEN=",
		"SAME_KEY=key-value-1", // a repeated value is listed once
		"EQ=a=b",
		"=C:=C:\\dir",
	}
	tests := []scrubCase{
		{
			name: "defaults",
			wantKept: []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "LANG=C.UTF-8", "GITHUB_WORKSPACE=/ws",
				"EQ=a=b", "=C:=C:\\dir"},
			wantRemoved: []string{"key-value-1", "npm-value-2", "pw-value-3", "pw-value-4", "aws-value-5", "/k.json",
				"/tmp/agent", "gpg-value-6", "ck-value-7", "ghs_value8", "rt-value-9", "docs/", "/runner/output"},
		},
		{
			name:    "pass-env re-admits credentials, exactly, but never the never-passed",
			passEnv: []string{"MY_API_KEY", "npm_token", "dbpassword", "GITHUB_TOKEN", "INPUT_PATHS", "GITHUB_OUTPUT"},
			wantKept: []string{"PATH=/usr/bin:/bin", "HOME=/home/u", "LANG=C.UTF-8", "MY_API_KEY=key-value-1",
				"npm_token=npm-value-2", "GITHUB_WORKSPACE=/ws", "EQ=a=b", "=C:=C:\\dir"},
			wantRemoved: []string{"pw-value-3", "pw-value-4", "aws-value-5", "/k.json", "/tmp/agent", "gpg-value-6",
				"ck-value-7", "ghs_value8", "rt-value-9", "docs/", "/runner/output", "key-value-1"},
		},
	}
	runScrubCases(t, env, tests)
	// A judge's key variable is removed whatever its name says; pass-env re-admits it as it does a credential.
	judgeEnv := []string{"PATH=/usr/bin", "OPENAI_SK=sk-value-1", "MODEL=m"}
	runScrubCases(t, judgeEnv, []scrubCase{
		{name: "api-key-env", keys: []string{"OPENAI_SK"}, wantKept: []string{"PATH=/usr/bin", "MODEL=m"}, wantRemoved: []string{"sk-value-1"}},
		{name: "api-key-env in pass-env", keys: []string{"OPENAI_SK"}, passEnv: []string{"OPENAI_SK"}, wantKept: judgeEnv},
		{name: "no key named", wantKept: judgeEnv},
	})
	if kept, removed := ScrubEnv(nil, nil, nil); kept == nil || len(kept) != 0 || removed != nil {
		t.Errorf("ScrubEnv(nil) = %#v, %#v; want an empty non-nil kept (an empty environment) and nil removed", kept, removed)
	}
}

func TestRedact(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		secrets []string
		want    string
	}{
		{"no secrets", "hello", nil, "hello"},
		{"absent", "hello world", []string{"s3cr3t"}, "hello world"},
		{"one", "token=s3cr3t;", []string{"s3cr3t"}, "token=***;"},
		{"every occurrence", "s3cr3ts3cr3t x s3cr3t", []string{"s3cr3t"}, "****** x ***"},
		{"short values kept", "abc ab a", []string{"abc", "ab", "a", ""}, "abc ab a"},
		{"exactly four bytes", "pin 1234.", []string{"1234"}, "pin ***."},
		{"longest first", "key=abcd-efgh", []string{"abcd", "abcd-efgh"}, "key=***"},
		{"longest first, other order", "key=abcd-efgh abcd", []string{"abcd-efgh", "abcd"}, "key=*** ***"},
		{"overlapping, leftmost wins", "abcdef", []string{"cdef", "abcd"}, "***ef"},
		{"whole output", "s3cr3t", []string{"s3cr3t"}, "***"},
		{"multibyte", "ключ=пароль!", []string{"пароль"}, "ключ=***!"},
		{"duplicates", "xx s3cr3t", []string{"s3cr3t", "s3cr3t"}, "xx ***"},
		{"near miss", "s3cr3 s3cr3t", []string{"s3cr3t"}, "s3cr3 ***"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(tt.in)
			got := Redact(in, tt.secrets)
			if string(got) != tt.want {
				t.Errorf("Redact(%q, %q) = %q, want %q", tt.in, tt.secrets, got, tt.want)
			}
			if string(in) != tt.in {
				t.Errorf("Redact modified its input: %q", in)
			}
		})
	}
}

func BenchmarkRedact(b *testing.B) {
	out := bytes.Repeat([]byte("some ordinary grader output, line after line\n"), 1500) // ~ 64 KiB
	secrets := []string{"ghs_0123456789abcdef", "npm-0123456789", "hunter22", "/home/runner/.ssh/key"}
	withSecret := append(append([]byte{}, out...), "leaked hunter22\n"...)
	b.Run("absent", func(b *testing.B) {
		for b.Loop() {
			Redact(out, secrets)
		}
	})
	b.Run("present", func(b *testing.B) {
		for b.Loop() {
			if !strings.Contains(string(Redact(withSecret, secrets)), "leaked ***") {
				b.Fatal("not redacted")
			}
		}
	})
}

func TestScrubEnvGitConfigUnit(t *testing.T) {
	env := []string{
		"PATH=/usr/bin:/bin",
		"GIT_CONFIG_COUNT=2",
		"GIT_CONFIG_KEY_0=http.https://github.com/.extraheader",
		"GIT_CONFIG_VALUE_0=AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW4=",
		"GIT_CONFIG_KEY_1=safe.directory",
		"GIT_CONFIG_VALUE_1=/work",
		"GIT_CONFIG_PARAMETERS='url.https://x-access:tok-1234@github.com/.insteadOf'='https://github.com/' 'core.editor=it'\\''s'",
		"GIT_CONFIG_GLOBAL=/dev/null", // a file name, not part of the unit
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_VALUEX=x-value-1", // not a numbered member
		"GIT_AUTHOR_NAME=evalgate",    // AUTH: a credential name as before
	}
	params := "'url.https://x-access:tok-1234@github.com/.insteadOf'='https://github.com/' 'core.editor=it'\\''s'"
	unit := env[1:7]
	plain := []string{"PATH=/usr/bin:/bin", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_VALUEX=x-value-1"}
	tests := []scrubCase{
		{
			name:     "removed as one unit; VALUE_n and PARAMETERS values are redacted",
			wantKept: plain,
			wantRemoved: []string{"AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW4=", "/work", params,
				"https://github.com/", "it's", "x-access:tok-1234", "tok-1234", "evalgate"},
		},
		{
			name:        "naming GIT_CONFIG_COUNT re-admits the unit",
			passEnv:     []string{"GIT_CONFIG_COUNT"},
			wantKept:    append(append([]string{"PATH=/usr/bin:/bin"}, unit...), plain[1:]...),
			wantRemoved: []string{"evalgate"},
		},
		{
			name:        "naming any member re-admits the whole unit",
			passEnv:     []string{"GIT_CONFIG_VALUE_0"},
			wantKept:    append(append([]string{"PATH=/usr/bin:/bin"}, unit...), plain[1:]...),
			wantRemoved: []string{"evalgate"},
		},
		{
			name:        "and a KEY as well",
			passEnv:     []string{"GIT_CONFIG_KEY_1", "GIT_AUTHOR_NAME"},
			wantKept:    append(append(append([]string{"PATH=/usr/bin:/bin"}, unit...), plain[1:]...), "GIT_AUTHOR_NAME=evalgate"),
			wantRemoved: nil,
		},
	}
	runScrubCases(t, env, tests)
}

func TestEnvGitParameters(t *testing.T) {
	tests := []struct {
		in   string
		want []gitSetting
	}{
		{"", nil},
		{"'a.b'='v1'", []gitSetting{{"a.b", "v1", true}}},
		{"'a.b'='v1' 'c.d'='v 2'", []gitSetting{{"a.b", "v1", true}, {"c.d", "v 2", true}}},
		{"'a.b=old style'", []gitSetting{{"a.b", "old style", true}}},
		{"'a.b'", []gitSetting{{"a.b", "", false}}}, // a key alone: true
		{"'a.b'='it'\\''s' 'c.d'='bang'\\!''", []gitSetting{{"a.b", "it's", true}, {"c.d", "bang!", true}}},
		{"'a.b'='unterminated", nil},
		{"'a.b'='v1' junk", []gitSetting{{"a.b", "v1", true}}},
	}
	for _, tt := range tests {
		if got := envGitParameters(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("envGitParameters(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestEnvURLUserinfo(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"https://github.com/", nil},
		{"url.https://x-access-token:ghs_abc@github.com/.insteadOf", []string{"x-access-token:ghs_abc", "ghs_abc"}},
		{"https://tok@host/a https://u:p@h", []string{"tok", "u:p", "p"}},
		{"'url.https://a:b@h/.insteadof'='https://h/'", []string{"a:b", "b"}},
		{"no url here", nil},
	}
	for _, tt := range tests {
		if got := envURLUserinfo(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("envURLUserinfo(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestGitEnv(t *testing.T) {
	env := []string{
		"PATH=/usr/bin", "HOME=/home/u", "GITHUB_TOKEN=ghs_x", "NPM_TOKEN=n", "INPUT_X=1",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=*", "GIT_DIR=/r/.git",
		"SSH_AUTH_SOCK=/tmp/agent", "GIT_WORK_TREE=/r", "git_common_dir=/r/.git", "GIT_INDEX_FILE=/w/.git/index.lock",
		"OPENAI_SK=sk-live-1", "MODEL=m", "LC_ALL=C.UTF-8", "SUDO_UID=1000",
	}
	// GIT_DIR and its kind would make git answer for another repository than the one evalgate found; a
	// judge's key may be in a variable of any name (OPENAI_SK), and git reads none but its own.
	want := []string{"PATH=/usr/bin", "HOME=/home/u", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.directory",
		"GIT_CONFIG_VALUE_0=*", "GIT_INDEX_FILE=/w/.git/index.lock", "LC_ALL=C.UTF-8", "SUDO_UID=1000"}
	if got := GitEnv(env); !slices.Equal(got, want) {
		t.Errorf("GitEnv:\n got %q\nwant %q", got, want)
	}
}

// TestGitEnvDropsTokenSettings: of the GIT_CONFIG unit, evalgate's own git gets the local settings only,
// renumbered, in either form; a setting that may carry the workflow's token (an extraheader, a url with
// it) does not reach a process another grader could read.
func TestGitEnvDropsTokenSettings(t *testing.T) {
	env := []string{
		"PATH=/usr/bin",
		"GIT_CONFIG_COUNT=3",
		"GIT_CONFIG_KEY_0=http.https://github.com/.extraheader", "GIT_CONFIG_VALUE_0=AUTHORIZATION: basic eC10b2tlbg==",
		"GIT_CONFIG_KEY_1=safe.directory", "GIT_CONFIG_VALUE_1=*",
		"GIT_CONFIG_KEY_2=url.https://x-access-token:ghs_y@github.com/.insteadOf", "GIT_CONFIG_VALUE_2=https://github.com/",
		`GIT_CONFIG_PARAMETERS='http.extraheader'='AUTHORIZATION: bearer t' 'core.quotepath'='off' 'core.x=it'\''s'`,
		"HOME=/home/u",
	}
	want := []string{"PATH=/usr/bin",
		`GIT_CONFIG_PARAMETERS='core.quotepath'='off' 'core.x'='it'\''s'`,
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=*",
		"HOME=/home/u"}
	got := GitEnv(env)
	if !slices.Equal(got, want) {
		t.Errorf("GitEnv:\n got %q\nwant %q", got, want)
	}
	// An entry without '=', which a parent can put in an environment, is no value and no crash.
	if got := GitEnv([]string{"GIT_CONFIG_COUNT", "PATH=/bin"}); !slices.Equal(got, []string{"PATH=/bin"}) {
		t.Errorf("GitEnv of an entry without =: %q, want [PATH=/bin]", got)
	}
	for _, kv := range got {
		if strings.Contains(kv, "basic") || strings.Contains(kv, "ghs_y") || strings.Contains(kv, "bearer") {
			t.Errorf("a token setting reached git: %q", kv)
		}
	}
	// A real git reads what is kept.
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Fatal("git is needed:", err)
	}
	cmd := exec.Command(gitPath, "config", "--get-all", "core.x")
	cmd.Env = got
	out, err := cmd.Output()
	if err != nil || string(out) != "it's\n" {
		t.Errorf("git config core.x: %q, %v", out, err)
	}
}

// TestScrubEnvGitConfigChild runs a real git under the scrubbed environment: before the unit rule,
// GIT_CONFIG_KEY_0 was removed (KEY) while GIT_CONFIG_COUNT and GIT_CONFIG_VALUE_0 passed, so the credential
// in the value reached the child and every git in it died with "missing config key".
func TestScrubEnvGitConfigChild(t *testing.T) {
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git is required (.ci/run installs it): %v", err)
	}
	const secret = "AUTHORIZATION: basic c2VjcmV0LXZhbHVlLTQy"
	const paramSecret = "https://x-access:param-secret-77@example.invalid/"
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + t.TempDir(),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=http.extraheader",
		"GIT_CONFIG_VALUE_0=" + secret,
		"GIT_CONFIG_PARAMETERS='url." + paramSecret + ".insteadof'='https://example.invalid/'",
	}
	gitConfig := func(t *testing.T, passEnv []string, key string) (CommandResult, []string) {
		kept, removed := ScrubEnv(env, passEnv, nil)
		r := graderRun(t, context.Background(), Command{
			Argv: []string{gitPath, "config", "--get", key}, Dir: t.TempDir(), Env: kept, Timeout: time.Minute,
		})
		return r, removed
	}
	t.Run("removed", func(t *testing.T) {
		r, removed := gitConfig(t, nil, "http.extraheader")
		// Exit 1: the key is not set. 128 with "fatal: missing config key" was the half-removed unit.
		if !r.Exited || r.ExitCode != 1 || len(r.Stdout) != 0 || len(r.Stderr) != 0 {
			t.Errorf("git config --get: %s stdout=%q", graderDescribe(r), r.Stdout)
		}
		if !slices.Contains(removed, secret) || !slices.Contains(removed, "https://example.invalid/") {
			t.Errorf("removed values %q lack GIT_CONFIG_VALUE_0's and GIT_CONFIG_PARAMETERS' values", removed)
		}
		leak := []byte("header: " + secret + " param: " + paramSecret)
		if got := string(Redact(leak, removed)); strings.Contains(got, secret) || strings.Contains(got, "param-secret-77") {
			t.Errorf("Redact left the value: %q", got)
		}
	})
	t.Run("re-admitted", func(t *testing.T) {
		for _, pass := range []string{"GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_PARAMETERS"} {
			r, _ := gitConfig(t, []string{pass}, "http.extraheader")
			if !r.Exited || r.ExitCode != 0 || strings.TrimSpace(string(r.Stdout)) != secret {
				t.Errorf("pass-env %s: git config --get: %s stdout=%q", pass, graderDescribe(r), r.Stdout)
			}
			r, _ = gitConfig(t, []string{pass}, "url."+paramSecret+".insteadof")
			if !r.Exited || r.ExitCode != 0 || strings.TrimSpace(string(r.Stdout)) != "https://example.invalid/" {
				t.Errorf("pass-env %s: git config --get from GIT_CONFIG_PARAMETERS: %s stdout=%q", pass, graderDescribe(r), r.Stdout)
			}
		}
	})
}

// FuzzGitParameters: reading GIT_CONFIG_PARAMETERS never panics, and each setting it reads, quoted again as
// git quotes it, reads back the same.
func FuzzGitParameters(f *testing.F) {
	for _, s := range []string{"", "'a'='b'", "'a=b' 'c'='d'", `'core.x'='it'\''s'`, "'a", "'a'=", "x 'y'", `'\''`, `'a'='b'\!''`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, st := range envGitParameters(s) {
			quoted := gitQuote(st.key)
			if st.hasValue {
				quoted += "=" + gitQuote(st.value)
			}
			if again := envGitParameters(quoted); len(again) != 1 || again[0] != st {
				t.Fatalf("%q: %+v reads back as %+v", s, st, again)
			}
		}
	})
}
