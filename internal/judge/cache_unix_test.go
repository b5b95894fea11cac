//go:build unix

package judge

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestCachePutReplacesPlanted: an entry file that a pull request committed as a symlink (to a file outside
// the repository, or to .git/config) is replaced by the entry, and what it pointed at is left as it was; a
// FIFO there is replaced too, not opened and waited on.
func TestCachePutReplacesPlanted(t *testing.T) {
	v := Entry{Verdict: Verdict{Quotes: []string{}, Verdict: Pass}}
	key := Request{Run: 3}.Key()
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, entry, outside string) (victim string)
	}{
		{"symlink out", func(t *testing.T, entry, outside string) string {
			victim := filepath.Join(outside, "victim.sh")
			os.WriteFile(victim, []byte("echo hi\n"), 0o755)
			return victim
		}},
		{"symlink to .git/config", func(t *testing.T, entry, outside string) string {
			return filepath.Join(filepath.Dir(entry), "..", "..", "..", "..", ".git", "config")
		}},
		{"fifo", func(t *testing.T, entry, outside string) string {
			if err := syscall.Mkfifo(entry, 0o644); err != nil {
				t.Fatal(err)
			}
			return ""
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo, outside := t.TempDir(), t.TempDir()
			os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
			os.WriteFile(filepath.Join(repo, ".git", "config"), []byte("[core]\n"), 0o644)
			c := &Cache{Root: repo, Dir: filepath.Join(repo, ".evalgate", "cache")}
			defer c.Close()
			entry := filepath.Join(c.Dir, "judge", key[:2], key+".json")
			os.MkdirAll(filepath.Dir(entry), 0o755)
			victim := tc.plant(t, entry, outside)
			var before []byte
			if victim != "" {
				before, _ = os.ReadFile(victim)
				if err := os.Symlink(victim, entry); err != nil {
					t.Fatal(err)
				}
			}
			done := make(chan struct{})
			go func() { c.Put(key, v); close(done) }()
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatal("Put is waiting on what was planted at the entry's path")
			}
			if fi, err := os.Lstat(entry); err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("the entry is not a regular file after Put: %v", err)
			}
			if victim != "" {
				if after, _ := os.ReadFile(victim); string(after) != string(before) {
					t.Errorf("Put wrote through the symlink: %s is now %q", victim, after)
				}
			}
			c.Close()
			if got, ok := (&Cache{Root: repo, Dir: c.Dir}).Get(key); !ok || got.Verdict.Verdict != Pass {
				t.Errorf("the entry written in place of the planted file reads %+v, %v", got, ok)
			}
		})
	}
}
