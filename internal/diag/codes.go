package diag

import "strings"

// CodeInfo documents one result code as data: the registry feeds `evalgate
// explain`, README.md's "Codes" table (tested equal to it) and the SARIF rule
// descriptions. Codes are stable: tools and tests depend on them (README
// "Codes").
type CodeInfo struct {
	Code  string
	Group string // "definition", "note", "running", "skip", "builtin", "suite", "pass", "evalcase", "jev"
	Title string // one line, no trailing period

	// Outcome is the outcome of the code's results: one of diag.Outcomes, or
	// two joined by "|" when it depends on the command or the input (Doc
	// says when; the first is check's).
	Outcome string
	// Severity is the severity of the code's fail results: "error",
	// "warning" or "info"; SeverityEval for the eval's own severity;
	// SeverityAssertion for an EvalCase assertion's; "" when the code never
	// fails (pass, skip, pending, or an error, which blocks at any severity).
	Severity string

	Doc     string // what the code means and when evalgate gives it: plain sentences
	Example string // an input that gives the code; may span lines
	Fix     string // how to make the result go away: plain sentences
}

// Severity values of CodeInfo beside the three severities.
const (
	// SeverityEval is the eval's own severity (default error; for a built-in
	// tool's finding, the eval's severity-map entry for the code when it has one).
	SeverityEval = "eval"
	// SeverityAssertion is error for a hard EvalCase assertion and warning
	// (never blocking) for a report one.
	SeverityAssertion = "assertion"
)

