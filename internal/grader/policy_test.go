package grader

import (
	"strings"
	"testing"
)

func TestTrustedEvent(t *testing.T) {
	trusted := []string{"push", "pull_request", "pull_request_review", "pull_request_review_comment",
		"merge_group", "schedule", "workflow_dispatch", "release"}
	privileged := []string{"pull_request_target", "workflow_run", "issue_comment", "issues", "discussion",
		"discussion_comment", "workflow_call", "repository_dispatch", "fork", "watch", "", "Push", "PUSH",
		"push ", "some_future_event"}
	for _, e := range trusted {
		if !TrustedEvent(e) {
			t.Errorf("TrustedEvent(%q) = false, want true", e)
		}
	}
	for _, e := range privileged {
		if TrustedEvent(e) {
			t.Errorf("TrustedEvent(%q) = true, want false", e)
		}
	}
}

func TestRefusal(t *testing.T) {
	const (
		ok         = ""
		privileged = "privileged event"
		untrusted  = "untrusted pull request"
		fmDeny     = "commands.frontmatter: deny"
		allow      = "commands.allow"
	)
	tests := []struct {
		name   string
		p      Policy
		argv0  string
		inPage bool
		want   string // the rule the reason starts with; "" = runs
	}{
		// Outside Actions everything runs, whatever the (absent) event.
		{"local, page", Policy{}, "codespell", true, ok},
		{"local, config", Policy{}, "codespell", false, ok},
		{"local, event ignored", Policy{Event: "pull_request_target"}, "x", true, ok},

		// Trusted events.
		{"push, page", Policy{InActions: true, Event: "push"}, "x", true, ok},
		{"pull_request, page", Policy{InActions: true, Event: "pull_request"}, "x", true, ok},
		{"pull_request_review", Policy{InActions: true, Event: "pull_request_review"}, "x", true, ok},
		{"pull_request_review_comment", Policy{InActions: true, Event: "pull_request_review_comment"}, "x", true, ok},
		{"merge_group", Policy{InActions: true, Event: "merge_group"}, "x", false, ok},
		{"schedule", Policy{InActions: true, Event: "schedule"}, "x", false, ok},
		{"workflow_dispatch", Policy{InActions: true, Event: "workflow_dispatch"}, "x", true, ok},
		{"release", Policy{InActions: true, Event: "release"}, "x", true, ok},

		// Privileged events refuse page and config commands alike.
		{"pull_request_target, page", Policy{InActions: true, Event: "pull_request_target"}, "x", true, privileged},
		{"pull_request_target, config", Policy{InActions: true, Event: "pull_request_target"}, "x", false, privileged},
		{"workflow_run", Policy{InActions: true, Event: "workflow_run"}, "x", false, privileged},
		{"issue_comment", Policy{InActions: true, Event: "issue_comment"}, "x", false, privileged},
		{"issues", Policy{InActions: true, Event: "issues"}, "x", false, privileged},
		{"discussion", Policy{InActions: true, Event: "discussion"}, "x", false, privileged},
		{"discussion_comment", Policy{InActions: true, Event: "discussion_comment"}, "x", false, privileged},
		{"unknown event", Policy{InActions: true, Event: "brand_new_event"}, "x", false, privileged},
		{"event unset in Actions", Policy{InActions: true}, "x", false, privileged},
		{"privileged, allowed by flag", Policy{InActions: true, Event: "pull_request_target", AllowUntrusted: true}, "x", true, ok},
		{"privileged wins over allow-list", Policy{InActions: true, Event: "workflow_run", Allow: []string{"x"}}, "x", false, privileged},

		// Fork pull requests refuse page commands only.
		{"fork, page", Policy{InActions: true, Event: "pull_request", ForkPR: true}, "x", true, untrusted},
		{"fork, config", Policy{InActions: true, Event: "pull_request", ForkPR: true}, "x", false, ok},
		{"fork, page, allowed by flag", Policy{InActions: true, Event: "pull_request", ForkPR: true, AllowUntrusted: true}, "x", true, ok},
		{"fork on a privileged event", Policy{InActions: true, Event: "pull_request_target", ForkPR: true}, "x", true, privileged},

		// commands.frontmatter: deny refuses page commands, even with the flag.
		{"deny, page", Policy{FrontmatterDeny: true}, "x", true, fmDeny},
		{"deny, config", Policy{FrontmatterDeny: true}, "x", false, ok},
		{"deny, page, flag does not override", Policy{FrontmatterDeny: true, AllowUntrusted: true}, "x", true, fmDeny},
		{"deny, fork page", Policy{InActions: true, Event: "pull_request", ForkPR: true, FrontmatterDeny: true}, "x", true, untrusted},

		// commands.allow matches argv0 exactly.
		{"allow, listed", Policy{Allow: []string{"codespell", "vale"}}, "vale", true, ok},
		{"allow, listed, config", Policy{Allow: []string{"codespell"}}, "codespell", false, ok},
		{"allow, not listed", Policy{Allow: []string{"codespell"}}, "npx", false, allow},
		{"allow, path is not the bare name", Policy{Allow: []string{"codespell"}}, "/usr/bin/codespell", false, allow},
		{"allow, case differs", Policy{Allow: []string{"codespell"}}, "Codespell", false, allow},
		{"allow, empty list allows nothing", Policy{Allow: []string{}}, "codespell", false, allow},
		{"allow, flag does not override", Policy{Allow: []string{"a"}, AllowUntrusted: true}, "b", false, allow},
		{"allow and deny, page", Policy{Allow: []string{"x"}, FrontmatterDeny: true}, "x", true, fmDeny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.p.Refusal(tt.argv0, tt.inPage)
			switch {
			case tt.want == ok && got != "":
				t.Errorf("Refusal(%q, %v) = %q, want the command to run", tt.argv0, tt.inPage, got)
			case tt.want != ok && !strings.HasPrefix(got, tt.want):
				t.Errorf("Refusal(%q, %v) = %q, want a reason starting with %q", tt.argv0, tt.inPage, got, tt.want)
			}
		})
	}
}

func TestRefusalNamesTheEvent(t *testing.T) {
	got := Policy{InActions: true, Event: "issue_comment"}.Refusal("x", false)
	if !strings.Contains(got, `"issue_comment"`) || !strings.Contains(got, "--allow-untrusted-commands") {
		t.Errorf("reason %q does not name the event and the flag", got)
	}
	got = Policy{Allow: []string{"a"}}.Refusal("npx", false)
	if !strings.Contains(got, `"npx"`) {
		t.Errorf("reason %q does not name the command", got)
	}
}
