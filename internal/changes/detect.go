package changes

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
)

// Request says what the run was asked to check.
type Request struct {
	Root      string // absolute repository root (holds .git)
	Base      string // --base REF as given; "" when not given
	InActions bool   // GITHUB_ACTIONS=true
	Event     *Event // the GitHub event (name + payload); nil outside Actions
}

// Changes is what a changed-files run checks.
type Changes struct {
	// All is true when the run checks everything (scope all).
	All bool
	// Notice says, in one line starting "evalgate: ", why everything is
	// checked when the change could not be computed: it names the commit and
	// the fix. It is "" otherwise, including for events that always check
	// everything.
	Notice string
	// BaseSHA is the commit the diff starts from (the merge base for --base
	// and three-dot pull requests, HEAD^1 for a merge commit); "" when All.
	BaseSHA string
	// Changed lists the files that exist in the working tree and changed:
	// added, modified, copied, renamed-to, type-changed and, for --base,
	// staged, unstaged and untracked files. Repository-relative with '/',
	// sorted bytewise, unique.
	Changed []string
	// Deleted lists the paths deleted or renamed away (and changed paths
	// that no longer exist): changes for dependents, never checked.
	// Repository-relative with '/', sorted bytewise, unique, disjoint from
	// Changed.
	Deleted []string
}

// UsageError is a request that is wrong in itself (exit 2): a --base REF that
// starts with '-' or names no commit, a malformed SHA in the event payload,
// or git missing when it is needed.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// prEvents are the events whose payload carries the pull request that
// triggered them (README "Which files are checked").
var prEvents = map[string]bool{
	"pull_request":                true,
	"pull_request_target":         true,
	"pull_request_review":         true,
	"pull_request_review_comment": true,
}

// shaPattern is a full SHA-1 (40) or SHA-256 (64) object name, lowercase as
// GitHub writes it (README "Which files are checked").
var shaPattern = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// Detect works out what the request checks: with req.Base, what changed since
// the merge base of Base and HEAD plus uncommitted and untracked files; in a
// GitHub pull request event, what the pull request changed; otherwise
// everything. It never checks less than the change: when the pull request's
// change cannot be computed from the clone, it returns All with a Notice.
//
// Errors are *UsageError for a wrong request, the context's error, or an
// internal failure of git.
func Detect(ctx context.Context, req Request) (*Changes, error) {
	switch {
	case req.Base != "":
		return detectBase(ctx, req)
	case req.InActions && req.Event != nil && prEvents[req.Event.Name]:
		return detectPullRequest(ctx, req)
	default:
		// Every other event, and local runs without --base: a code-scanning
		// upload replaces the previous one's alerts, so it must be whole.
		return &Changes{All: true}, nil
	}
}

// detectBase handles --base REF.
func detectBase(ctx context.Context, req Request) (*Changes, error) {
	if strings.HasPrefix(req.Base, "-") {
		// It would be read as an option by git.
		return nil, &UsageError{Msg: fmt.Sprintf("--base %q: a REF may not start with '-'", req.Base)}
	}
	g, err := newGit(req.Root, "git is needed for --base but is not installed")
	if err != nil {
		return nil, err
	}
	sha, err := g.resolveCommit(ctx, req.Base)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		msg := fmt.Sprintf("--base %q: not a commit in this repository", req.Base)
		var ge *gitError
		if errors.As(err, &ge) && ge.stderr != "" {
			// Say why: a tree, say, or a repository git refuses to read.
			msg += " (" + err.Error() + ")"
		} else {
			msg += " (" + g.missingHint(ctx) + ")"
		}
		return nil, &UsageError{Msg: msg}
	}
	// From here on only the resolved SHA reaches git.
	mb, err := g.mergeBase(ctx, sha, "HEAD")
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		why := "fetch the history, e.g. fetch-depth: 0"
		var ge *gitError
		if errors.As(err, &ge) && ge.stderr != "" {
			why = err.Error() // an unborn HEAD, say
		}
		return nil, &UsageError{Msg: fmt.Sprintf("--base %q: commit %s has no merge base with HEAD in this clone (%s)", req.Base, short(sha), why)}
	}
	// Against the working tree, the diff covers committed, staged and
	// unstaged changes; untracked files come from ls-files.
	entries, err := g.diff(ctx, mb, "")
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// Trees or blobs the clone does not hold (a partial clone whose remote is gone): the change
		// asked for cannot be computed here, as without a merge base.
		return nil, &UsageError{Msg: fmt.Sprintf("--base %q: the change since %s cannot be read in this clone (%v; fetch the history, e.g. fetch-depth: 0)", req.Base, short(mb), err)}
	}
	untracked, err := g.untracked(ctx)
	if err != nil {
		return nil, err
	}
	var s pathSets
	s.addDiff(entries)
	s.changed = append(s.changed, untracked...)
	return s.result(ctx, g, mb)
}