// Codes are the result codes evalgate itself gives, in documentation order. The built-in tools' finding
// codes (group "builtin") are defined with their tools; tooldef.Codes is the whole registry, both in order.
var Codes = []CodeInfo{
	// Definitions.
	{
		Code: "syntax_error", Group: "definition", Title: "The frontmatter, config, JSON or JSONL text does not parse",
		Outcome: "fail", Severity: "error",
		Doc:     "The YAML or TOML frontmatter of a page, the config, a JSON contract, or a line of a JSONL fixture, candidates file, contract or replay is not well-formed. The result points at the line (and column) where the parser stopped. A page whose frontmatter does not parse has none of its evals graded.",
		Example: "---\nevals:\n  - id: links\n   grader: tool:links\n---",
		Fix:     "Correct the syntax at the position shown: indentation, a missing colon, quote or bracket, or a trailing comma in JSON.",
	},
	{
		Code: "duplicate_key", Group: "definition", Title: "A key appears twice in one mapping",
		Outcome: "fail", Severity: "error",
		Doc:     "One mapping or JSON object holds the same key twice. Parsers disagree on which value wins, so evalgate refuses the text and points at the later key.",
		Example: "---\nevals:\n  - id: links\n    grader: tool:links\n    grader: tool:headings\n---",
		Fix:     "Delete one of the two keys, keeping the value you mean.",
	},
	{
		Code: "invalid_utf8", Group: "definition", Title: "The text is not valid UTF-8",
		Outcome: "fail", Severity: "error",
		Doc:     "The frontmatter, the config or a JSON or JSONL line holds bytes that are not UTF-8. The result points at the first bad byte; evalgate never repairs the text silently.",
		Example: "a JSONL fixture line saved in Latin-1: {\"id\": \"caf\\xe9\", ...}",
		Fix:     "Save the file as UTF-8 (re-encode it with your editor or iconv).",
	},
	{
		Code: "too_large", Group: "definition", Title: "The frontmatter or a JSON line is larger than evalgate reads",
		Outcome: "fail|error", Severity: "error",
		Doc:     "Input beyond evalgate's limits: frontmatter or a config over 1 MiB, a JSONL line over 16 MiB, a contract over its limit (a fail, the input is not read). A page body or a companion larger than graders read, Markdown too complex for the built-in graders' parser (README \"Limits\"), or an EvalCase assertion that hit its work limit before it found anything, is an error instead: the eval reached no verdict.",
		Example: "a page whose frontmatter holds 2 MiB of YAML above its evals",
		Fix:     "Shrink the input: move large data out of the frontmatter, split a large case or page, or point the eval at a smaller target.",
	},
	{
		Code: "unknown_key", Group: "definition", Title: "A key the vocabulary does not define",
		Outcome: "fail", Severity: "error",
		Doc:     "A key that the docmeta evals vocabulary, the config, an EvalCase case or candidate, a jevcheck contract or replay, or a tool's options do not define. The result points at the key and, when a known key is close, names it.",
		Example: "---\nevals:\n  - id: links\n    gradr: tool:links\n---",
		Fix:     "Correct the key's spelling or delete it; README lists the keys each file takes.",
	},
	{
		Code: "reserved_prefix", Group: "definition", Title: "A page-root key with the reserved eval- prefix that docmeta does not define",
		Outcome: "fail", Severity: "error",
		Doc:     "A page's frontmatter has a root key starting with eval- other than eval-suite, eval-skip and eval-provenance. The prefix belongs to the docmeta vocabulary, so a typo there is caught rather than ignored.",
		Example: "---\neval-suites: how-to\n---",
		Fix:     "Use eval-suite, eval-skip or eval-provenance, or rename your own key so that it does not start with eval-.",
	},
	{
		Code: "missing_field", Group: "definition", Title: "A required field is missing",
		Outcome: "fail", Severity: "error",
		Doc:     "An entry lacks a field it needs: an ai or human eval without an assertion, a command eval with neither an assertion nor a command, a config without version, an EvalCase case without one of its required fields, a jevcheck expectation with nothing to check. The result points at the entry that lacks it.",
		Example: "---\nevals:\n  - id: reviewed\n    grader: human\n---",
		Fix:     "Add the field the message names.",
	},
	{
		Code: "wrong_type", Group: "definition", Title: "A value has the wrong type",
		Outcome: "fail", Severity: "error",
		Doc:     "A value is of the wrong kind: a string where a list is required, a number given as a string, a null where a value is required.",
		Example: "---\nevals:\n  - id: smoke\n    grader: command\n    command: ./smoke.sh\n---",
		Fix:     "Write the value in the type the message names (here, command: [\"./smoke.sh\"]).",
	},
	{
		Code: "invalid_value", Group: "definition", Title: "A value is outside its enum, range or pattern",
		Outcome: "fail", Severity: "error",
		Doc:     "A value has the right type but is not allowed: an unknown severity or grader name, a number out of range (runs: 51, weight: 0), a pattern that does not compile, a locale tag not in canonical case. Faults about ids have their own code, invalid_id.",
		Example: "---\nevals:\n  - id: links\n    grader: tool:links\n    severity: notice\n---",
		Fix:     "Use one of the values the message lists, or a value inside the range it names.",
	},
	{
		Code: "invalid_id", Group: "definition", Title: "An id does not match its pattern",
		Outcome: "fail", Severity: "error",
		Doc:     "An eval id is not kebab-case (lowercase letters, digits and hyphens, not starting with a hyphen), or an EvalCase case id does not match its dotted pattern.",
		Example: "---\nevals:\n  - id: Links_Resolve\n    grader: tool:links\n---",
		Fix:     "Rename the id to match the pattern, for example links-resolve.",
	},
	{
		Code: "duplicate_id", Group: "definition", Title: "Two entries share one id; the later one wins",
		Outcome: "fail", Severity: "error",
		Doc:     "Two eval entries of one page (or two EvalCase cases across the selected fixtures, or two jevcheck cases) have the same id. The result points at the later one's id, or at its use: value for a reference; the later entry replaces the earlier.",
		Example: "---\nevals:\n  - id: links\n    grader: tool:links\n  - id: links\n    grader: tool:headings\n---",
		Fix:     "Give one of the entries another id, or delete the one you do not mean.",
	},
	{
		Code: "command_needs_grader", Group: "definition", Title: "A command is given without grader: command",
		Outcome: "fail", Severity: "error",
		Doc:     "An entry has a command key but its grader is not command (the default grader is ai), so the command would never run.",
		Example: "---\nevals:\n  - id: smoke\n    command: [\"./smoke.sh\"]\n---",
		Fix:     "Add grader: command to the entry, or delete the command.",
	},
	{
		Code: "field_not_allowed_for_grader", Group: "definition", Title: "A field is not allowed with this grader",
		Outcome: "fail", Severity: "error",
		Doc:     "A field belongs to another grader: provider, model and runs need the ai grader; success-exit-codes and timeout-ms need grader: command.",
		Example: "---\nevals:\n  - id: links\n    grader: tool:links\n    timeout-ms: 1000\n---",
		Fix:     "Delete the field, or change the grader to the one it belongs to.",
	},
	{
		Code: "hash_without_command", Group: "definition", Title: "generated-assertion-hash is given without command",
		Outcome: "fail", Severity: "error",
		Doc:     "generated-assertion-hash records which assertion a command was generated from; without a command there is nothing it describes.",
		Example: "---\nevals:\n  - id: smoke\n    grader: command\n    assertion: The install works.\n    generated-assertion-hash: 3f2a...\n---",
		Fix:     "Add the generated command, or delete generated-assertion-hash.",
	},
	{
		Code: "use_override_not_allowed", Group: "definition", Title: "A use: reference overrides a key it may not override",
		Outcome: "fail", Severity: "error",
		Doc:     "A use: entry may override only skip, type, severity, options and weight of the named eval; any other key (grader, command, assertion, target...) would make it a different eval.",
		Example: "---\nevals:\n  - use: spelling\n    grader: human\n---\nwith a named eval spelling in the config",
		Fix:     "Delete the key from the use: entry, or define a new inline eval with its own id.",
	},
	{
		Code: "unknown_use", Group: "definition", Title: "A use: reference names no eval of the config",
		Outcome: "fail", Severity: "error",
		Doc:     "A use: entry (on a page or in a suite) names an eval that the config's evals section does not define, or there is no config.",
		Example: "---\nevals:\n  - use: speling\n---",
		Fix:     "Correct the name, or define the eval under evals in .evalgate.yaml.",
	},
	{
		Code: "unknown_suite", Group: "definition", Title: "eval-suite names no suite of the config",
		Outcome: "fail", Severity: "error",
		Doc:     "A page's eval-suite names a suite that the config's suites section does not define, so none of the suite's evals would run on it.",
		Example: "---\neval-suite: how-too\n---",
		Fix:     "Correct the suite's name, or define the suite under suites in .evalgate.yaml.",
	},

	// Notes: fail results that never enter an eval's verdict.
	{
		Code: "stale_generated_command", Group: "note", Title: "The assertion changed since its command was generated",
		Outcome: "fail", Severity: "warning",
		Doc:     "A command eval's generated-assertion-hash is not the SHA-256 of its assertion: the assertion was edited after the command was generated from it. The command still runs; the note never enters the eval's verdict.",
		Example: "---\nevals:\n  - id: smoke\n    grader: command\n    assertion: The install works on ARM too.\n    command: [\"./smoke.sh\"]\n    generated-assertion-hash: <the hash of the old assertion>\n---",
		Fix:     "Regenerate the command from the new assertion and update generated-assertion-hash, or set the hash to the new assertion's SHA-256 if the command still fits it.",
	},
	{
		Code: "shorthand_names_eval", Group: "note", Title: "A shorthand assertion equals the id of a named eval; write use: to refer to it",
		Outcome: "fail", Severity: "warning",
		Doc:     "A string entry is an assertion for an ai judge, yet its text is the id of a named eval of the config: it was probably meant as a reference to that eval.",
		Example: "---\nevals:\n  - spelling\n---\nwith a named eval spelling in the config",
		Fix:     "Write - use: spelling to run the named eval; if you really mean an assertion, reword it.",
	},
	{
		Code: "unreviewed_provenance", Group: "note", Title: "Machine-proposed evals that nobody has reviewed yet",
		Outcome: "fail", Severity: "info",
		Doc:     "The page's eval-provenance says that a tool proposed some of its evals. Until a human has reviewed them, each entry gives this note (check eval-provenance).",
		Example: "---\neval-provenance:\n  - generated-by: evalgen 0.3\n    evals: [links]\n---",
		Fix:     "Review the proposed evals, then delete the eval-provenance entry.",
	},
	{
		Code: "judge_self_preference", Group: "note", Title: "The judge is the model that wrote the page or proposed the eval",
		Outcome: "fail", Severity: "warning",
		Doc:     "The model asked to judge an ai eval is the page's root generated-by, or the generated-by of an eval-provenance entry that lists the eval (or lists none). Models tend to prefer their own text, so the verdict may be lenient. The note never enters the eval's verdict.",
		Example: "---\ngenerated-by: gpt-4.1-2025-04-14\nevals:\n  - The quick start installs the CLI.\n---\nwith ai.providers.main.model: gpt-4.1-2025-04-14",
		Fix:     "Judge with another model: set the eval's model: or provider:, or the provider's model.",
	},

	{
		Code: "human_fail", Group: "running", Title: "A reviewer recorded that the assertion does not hold",
		Outcome: "fail", Severity: SeverityEval,
		Doc:     "A human eval's recorded review (evalgate review ... --fail) matches the eval and its page as they are: a person found the assertion does not hold. The evidence says who, when and their note.",
		Example: "evalgate review docs/a.md reads-well --fail --note \"step 3 is missing\"",
		Fix:     "Fix the page, then review it again with --pass.",
	},
	{
		Code: "judge_fail", Group: "running", Title: "The judge finds the assertion does not hold",
		Outcome: "fail", Severity: SeverityEval,
		Doc:     "An ai eval's runs agree, at least as ai.agreement asks, that the assertion does not hold (a partial verdict counts as a fail). The message is the first failing run's reasoning; the evidence holds the votes, each run's reasoning and the quotes it relied on.",
		Example: "---\nevals:\n  - The page names the minimum supported Go version.\n---\non a page that names none",
		Fix:     "Fix the page so that the assertion holds, or correct the assertion. If the verdict is wrong, record a review with evalgate review and tighten the assertion so that a judge can locate what it claims.",
	},
	{
		Code: "judge_failed", Group: "running", Title: "No run of the judge gave a valid verdict",
		Outcome: "error", Severity: "",
		Doc:     "Every run of an ai eval failed: the server kept answering with an error after the retries, the request timed out, or the reply was not one verdict object (prose, two objects, a quote that is not in the page, a reply cut at the token limit). Failed runs are never cached, so the next run asks again.",
		Example: "a judge that answers in prose instead of the verdict object",
		Fix:     "Read the message: raise ai.max-output-tokens for a reply cut at the limit, ai.timeout-ms for a slow server, or choose a model that follows JSON output.",
	},
	{
		Code: "judge_refused", Group: "running", Title: "The judge declined to answer",
		Outcome: "error", Severity: "",
		Doc:     "The model refused the request, or the provider's content filter stopped the reply, so the eval has no verdict.",
		Example: "a page whose text trips the provider's content filter",
		Fix:     "Judge with another model or provider, or decide the eval by hand with evalgate review.",
	},
	{
		Code: "judge_input_too_large", Group: "running", Title: "The eval's target is larger than ai.max-target-bytes",
		Outcome: "error", Severity: "",
		Doc:     "An ai eval's target is larger than ai.max-target-bytes (256 KiB by default). evalgate never truncates a target silently: the judge would decide on text it did not see.",
		Example: "an ai eval on target: raw of a 400 KiB page",
		Fix:     "Point the eval at a smaller target (body, or a companion file), split the page, or raise ai.max-target-bytes.",
	},
	{
		Code: "unknown_provider", Group: "running", Title: "An ai eval names a provider the config does not define",
		Outcome: "error|fail", Severity: "error",
		Doc:     "An ai eval's provider: names no entry of ai.providers in the config. A page may choose among configured providers, never define one. check gives an error, validate a fail.",
		Example: "---\nevals:\n  - id: tone\n    assertion: The tone is neutral.\n    provider: claude\n---\nwith no ai.providers.claude",
		Fix:     "Correct the name, or add the provider under ai.providers in .evalgate.yaml.",
	},

	// Running.
	{
		Code: "command_failed", Group: "running", Title: "The command exited with a code outside success-exit-codes",
		Outcome: "fail", Severity: SeverityEval,
		Doc:     "A command eval (or a tools: integration) ran and exited with a code not in success-exit-codes (default [0]). The message has the exit code and the last line of stderr (else stdout); the evidence has the last 2,000 bytes.",
		Example: "---\nevals:\n  - id: smoke\n    grader: command\n    command: [\"false\"]\n---",
		Fix:     "Read the command's output in the evidence and fix the page (or the command); if that exit code means success, add it to success-exit-codes.",
	},
	{
		Code: "command_not_found", Group: "running", Title: "The command's executable is missing or not executable",
		Outcome: "error", Severity: "",
		Doc:     "The command's first element names no program on PATH (or, for a path, a file that is missing or not executable), so the eval reached no verdict.",
		Example: "---\nevals:\n  - id: spell\n    grader: command\n    command: [\"codespel\", \"{file}\"]\n---",
		Fix:     "Install the program in the job before evalgate runs, correct its name, or make the script executable (chmod +x).",
	},
	{
		Code: "command_killed", Group: "running", Title: "The command was killed by a signal",
		Outcome: "error", Severity: "",
		Doc:     "The command did not exit by itself: a signal ended it (for example the out-of-memory killer, or a crash). The evidence names the signal.",
		Example: "a command that runs out of memory and is killed with SIGKILL",
		Fix:     "Find out why the program was killed (memory, a crash) and fix it or its input.",
	},
	{
		Code: "findings_unreadable", Group: "running", Title: "A tool's findings output could not be read",
		Outcome: "error", Severity: "",
		Doc:     "A tools entry with findings: sarif printed something on stdout that is not SARIF 2.1.0, so the tool reached no verdict evalgate can read. The evidence keeps the end of stdout and stderr.",
		Example: "tools:\n  tool:lint:\n    command: [\"lint\", \"{target}\"]\n    findings: sarif   # but lint prints plain text",
		Fix:     "Make the tool write SARIF to stdout (often a --format or --output flag), or use findings: {pattern: ...} for its text output.",
	},
	{
		Code: "command_timeout", Group: "running", Title: "The command ran past its timeout",
		Outcome: "error", Severity: "",
		Doc:     "The command ran longer than timeout-ms (else commands.timeout-ms, else 30 s); its whole process group was killed.",
		Example: "---\nevals:\n  - id: slow\n    grader: command\n    command: [\"sleep\", \"60\"]\n    timeout-ms: 1000\n---",
		Fix:     "Make the command faster, or raise timeout-ms on the eval or commands.timeout-ms in the config.",
	},
	{
		Code: "command_refused", Group: "running", Title: "The command was refused by policy",
		Outcome: "skip", Severity: "",
		Doc:     "evalgate did not run the command: a privileged GitHub event, a pull request from a fork with a command written in page frontmatter, commands.frontmatter: deny, or a program missing from commands.allow. The message names the reason.",
		Example: ".evalgate.yaml: commands: {allow: [\"vale\"]}, and a page eval with command: [\"codespell\", \"{file}\"]",
		Fix:     "Add the program to commands.allow, move the command into the config's evals, or, on a trusted event only, pass --allow-untrusted-commands (README \"Security model\").",
	},
	{
		Code: "target_outside_repo", Group: "running", Title: "A path leaves the repository",
		Outcome: "error|fail", Severity: "error",
		Doc:     "A companion target, an options file, a selected file or a config path leaves the repository (through .. or a symlink) or lies inside .git, so evalgate does not read it. check gives an error; validate and the config give a fail.",
		Example: "---\nevals:\n  - id: links\n    grader: tool:links\n    target: {source: file, path: ../../outside.md}\n---",
		Fix:     "Point the path at a file inside the repository, relative to the page's directory (or the config's, for config evals).",
	},
	{
		Code: "target_unreadable", Group: "running", Title: "The eval's target cannot be read",
		Outcome: "error|fail", Severity: "error",
		Doc:     "A file evalgate must read is missing, is not a regular file, or cannot be read: a companion target, an options file such as a schema, a page, a fixture or a contract. check gives an error; validate, which only looks for the file, gives a fail.",
		Example: "---\nevals:\n  - id: schema\n    grader: tool:links\n    target: {source: file, path: gone.yaml}\n---",
		Fix:     "Create the file, correct the path (relative to the page's directory), or fix its permissions.",
	},
	{
		Code: "unknown_tool", Group: "running", Title: "A tool:* grader that is neither built in nor configured",
		Outcome: "error|fail", Severity: "error",
		Doc:     "A grader: tool:NAME names no built-in tool and no entry of the config's tools section. A check that cannot run never passes: check gives an error, validate a fail.",
		Example: "---\nevals:\n  - id: prose\n    grader: tool:vale\n---",
		Fix:     "Correct the tool's name (README lists the built-in tools), or define it under tools in .evalgate.yaml with the command that runs it.",
	},
	{
		Code: "internal_error", Group: "running", Title: "evalgate failed on this file or eval",
		Outcome: "error", Severity: "",
		Doc:     "evalgate itself failed on one file or eval (a crash while parsing or grading it, a temporary file it could not write, or a run stopped by a signal before the eval finished). The rest of the run goes on; the evidence holds the details.",
		Example: "a run interrupted with Ctrl-C while a command eval was still running",
		Fix:     "Run again; if it happens again on the same input, report it with the evidence (it holds the stack).",
	},

	// Skip and pending.
	{
		Code: "page_skipped", Group: "skip", Title: "The page sets eval-skip: true",
		Outcome: "skip", Severity: "",
		Doc:     "The page opts out with eval-skip: true; none of its evals is graded. One result at the eval-skip key says so.",
		Example: "---\neval-skip: true\nevals:\n  - id: links\n    grader: tool:links\n---",
		Fix:     "Delete eval-skip (or set it to false) when the page should be checked again.",
	},
	{
		Code: "eval_skipped", Group: "skip", Title: "The eval sets skip: true",
		Outcome: "skip", Severity: "",
		Doc:     "The eval opts out with skip: true (also through a use: override); it is listed but not graded.",
		Example: "---\nevals:\n  - id: links\n    grader: tool:links\n    skip: true\n---",
		Fix:     "Delete skip (or set it to false) when the eval should run again.",
	},
	{
		Code: "review_stale", Group: "skip", Title: "A human review no longer matches the eval or its page",
		Outcome: "pending", Severity: "",
		Doc:     "A human eval has a recorded review, but the page's target or the eval's definition changed since it was recorded (its sha256 no longer matches), so the review cannot decide it. The evidence names the old review.",
		Example: "a page edited after `evalgate review docs/a.md reads-well --pass`",
		Fix:     "Review the eval again: evalgate review PAGE EVAL_ID --pass or --fail.",
	},
	{
		Code: "human_review", Group: "skip", Title: "The eval waits for human review",
		Outcome: "pending", Severity: "",
		Doc:     "A grader: human eval is put in the review queue: evalgate cannot decide it, so it is pending, listed in every report and never counted in the score.",
		Example: "---\nevals:\n  - id: reads-well\n    grader: human\n    assertion: A new user can follow the steps.\n---",
		Fix:     "Nothing to fix: a reviewer decides it. Use a command or tool:* grader if the check can be automated.",
	},
	{
		Code: "no_judge", Group: "skip", Title: "The ai eval waits for a judge; none is configured",
		Outcome: "pending", Severity: "",
		Doc:     "An ai eval (the default grader, and every string shorthand) needs a judge; the config's ai section names none, or --no-judge was given, so the eval is pending and never counts in the score.",
		Example: "---\nevals:\n  - The install command matches the current package name.\n---",
		Fix:     "Configure a judge under ai in .evalgate.yaml (README \"The AI judge\"), or write the eval as a command or tool:* eval.",
	},
	{
		Code: "judge_split", Group: "skip", Title: "The judge's runs disagree",
		Outcome: "pending", Severity: "",
		Doc:     "The valid runs of an ai eval gave both verdicts and the majority's share of all runs is below ai.agreement, so no verdict stands. The eval stays pending until a review decides it.",
		Example: "runs: 3 with two passes and one fail under ai.agreement: 1.0",
		Fix:     "Make the assertion locatable (one property the judge can quote), lower ai.agreement, or decide it with evalgate review PAGE EVAL_ID --pass|--fail.",
	},
	{
		Code: "judge_incomplete", Group: "skip", Title: "Too few runs of the judge gave a verdict",
		Outcome: "pending", Severity: "",
		Doc:     "The valid runs of an ai eval agree, but failed or invalid runs leave the majority's share of all runs below ai.agreement. Valid runs are cached, so the next run asks only for the missing ones.",
		Example: "runs: 2 with one pass and one reply cut at the token limit",
		Fix:     "Run again, fix what the failed runs say, or decide it with evalgate review.",
	},
	{
		Code: "judge_unavailable", Group: "skip", Title: "The judge's key is not set",
		Outcome: "pending", Severity: "",
		Doc:     "The variable api-key-env names is unset or empty (a pull request from a fork gets no secrets, and on such a pull request evalgate sends no key), and the verdict is not in the cache. The eval stays pending and does not block; one notice says so.",
		Example: "OPENAI_API_KEY unset in a job for a pull request from a fork",
		Fix:     "Set the key in the job, or commit the judge cache so that such jobs replay the verdicts (README \"The AI judge\").",
	},
	{
		Code: "judge_budget", Group: "skip", Title: "The run's budget of judge calls is spent",
		Outcome: "pending", Severity: "",
		Doc:     "ai.max-calls or --max-judge-calls caps the judge calls of one run; this eval needed a call after the budget was spent. Verdicts in the cache cost nothing. One notice names the budget.",
		Example: "--max-judge-calls 2 with five ai evals and an empty cache",
		Fix:     "Raise the budget, or run again: the verdicts asked so far are cached.",
	},
	{
		Code: "command_not_generated", Group: "skip", Title: "The command eval's command has not been generated yet",
		Outcome: "pending", Severity: "",
		Doc:     "A grader: command eval has an assertion but no command yet: per the vocabulary's generation contract a tool writes the command later, so the eval is pending.",
		Example: "---\nevals:\n  - id: smoke\n    grader: command\n    assertion: The install script exits 0.\n---",
		Fix:     "Generate (or write) the command and add it with its generated-assertion-hash.",
	},

	// Suites.
	{
		Code: "suite_below_target", Group: "suite", Title: "A suite's score is below its target-pass-rate",
		Outcome: "fail", Severity: "error",
		Doc:     "Under scope all (every page seen), the weighted pass rate of a suite's evals is below its target-pass-rate. The result points at the suite in the config and blocks; a suite seen only in part never gives it.",
		Example: ".evalgate.yaml: suites: {how-to: {target-pass-rate: 1.0, evals: [...]}}, with one of its evals failing on some page",
		Fix:     "Fix the failing evals of the suite's pages (the other results of the run name them), or lower target-pass-rate.",
	},

	// Passes.
	{
		Code: "ok", Group: "pass", Title: "The check holds",
		Outcome: "pass", Severity: "",
		Doc:     "The code of a pass: a command exited with a success code, a built-in tool found nothing, an EvalCase assertion or a jevcheck field holds.",
		Example: "---\nevals:\n  - id: smoke\n    grader: command\n    command: [\"true\"]\n---",
		Fix:     "Nothing to fix.",
	},
	{
		Code: "human_pass", Group: "pass", Title: "A reviewer recorded that the assertion holds",
		Outcome: "pass", Severity: "",
		Doc:     "A human eval's recorded review (evalgate review ... --pass) matches the eval and its page as they are. The evidence says who, when and their note.",
		Example: "evalgate review docs/a.md reads-well --pass --by Ann",
		Fix:     "Nothing to fix.",
	},
	{
		Code: "judge_pass", Group: "pass", Title: "The judge finds the assertion holds",
		Outcome: "pass", Severity: "",
		Doc:     "An ai eval's runs agree, at least as ai.agreement asks, that the assertion fully holds. The evidence holds the votes, the models asked and answering, and each run's reasoning and quotes.",
		Example: "---\nevals:\n  - The page names the minimum supported Go version.\n---\non a page that says \"Go 1.23 or later\"",
		Fix:     "Nothing to fix.",
	},

	// EvalCase v1.
	{
		Code: "protocol_missing_terminator", Group: "evalcase", Title: "The response's terminator is missing",
		Outcome: "fail", Severity: SeverityAssertion,
		Doc:     "protocol_complete has a terminator and the response (raw_response, else text) does not contain it. The items are still checked, over the whole response.",
		Example: "params {\"terminator\": \"<END>\"} and a candidate text \"[1] Hello\\n[2] Bye\"",
		Fix:     "Make the model end its response with the terminator, or correct the terminator parameter.",
	},
	{
		Code: "protocol_malformed_item", Group: "evalcase", Title: "A protocol item is empty, out of order, repeated or after a gap",
		Outcome: "fail", Severity: SeverityAssertion,
		Doc:     "protocol_complete found items that do not run 1, 2, ..., k: a gap, a repeat, an out-of-order number, [0], an empty item, or (without expected_items) no item at all.",
		Example: "a candidate text \"[1] Hello\\n[3] Bye\"",
		Fix:     "Fix the candidate (or the prompt that produced it) so that items are numbered from 1 without gaps, each with content.",
	},
	{
		Code: "protocol_missing_item", Group: "evalcase", Title: "The response has fewer items than expected",
		Outcome: "fail", Severity: SeverityAssertion,
		Doc:     "protocol_complete counted fewer items than expected_items.",
		Example: "params {\"expected_items\": 3} and a candidate text \"[1] a\\n[2] b\"",
		Fix:     "Make the response carry every item, or correct expected_items.",
	},
	{
		Code: "protocol_extra_item", Group: "evalcase", Title: "The response has more items than expected",
		Outcome: "fail", Severity: SeverityAssertion,
		Doc:     "protocol_complete counted more items than expected_items, and allow_extra_items is not set.",
		Example: "params {\"expected_items\": 1} and a candidate text \"[1] a\\n[2] b\"",
		Fix:     "Make the response stop after the expected items, or set allow_extra_items: true.",
	},
	{
		Code: "placeholder_mutated", Group: "evalcase", Title: "A placeholder was altered",
		Outcome: "fail", Severity: SeverityAssertion,
		Doc:     "placeholder_integrity found, in place of a placeholder of the source, a near miss: a full-width %, a case change (%S), white space inside ({ name }), or another conversion or type.",
		Example: "source \"Hello %s\" and candidate \"Bonjour % s\"",
		Fix:     "Restore the placeholder exactly as the source writes it.",
	},
	{
		Code: "placeholder_missing", Group: "evalcase", Title: "A placeholder of the source is missing",
		Outcome: "fail", Severity: SeverityAssertion,
		Doc:     "placeholder_integrity found a placeholder of the source that the candidate does not have (and no near miss stands in its place).",
		Example: "source \"Hello {name}\" and candidate \"Bonjour\"",
		Fix:     "Add the placeholder to the candidate.",
	},
	{
		Code: "placeholder_extra", Group: "evalcase", Title: "The candidate has a placeholder the source lacks",
		Outcome: "fail", Severity: SeverityAssertion,
		Doc:     "placeholder_integrity found a placeholder in the candidate that the source does not have.",
		Example: "source \"Hello\" and candidate \"Bonjour {name}\"",
		Fix:     "Remove the placeholder the source does not have.",
	},
	{
		Code: "placeholder_count_mismatch", Group: "evalcase", Title: "A placeholder occurs a different number of times",
		Outcome: "fail", Severity: SeverityAssertion,
		Doc:     "placeholder_integrity compares placeholders as multisets: a token of the source occurs in the candidate, but not as often.",
		Example: "source \"%s and %s\" and candidate \"%s\"",
		Fix:     "Make the candidate use each placeholder as often as the source does.",
	},
	{
		Code: "placeholder_reordered", Group: "evalcase", Title: "Placeholders were reordered where the syntax cannot reorder",
		Outcome: "fail", Severity: SeverityAssertion,
		Doc:     "The placeholders match as multisets, but sequential ones (%s, a bare {}) changed order, or any changed order under allow_reorder: false.",
		Example: "source \"%s has %d items\" and candidate \"%d items for %s\"",
		Fix:     "Keep sequential placeholders in the source's order, or use positional ones (%1$s, {0}) that may move.",
	},
	{
		Code: "number_missing", Group: "evalcase", Title: "A number of the source is missing from the candidate",
		Outcome: "fail", Severity: SeverityAssertion,
		Doc:     "number_fidelity found a number of the source (read with the source locale's decimal mark) that the candidate does not have under either locale's convention.",
		Example: "source \"Save 25% on 3 items\" and candidate \"Sparen Sie 20% auf 3 Artikel\"",
		Fix:     "Restore the number in the candidate; a locale's own separators (1.000 for 1,000 in de-DE) are accepted.",
	},
	{
		Code: "required_token_missing", Group: "evalcase", Title: "A required token is missing or occurs too rarely",
		Outcome: "fail", Severity: SeverityAssertion,
		Doc:     "required_tokens found a token of the case's required_tokens that the candidate lacks, or has fewer times than the source.",
		Example: "case {\"required_tokens\": [\"evalgate\"], ...} and a candidate without evalgate",
		Fix:     "Keep the token (a product name, a term of the glossary) in the candidate as often as in the source.",
	},
	{
		Code: "forbidden_rendering", Group: "evalcase", Title: "A forbidden rendering appears in the candidate",
		Outcome: "fail", Severity: SeverityAssertion,
		Doc:     "forbidden_renderings: one of its RE2 patterns matches the candidate's text.",
		Example: "params {\"patterns\": [\"Eval Gate\"]} and a candidate \"Eval Gate checks pages\"",
		Fix:     "Reword the candidate so that no forbidden pattern matches.",
	},
	{
		Code: "max_chars_exceeded", Group: "evalcase", Title: "The candidate is longer than allowed",
		Outcome: "fail", Severity: SeverityAssertion,
		Doc:     "max_chars: the candidate has more than max code points (or user-perceived characters with unit: graphemes).",
		Example: "params {\"max\": 5} and a candidate \"Bonjour\"",
		Fix:     "Shorten the candidate, or raise max.",
	},
	{
		Code: "no_candidate", Group: "evalcase", Title: "The case has no candidate",
		Outcome: "skip", Severity: "",
		Doc:     "A candidates file is configured or given, but none of its lines names this case, so its assertions did not run: one skip per assertion.",
		Example: "a fixture with case ui.hello and candidates files without {\"case_id\": \"ui.hello\", ...}",
		Fix:     "Add a candidate for the case, or check that its case_id is spelled like the case's id.",
	},
	{
		Code: "unknown_case", Group: "evalcase", Title: "The candidate names no selected case",
		Outcome: "fail", Severity: "error",
		Doc:     "A candidate's case_id matches no case of the fixtures evalcase.include selects; the result points at the candidate's line.",
		Example: "{\"case_id\": \"ui.helo\", \"text\": \"Bonjour\"} when the case is ui.hello",
		Fix:     "Correct the case_id, or select the fixture that holds the case in evalcase.include.",
	},
	{
		Code: "duplicate_candidate", Group: "evalcase", Title: "A second candidate for one case",
		Outcome: "fail", Severity: "error",
		Doc:     "Two candidate lines name the same case; the first is checked, the later gives this result at its line.",
		Example: "two lines {\"case_id\": \"ui.hello\", ...} in the candidates files",
		Fix:     "Keep one candidate per case (delete or rename the other).",
	},

	// jevcheck v0.1.
	{
		Code: "answer_flip", Group: "jev", Title: "The candidate's answer differs from the contract's",
		Outcome: "fail", Severity: "error",
		Doc:     "For an expected field, the replayed candidate's answer (a choice, a noul verdict or a score level) is not the contract's, or the answer is missing or of the wrong kind.",
		Example: "contract expect {\"intent\": {\"choice\": \"billing\"}} and a replay answer {\"intent\": {\"type\": \"choice\", \"choice\": \"general\", \"confidence\": 0.62}}",
		Fix:     "Fix the candidate model or prompt so that it answers as the contract expects, or update the contract if the new answer is right.",
	},
	{
		Code: "confidence_regression", Group: "jev", Title: "Same answer, confidence below the contract's floors or tolerances",
		Outcome: "fail", Severity: "error",
		Doc:     "The answer is the expected one, but its confidence is below the field's floor, or dropped from the baseline by more than the tolerance (beyond tolerance + 1e-9). A higher confidence is never a regression.",
		Example: "contract expect {\"intent\": {\"choice\": \"billing\", \"baseline_confidence\": 0.9, \"confidence_tolerance\": 0.1}} and a replay answering billing with confidence 0.7",
		Fix:     "Improve the candidate, or widen the field's tolerance or lower its floor in the contract if the drop is acceptable.",
	},
	{
		Code: "replay_invalid", Group: "jev", Title: "The replay file is invalid",
		Outcome: "error", Severity: "",
		Doc:     "The replay (answers or from) does not follow the replay format: a line that does not parse, an unknown key, a wrong type. The result points at the offending line; a case with a bad response is skipped while the others are evaluated.",
		Example: "a replay whose response for ticket-001 has a key the format does not define: {\"ticket-001\": {\"model\": \"jev-1.15\", \"answer\": {}}}",
		Fix:     "Regenerate the replay, or correct the line the result points at.",
	},
	{
		Code: "model_mismatch", Group: "jev", Title: "A response model is not the pinned candidate",
		Outcome: "error", Severity: "",
		Doc:     "A replay response was produced by a model other than the pinned candidate-model (exact comparison), so the replay does not show that model's behaviour.",
		Example: "--candidate-model jev-1.15 and a replay response with \"model\": \"jev-1.14\"",
		Fix:     "Replay with the pinned model, or pin the model the replay was made with.",
	},
	{
		Code: "replay_missing_case", Group: "jev", Title: "The replay has no answers for a contract case",
		Outcome: "error", Severity: "",
		Doc:     "The contract has a case the replay does not answer; the result points at the replay's line 1.",
		Example: "a contract with cases ticket-001 and ticket-002, and a replay answering only ticket-001",
		Fix:     "Replay every case of the contract.",
	},
}

