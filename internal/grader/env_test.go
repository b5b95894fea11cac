package grader

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestNeverPassed(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"GITHUB_TOKEN", true},
		{"github_token", true},
		{"ACTIONS_RUNTIME_TOKEN", true},
		{"ACTIONS_ID_TOKEN_REQUEST_URL", true},
		{"ACTIONS_CACHE_URL", true},
		{"INPUT_PATHS", true},
		{"INPUT_", true},
		{"GITHUB_OUTPUT", true},
		{"GITHUB_ENV", true},
		{"GITHUB_PATH", true},
		{"GITHUB_STEP_SUMMARY", true},
		{"GITHUB_STATE", true},
		{"GITHUB_WORKSPACE", false},
		{"GITHUB_EVENT_NAME", false},
		{"GITHUB_OUTPUTS", false},
		{"MY_ACTIONS_X", false},
		{"ACTIONS", false},
		{"NPM_TOKEN", false}, // a credential, but pass-env may re-admit it
		{"PATH", false},
	}
	for _, tt := range tests {
		if got := NeverPassed(tt.name); got != tt.want {
			t.Errorf("NeverPassed(%q) = %v, want %v", tt.name, got, tt.want)
		}
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
	tests := []struct {
		name        string
		passEnv     []string
		wantKept    []string
		wantRemoved []string
	}{
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
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, removed := ScrubEnv(env, tt.passEnv)
			if !slices.Equal(kept, tt.wantKept) {
				t.Errorf("kept:\n got %q\nwant %q", kept, tt.wantKept)
			}
			if !slices.Equal(removed, tt.wantRemoved) {
				t.Errorf("removed:\n got %q\nwant %q", removed, tt.wantRemoved)
			}
		})
	}
	if kept, removed := ScrubEnv(nil, nil); kept == nil || len(kept) != 0 || removed != nil {
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
