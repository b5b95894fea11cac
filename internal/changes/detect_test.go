package changes

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// baseRepo builds a repository on branch work, forked from main at the
// returned commit, with a change of every kind: committed on work (modified,
// added with a space and non-ASCII letters, renamed, deleted, a submodule),
// staged, unstaged, an unstaged deletion, untracked and ignored files; main
// moved on after the fork.
func baseRepo(t *testing.T) (r *repo, fork string) {
	r = newRepo(t)
	r.write(".gitignore", "*.log\n")
	for _, f := range []string{"a", "b", "d", "keep", "staged", "unstaged", "gone"} {
		r.write("docs/"+f+".md", "# "+f+"\n\nsome text that stays the same\n")
	}
	fork = r.commit("fork point")
	r.git("checkout", "-q", "-b", "work")
	r.write("docs/a.md", "# a\n\nedited\n")
	r.write("docs/a page ü.md", "# ü\n")
	r.git("mv", "docs/b.md", "docs/c.md")
	r.git("rm", "-q", "docs/d.md")
	// A submodule entry (gitlink) without a submodule behind it.
	r.git("update-index", "--add", "--cacheinfo", "160000,"+fork+",sub")
	r.commit("work")
	r.git("checkout", "-q", "main")
	r.write("docs/main-only.md", "# main\n")
	r.commit("main moves on")
	r.git("checkout", "-q", "work")
	r.write("docs/staged.md", "# staged\n")
	r.git("add", "docs/staged.md")
	r.write("docs/unstaged.md", "# unstaged\n")
	r.remove("docs/gone.md")
	r.write("notes/new file ü.md", "# new\n")
	r.write("debug.log", "ignored\n")
	return r, fork
}

func TestDetectBase(t *testing.T) {
	r, fork := baseRepo(t)
	want := &Changes{
		BaseSHA: fork,
		Changed: []string{"docs/a page ü.md", "docs/a.md", "docs/c.md", "docs/staged.md",
			"docs/unstaged.md", "notes/new file ü.md"},
		Deleted: []string{"docs/b.md", "docs/d.md", "docs/gone.md"},
	}
	for _, base := range []string{"main", fork, fork[:10], "main~0"} {
		t.Run(base, func(t *testing.T) {
			got, err := Detect(context.Background(), Request{Root: r.dir, Base: base})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Detect(--base %s) mismatch (-want +got):\n%s", base, diff)
			}
		})
	}
}