var codeIndex = func() map[string]int {
	m := make(map[string]int, len(Codes))
	for i, c := range Codes {
		m[c.Code] = i
	}
	return m
}()

// LookupCode returns the registry entry of code.
func LookupCode(code string) (CodeInfo, bool) {
	i, ok := codeIndex[code]
	if !ok {
		return CodeInfo{}, false
	}
	return Codes[i], true
}

// Outcomes lists the outcomes of c's results, check's first.
func (c CodeInfo) Outcomes() []Outcome {
	var out []Outcome
	for _, o := range strings.Split(c.Outcome, "|") {
		out = append(out, Outcome(o))
	}
	return out
}

// OutcomeText is c's outcome for people: "fail", or "error or fail".
func (c CodeInfo) OutcomeText() string { return strings.ReplaceAll(c.Outcome, "|", " or ") }

// SeverityText is c's severity for people, as README's code table and
// `evalgate explain` show it.
func (c CodeInfo) SeverityText() string {
	switch c.Severity {
	case SeverityEval:
		return "the eval's"
	case SeverityAssertion:
		return "error (hard) or warning (report)"
	case "":
		return "none"
	}
	return c.Severity
}

// Kind is c's group for people, as README's code table shows it.
func (c CodeInfo) Kind() string {
	switch c.Group {
	case "skip":
		return "skip / pending"
	case "builtin":
		return "built-in tool"
	case "evalcase":
		return "EvalCase"
	case "jev":
		return "jevcheck"
	}
	return c.Group
}
