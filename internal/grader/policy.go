package grader

import "fmt"

// Policy decides where command graders may run (README "Security model", "Where commands run"). The same policy
// covers commands written in page frontmatter, commands of evals defined in the config and tools integrations.
type Policy struct {
	Event           string   // GITHUB_EVENT_NAME when running in GitHub Actions (GITHUB_ACTIONS=true); "" outside Actions
	InActions       bool     // GITHUB_ACTIONS=true
	ForkPR          bool     // the pull request comes from a fork (head.repo.full_name differs from base.repo.full_name, or head.repo is null)
	AllowUntrusted  bool     // --allow-untrusted-commands; the config cannot set it, since a pull request can edit the config
	FrontmatterDeny bool     // commands.frontmatter: deny
	Allow           []string // commands.allow; nil = no allow-list, an empty non-nil list allows nothing
}

// TrustedEvent reports whether commands may run on the GitHub Actions event named event: push, pull_request,
// pull_request_review, pull_request_review_comment, merge_group, schedule, workflow_dispatch and release.
// Every other name, including "" and unknown ones, is privileged (pull_request_target, workflow_run,
// issue_comment, issues, discussion, discussion_comment, ...). Names are compared exactly.
func TrustedEvent(event string) bool {
	switch event {
	case "push", "pull_request", "pull_request_review", "pull_request_review_comment",
		"merge_group", "schedule", "workflow_dispatch", "release":
		return true
	}
	return false
}

// Refusal returns why a command must not run, or "" when it may. inPage: the command is written in page
// frontmatter (not the config; a page reaching a config eval through use: or a suite is not inPage). argv0 is
// the command's first element as written in the page or config, before placeholder substitution.
//
// Rules, checked in this order; each reason starts with the rule's name as users see it in README "Security model":
//   - "privileged event": in Actions, an event that is not [TrustedEvent] runs nothing unless AllowUntrusted.
//   - "untrusted pull request": a fork pull request runs no page command unless AllowUntrusted.
//   - "commands.frontmatter: deny": no page command runs (AllowUntrusted does not override the config).
//   - "commands.allow": with an allow-list, argv0 must equal one of its entries exactly.
func (p Policy) Refusal(argv0 string, inPage bool) string {
	if p.InActions && !TrustedEvent(p.Event) && !p.AllowUntrusted {
		ev := fmt.Sprintf("%q", p.Event)
		if p.Event == "" {
			ev = "(GITHUB_EVENT_NAME unset)"
		}
		return "privileged event " + ev + ": no command runs on this event unless --allow-untrusted-commands is given"
	}
	if inPage && p.ForkPR && !p.AllowUntrusted {
		return "untrusted pull request: a pull request from a fork runs no command written in page frontmatter unless --allow-untrusted-commands is given"
	}
	if inPage && p.FrontmatterDeny {
		return "commands.frontmatter: deny: commands written in page frontmatter are not run"
	}
	if p.Allow != nil {
		for _, a := range p.Allow {
			if a == argv0 {
				return ""
			}
		}
		return fmt.Sprintf("commands.allow: %q is not in the allow-list", argv0)
	}
	return ""
}