func TestDetectBaseClean(t *testing.T) {
	r := newRepo(t)
	r.write("a.md", "a\n")
	head := r.commit("one")
	got, err := Detect(context.Background(), Request{Root: r.dir, Base: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&Changes{BaseSHA: head}, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestDetectBaseUsageErrors(t *testing.T) {
	r, _ := baseRepo(t)
	for _, tc := range []struct {
		base string
		want string // a substring of the message
	}{
		{"-x", "may not start with '-'"},
		{"--output=/tmp/x", "may not start with '-'"},
		{"no-such-branch", "not a commit"},
		// A name that is no branch here is told the branches there are (a fresh repository's is master).
		{"trunk", `"trunk": not a commit in this repository (branches here: main, work; in a shallow`},
		{"HEAD^{tree}", "not a commit"},
		{"0000000000000000000000000000000000000000", "not a commit"},
	} {
		t.Run(tc.base, func(t *testing.T) {
			_, err := Detect(context.Background(), Request{Root: r.dir, Base: tc.base})
			var ue *UsageError
			if !errors.As(err, &ue) {
				t.Fatalf("Detect(--base %s) = %v, want a UsageError", tc.base, err)
			}
			if !strings.Contains(ue.Msg, tc.want) {
				t.Errorf("message %q does not contain %q", ue.Msg, tc.want)
			}
		})
	}
}

func TestDetectNoMergeBase(t *testing.T) {
	r := newRepo(t)
	r.write("a.md", "a\n")
	r.commit("one")
	r.git("checkout", "-q", "--orphan", "other")
	r.write("b.md", "b\n")
	r.commit("unrelated")
	_, err := Detect(context.Background(), Request{Root: r.dir, Base: "main"})
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "no merge base") {
		t.Fatalf("Detect = %v, want a UsageError about the merge base", err)
	}
}

// TestDetectBaseHistoryMissing: a partial clone whose remote is gone cannot read the blobs of the
// change: a usage error that says to fetch the history (exit 2), not an internal error.
func TestDetectBaseHistoryMissing(t *testing.T) {
	src := newRepo(t)
	src.write("a.md", strings.Repeat("line\n", 20))
	src.commit("one")
	src.git("checkout", "-q", "-b", "feat")
	src.git("mv", "a.md", "b.md")
	src.write("b.md", strings.Repeat("line\n", 20)+"more\n")
	src.commit("moved")
	src.git("checkout", "-q", "main")
	src.git("config", "uploadpack.allowfilter", "true")
	src.git("config", "uploadpack.allowanysha1inwant", "true")
	clone := t.TempDir()
	runGit(t, clone, "clone", "-q", "--filter=blob:none", "-b", "feat", "file://"+src.dir, ".")
	runGit(t, clone, "fetch", "-q", "origin", "main:main")
	runGit(t, clone, "config", "remote.origin.url", "file://"+filepath.Join(t.TempDir(), "gone"))
	_, err := Detect(context.Background(), Request{Root: clone, Base: "main"})
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "cannot be read in this clone") || !strings.Contains(ue.Msg, "fetch-depth: 0") {
		t.Fatalf("Detect = %v, want a UsageError to fetch the history", err)
	}
}

func TestDetectGitMissing(t *testing.T) {
	r, _ := baseRepo(t)
	t.Setenv("PATH", t.TempDir())
	_, err := Detect(context.Background(), Request{Root: r.dir, Base: "main"})
	want := &UsageError{Msg: "git is needed for --base but is not installed"}
	if diff := cmp.Diff(want, err); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// prOrigin builds the repository a pull request lives in: feature forks from
// main at fork and ends at head; main moves on to baseTip; pr-merge is the
// test merge commit GitHub makes (refs/pull/N/merge), with parents baseTip
// and head.
func prOrigin(t *testing.T) (r *repo, fork, head, baseTip string) {
	r = newRepo(t)
	for _, f := range []string{"a", "b", "d", "other"} {
		r.write("docs/"+f+".md", "# "+f+"\n\nsome text that stays the same\n")
	}
	fork = r.commit("fork point")
	r.git("checkout", "-q", "-b", "feature")
	r.write("docs/a.md", "# a\n\nedited\n")
	r.git("mv", "docs/b.md", "docs/c.md")
	r.commit("feature 1")
	r.write("docs/a page ü.md", "# ü\n")
	r.git("rm", "-q", "docs/d.md")
	head = r.commit("feature 2")
	r.git("checkout", "-q", "main")
	r.write("docs/other.md", "# other\n\nchanged on main\n")
	baseTip = r.commit("main moves on")
	r.git("checkout", "-q", "-b", "pr-merge")
	r.git("merge", "-q", "--no-ff", "-m", "Merge feature into main", "feature")
	r.git("checkout", "-q", "main")
	return r, fork, head, baseTip
}

func TestDetectPullRequest(t *testing.T) {
	origin, fork, head, baseTip := prOrigin(t)
	prChanged := []string{"docs/a page ü.md", "docs/a.md", "docs/c.md"}
	prDeleted := []string{"docs/b.md", "docs/d.md"}
	for _, tc := range []struct {
		name   string
		clone  func(t *testing.T) *repo
		event  string
		want   *Changes // nil when wantNotice is checked instead
		notice []string // substrings the Notice must hold, with All set
	}{
		{
			name:  "merge commit at depth 2",
			clone: func(t *testing.T) *repo { return origin.clone("--depth", "2", "--branch", "pr-merge") },
			event: "pull_request",
			want:  &Changes{BaseSHA: baseTip, Changed: prChanged, Deleted: prDeleted},
		},
		{
			name:  "review on the merge commit",
			clone: func(t *testing.T) *repo { return origin.clone("--depth", "2", "--branch", "pr-merge") },
			event: "pull_request_review",
			want:  &Changes{BaseSHA: baseTip, Changed: prChanged, Deleted: prDeleted},
		},
		{
			name:  "head commit, full history: three dots",
			clone: func(t *testing.T) *repo { return origin.clone("--branch", "feature") },
			event: "pull_request",
			want:  &Changes{BaseSHA: fork, Changed: prChanged, Deleted: prDeleted},
		},
		{
			name:   "merge commit at depth 1",
			clone:  func(t *testing.T) *repo { return origin.clone("--depth", "1", "--branch", "pr-merge") },
			event:  "pull_request",
			notice: []string{"evalgate: ", "commit " + baseTip[:7] + " is not in the clone", "fetch-depth: 2"},
		},
		{
			name:   "head commit at depth 1, base missing",
			clone:  func(t *testing.T) *repo { return origin.clone("--depth", "1", "--branch", "feature") },
			event:  "pull_request",
			notice: []string{"commit " + baseTip[:7], "not in the clone", "fetch-depth: 0"},
		},
		{
			name: "head commit at depth 1, base fetched at depth 1: no merge base",
			clone: func(t *testing.T) *repo {
				c := origin.clone("--depth", "1", "--branch", "feature")
				c.git("fetch", "-q", "--depth", "1", "origin", "main")
				return c
			},
			event:  "pull_request",
			notice: []string{"no merge base of commit " + baseTip[:7], "HEAD " + head[:7], "fetch-depth: 0"},
		},
		{
			name:   "pull_request_target on the base branch",
			clone:  func(t *testing.T) *repo { return origin.clone("--branch", "main") },
			event:  "pull_request_target",
			notice: []string{"HEAD " + baseTip[:7], head[:7], "pull_request_target", "fetch-depth"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.clone(t)
			req := Request{Root: c.dir, InActions: true, Event: prEvent(t, tc.event, head, baseTip)}
			got, err := Detect(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want != nil {
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("mismatch (-want +got):\n%s", diff)
				}
				return
			}
			if !got.All || got.Changed != nil || got.Deleted != nil || got.BaseSHA != "" {
				t.Errorf("got %+v, want All and nothing else", got)
			}
			t.Logf("Notice: %s", got.Notice)
			if strings.Contains(got.Notice, "\n") {
				t.Errorf("Notice %q is not one line", got.Notice)
			}
			for _, s := range tc.notice {
				if !strings.Contains(got.Notice, s) {
					t.Errorf("Notice %q does not contain %q", got.Notice, s)
				}
			}
		})
	}
}

func TestDetectPullRequestMalformedSHA(t *testing.T) {
	origin, _, head, baseTip := prOrigin(t)
	for _, tc := range []struct{ name, head, base string }{
		{"short head", head[:12], baseTip},
		{"uppercase head", strings.ToUpper(head), baseTip},
		{"option-like base", head, "--output=x"},
		{"empty base", head, ""},
		{"41 digits", head + "0", baseTip},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := Request{Root: origin.dir, InActions: true, Event: prEvent(t, "pull_request", tc.head, tc.base)}
			_, err := Detect(context.Background(), req)
			var ue *UsageError
			if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "is not a commit SHA") {
				t.Fatalf("Detect = %v, want a UsageError about the SHA", err)
			}
		})
	}
}