// detectPullRequest handles the pull request events, from the payload's
// SHAs and the checked-out HEAD (README "Which files are checked").
func detectPullRequest(ctx context.Context, req Request) (*Changes, error) {
	pr := req.Event.PullRequest
	if pr == nil {
		return notice("the %s event payload has no pull_request object; checking everything", req.Event.Name), nil
	}
	for _, s := range []struct{ name, sha string }{
		{"pull_request.head.sha", pr.HeadSHA},
		{"pull_request.base.sha", pr.BaseSHA},
	} {
		if !shaPattern.MatchString(s.sha) {
			return nil, &UsageError{Msg: fmt.Sprintf("event payload: %s %q is not a commit SHA (40 or 64 lowercase hex digits)", s.name, s.sha)}
		}
	}
	g, err := newGit(req.Root, "git is needed to find what the pull request changed but is not installed")
	if err != nil {
		return nil, err
	}
	head, err := g.resolveCommit(ctx, "HEAD")
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return notice("cannot resolve HEAD (%v); checking everything", err), nil
	}
	parents, err := g.parents(ctx, head)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return notice("cannot read HEAD %s (%v); checking everything", short(head), err), nil
	}
	var base string
	switch {
	case len(parents) == 2 && parents[1] == pr.HeadSHA:
		// actions/checkout's default for pull_request: the test merge commit
		// refs/pull/N/merge, whose first parent is the base branch's tip.
		// HEAD^1..HEAD is the pull request's change; depth 2 holds HEAD^1.
		base = parents[0]
		ok, err := g.hasCommit(ctx, base)
		if err != nil {
			return nil, err
		}
		if !ok {
			return notice("commit %s is not in the clone; checking everything (use actions/checkout with fetch-depth: 2, or 0)", short(base)), nil
		}
	case head == pr.HeadSHA:
		// The pull request's head itself: base.sha...HEAD, from the merge base.
		ok, err := g.hasCommit(ctx, pr.BaseSHA)
		if err != nil {
			return nil, err
		}
		if !ok {
			return notice("commit %s (pull_request.base.sha) is not in the clone; checking everything (use actions/checkout with fetch-depth: 0)", short(pr.BaseSHA)), nil
		}
		base, err = g.mergeBase(ctx, pr.BaseSHA, head)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return notice("no merge base of commit %s (pull_request.base.sha) and HEAD %s in the clone; checking everything (use actions/checkout with fetch-depth: 0)", short(pr.BaseSHA), short(head)), nil
		}
	default:
		fix := "check out the pull request's merge commit, as actions/checkout does by default on pull_request, with fetch-depth: 2"
		if req.Event.Name == "pull_request_target" {
			// Its GITHUB_SHA, which actions/checkout checks out, is the
			// base branch's tip.
			fix = "pull_request_target checks out the base branch; run on pull_request, or check out the pull request's merge commit with fetch-depth: 2"
		}
		return notice("HEAD %s is neither the pull request's head commit %s nor a merge commit of it; checking everything (%s)", short(head), short(pr.HeadSHA), fix), nil
	}
	entries, err := g.diff(ctx, base, head)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// Missing trees or blobs: history the clone does not hold.
		return notice("%v; checking everything (use actions/checkout with fetch-depth: 0)", err), nil
	}
	var s pathSets
	s.addDiff(entries)
	return s.result(ctx, g, base)
}

// notice is the fallback when a pull request's change cannot be computed:
// check everything, and say why.
func notice(format string, args ...any) *Changes {
	return &Changes{All: true, Notice: "evalgate: cannot diff the pull request: " + fmt.Sprintf(format, args...)}
}

// short abbreviates a SHA for messages.
func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// pathSets collects the paths of a change before they are checked against
// the working tree.
type pathSets struct {
	changed []string
	deleted []string
}

// addDiff sorts diff entries into changed and deleted paths: a rename is a
// deletion of the old path and a change of the new one; submodules
// (gitlinks) are not files and are left out.
func (s *pathSets) addDiff(entries []diffEntry) {
	for _, e := range entries {
		switch e.status {
		case 'D':
			if e.oldMode != gitlink {
				s.deleted = append(s.deleted, e.src)
			}
		case 'R':
			if e.oldMode != gitlink {
				s.deleted = append(s.deleted, e.src)
			}
			if e.newMode != gitlink {
				s.changed = append(s.changed, e.dst)
			}
		default: // A, C, M, T, U (unmerged), X
			switch {
			case e.newMode != gitlink:
				s.changed = append(s.changed, e.dst)
			case e.status == 'T' && e.oldMode != gitlink:
				// A file replaced by a submodule: the file is gone.
				s.deleted = append(s.deleted, e.dst)
			}
		}
	}
}

// result builds the Changes: a changed path missing from the working tree
// (one lstat each, never a walk) becomes a deletion, unless a sparse checkout
// left it out (it is changed, and checked: never less), and a path both deleted
// and changed (deleted, then created again) counts as changed.
func (s *pathSets) result(ctx context.Context, g *git, base string) (*Changes, error) {
	c := &Changes{BaseSHA: base}
	deleted := s.deleted
	var missing []string
	for _, p := range s.changed {
		if exists(g.root, p) {
			c.Changed = append(c.Changed, p)
		} else {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		sparse, err := g.sparse(ctx, missing)
		if err != nil {
			return nil, err
		}
		left := make(map[string]bool, len(sparse))
		for _, p := range sparse {
			left[p] = true
		}
		for _, p := range missing {
			if left[p] {
				c.Changed = append(c.Changed, p)
			} else {
				deleted = append(deleted, p)
			}
		}
	}
	slices.Sort(c.Changed)
	c.Changed = slices.Compact(c.Changed)
	for _, p := range deleted {
		if _, found := slices.BinarySearch(c.Changed, p); !found {
			c.Deleted = append(c.Deleted, p)
		}
	}
	slices.Sort(c.Deleted)
	c.Deleted = slices.Compact(c.Deleted)
	return c, nil
}

// exists reports whether the repository-relative path p is in the working
// tree. A symlink counts, whatever it points to; an entry that cannot be
// inspected for another reason (permissions) counts too, so the check
// reports it rather than losing it.
func exists(root, p string) bool {
	_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p)))
	return err == nil || !(errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR))
}
