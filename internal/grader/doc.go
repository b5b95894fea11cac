// Package grader runs evals: command graders as child processes and the built-in tool:* graders.
//
// Command graders (README "Security model") run without a shell, in their own process group, with a scrubbed
// environment ([ScrubEnv]), captured and bounded output ([RunCommand]) and a refusal policy that depends on
// the GitHub event ([Policy]). Every path read because of page or config text is checked with [Within].
package grader