func TestDetectEverything(t *testing.T) {
	origin, _, head, baseTip := prOrigin(t)
	pr := prEvent(t, "pull_request", head, baseTip)
	for _, tc := range []struct {
		name string
		req  Request
		want *Changes
	}{
		{"push", Request{Root: origin.dir, InActions: true, Event: &Event{Name: "push"}}, &Changes{All: true}},
		{"schedule", Request{Root: origin.dir, InActions: true, Event: &Event{Name: "schedule"}}, &Changes{All: true}},
		{"push payload with a pull_request", Request{Root: origin.dir, InActions: true,
			Event: &Event{Name: "push", PullRequest: pr.PullRequest}}, &Changes{All: true}},
		{"local run", Request{Root: origin.dir}, &Changes{All: true}},
		{"pull request event outside Actions", Request{Root: origin.dir, Event: pr}, &Changes{All: true}},
		{"pull request without a payload", Request{Root: origin.dir, InActions: true,
			Event: &Event{Name: "pull_request"}},
			&Changes{All: true, Notice: "evalgate: cannot diff the pull request: the pull_request event payload has no pull_request object; checking everything"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Detect(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDetectBaseWinsInPullRequest: --base is an explicit request, whatever
// the event.
func TestDetectBaseWinsInPullRequest(t *testing.T) {
	origin, fork, head, baseTip := prOrigin(t)
	origin.git("checkout", "-q", "feature")
	req := Request{Root: origin.dir, Base: fork, InActions: true, Event: prEvent(t, "pull_request", head, baseTip)}
	got, err := Detect(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want := &Changes{BaseSHA: fork, Changed: []string{"docs/a page ü.md", "docs/a.md", "docs/c.md"},
		Deleted: []string{"docs/b.md", "docs/d.md"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestParseRaw(t *testing.T) {
	out := ":100644 100644 aaa bbb M\x00docs/a.md\x00" +
		":100644 100644 ccc ccc R100\x00old:name.md\x00:new.md\x00" +
		":000000 160000 000 ddd A\x00sub\x00"
	got, err := parseRaw([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []diffEntry{
		{status: 'M', oldMode: "100644", newMode: "100644", src: "docs/a.md", dst: "docs/a.md"},
		{status: 'R', oldMode: "100644", newMode: "100644", src: "old:name.md", dst: ":new.md"},
		{status: 'A', oldMode: "000000", newMode: gitlink, src: "sub", dst: "sub"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(diffEntry{})); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"M\x00a\x00", ":100644 100644 a b R100\x00only-one\x00"} {
		if _, err := parseRaw([]byte(bad)); err == nil {
			t.Errorf("parseRaw(%q) succeeded", bad)
		}
	}
}
