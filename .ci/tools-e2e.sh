#!/usr/bin/env bash
# End-to-end test of `tools:` entries with `findings:` (README "Findings from
# command tools") against the real tools: Vale (go install, Vale's built-in
# `Vale` style, no package download) and markdownlint-cli2 (npm), each as a
# line pattern and in a second form (Vale through a line template that carries
# the severity, markdownlint-cli2 through its SARIF formatter). In a throwaway
# repository, pages with known faults are checked with `evalgate check --all
# --format json`; each tool is also run by hand on the very body evalgate gave
# it (captured by a `cp {target}` entry), and evalgate must report exactly one
# finding per alert of the tool: at the tool's line shifted by the frontmatter,
# at its column, with its rule as the code and the severity the config says.
set -euo pipefail
checkout=$(cd "$(dirname "$0")/.." && pwd)
cd "$checkout"

# Vale moved from github.com/errata-ai/vale to github.com/vale-cli/vale. v3.23.0
# to v3.26.0 require a pseudo-version of github.com/andybalholm/cascadia
# (v1.3.6-0.20260923003020-d56114046656) that proxy.golang.org does not serve
# ("403 This module version is not available"): v3.22.0 is the newest v3 that
# `go install` builds from the proxy.
vale_module=github.com/vale-cli/vale/v3
vale_version=v3.22.0
# markdownlint-cli2 0.23.0 and later need Node 22; 0.22.1 is the newest for
# Node 20 (Debian trixie's nodejs).
markdownlint_version=0.22.1
markdownlint_sarif_version=0.0.4

step() { printf '\n--- tools-e2e: %s\n' "$*"; }
die() { printf 'tools-e2e: FAIL: %s\n' "$*" >&2; exit 1; }

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2> /dev/null; rm -rf "$work"' EXIT

command -v go > /dev/null || die "go is missing (it builds evalgate and Vale)"
command -v git > /dev/null || die "git is missing"
command -v python3 > /dev/null || die "python3 is missing (it reads the reports)"
if ! command -v npm > /dev/null || ! command -v node > /dev/null || ! command -v cc > /dev/null; then
  step "installing Debian's nodejs, npm and gcc"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm gcc libc6-dev > /dev/null
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || die "markdownlint-cli2 $markdownlint_version needs Node 20 or later, this is $(node --version)"

step "installing Vale $vale_version with go install (cgo: Vale's tree-sitter parsers)"
# GOFLAGS of the environment (.ci/run sets -mod=readonly) are for this module, not for Vale.
GOFLAGS='' CGO_ENABLED=1 GOBIN="$work/bin" go install "$vale_module/cmd/vale@$vale_version" 2> "$work/vale-install.log" || {
  grep -v -e 'warning: null character' -e '^ *[0-9]* |' -e '^ *|' -e '^parser.c' "$work/vale-install.log" >&2 || true
  die "go install $vale_module/cmd/vale@$vale_version failed"
}
step "installing markdownlint-cli2@$markdownlint_version and markdownlint-cli2-formatter-sarif@$markdownlint_sarif_version with npm"
npm install --prefix "$work/npm" --no-audit --no-fund --loglevel=error \
  "markdownlint-cli2@$markdownlint_version" "markdownlint-cli2-formatter-sarif@$markdownlint_sarif_version" > /dev/null
export PATH="$work/bin:$work/npm/node_modules/.bin:$PATH"
# `vale --version` says "master" when built by go install: the module's own version says which.
echo "vale: $(go version -m "$work/bin/vale" | awk '$1 == "mod" { print $2, $3 }')"
banner=$(markdownlint-cli2 --help | head -n 1) || true   # --help exits 2
echo "markdownlint-cli2: ${banner:?markdownlint-cli2 does not run}"

step "building evalgate"
go build -o "$work/evalgate" ./cmd/evalgate

step "a throwaway repository with tools entries for Vale and markdownlint-cli2"
repo="$work/repo"
mkdir -p "$repo/docs" "$repo/.vale"
cd "$repo"
git init -q
cat > .vale.ini <<'INI'
MinAlertLevel = suggestion

[*.md]
BasedOnStyles = Vale
# A suggestion, so that a severity word other than error reaches severity-map.
Vale.Repetition = suggestion
INI
# Vale's --output=line gives no severity; this template is --output=line plus the severity.
cat > .vale/line.tmpl <<'TMPL'
{{- range .Files}}{{$path := .Path}}{{range .Alerts -}}
{{$path}}:{{.Line}}:{{index .Span 0}}:{{.Severity}}:{{.Check}}:{{.Message}}
{{end}}{{end -}}
TMPL
# markdownlint-cli2 writes its banner and progress to stdout and the findings to
# stderr; evalgate reads stderr only when stdout is empty, so both must be off.
cat > .markdownlint-cli2.yaml <<'YAML'
noBanner: true
noProgress: true
YAML
# The SARIF formatter writes a file; /dev/stdout is the pipe evalgate reads.
cat > sarif.markdownlint-cli2.yaml <<'YAML'
noBanner: true
noProgress: true
outputFormatters:
  - [markdownlint-cli2-formatter-sarif, {name: /dev/stdout}]
YAML
cat > .evalgate.yaml <<'YAML'
version: 1
tools:
  tool:vale:
    command: ["vale", "--output=line", "{target}"]
    findings: {pattern: '^[^:]+:(?P<line>\d+):(?P<column>\d+):(?P<code>[^:]+):(?P<message>.*)$'}
  tool:vale-severity:
    command: ["vale", "--output=.vale/line.tmpl", "{target}"]
    findings: {pattern: '^[^:]+:(?P<line>\d+):(?P<column>\d+):(?P<severity>[a-z]+):(?P<code>[^:]+):(?P<message>.*)$'}
  tool:markdownlint:
    command: ["markdownlint-cli2", ":{target}"]
    findings: {pattern: '^[^:]+:(?P<line>\d+)(?::(?P<column>\d+))?(?: (?P<severity>error|warning))? (?P<code>MD\d+)\S* (?P<message>.*)$'}
  tool:markdownlint-sarif:
    command: ["markdownlint-cli2", "--config", "sarif.markdownlint-cli2.yaml", ":{target}"]
    findings: sarif
  # Not a tool under test: keeps the body evalgate hands the tools, to run them on it by hand.
  tool:capture:
    command: ["cp", "{target}", "{file}.body"]
YAML
cat .evalgate.yaml

# page NAME: docs/NAME.md is $work/pages/NAME.fm (the frontmatter, every eval
# on it) followed by $work/pages/NAME.body (stdin).
mkdir -p "$work/pages"
page() {
  cat > "$work/pages/$1.body"
  cat > "$work/pages/$1.fm" <<'FM'
---
title: A page
evals:
  - {id: capture, grader: "tool:capture"}
  - {id: vale, grader: "tool:vale"}
  - {id: vale-severity, grader: "tool:vale-severity", severity-map: {suggestion: info}}
  - {id: markdownlint, grader: "tool:markdownlint", severity-map: {MD013: info}}
  - {id: markdownlint-sarif, grader: "tool:markdownlint-sarif"}
---
FM
  cat "$work/pages/$1.fm" "$work/pages/$1.body" > "docs/$1.md"
}
# Vale: 4 misspellings (one word twice, so two alerts share code and message)
# and a repeated word, on body lines 3, 5, 7 and 9.
page spelling <<'MD'
# Spelling

This page has a mispeled word.

Another line with teh wrod in it.

The mispeled word comes back here.

This ends with the the repetition.
MD
# markdownlint: no heading on the first line (MD041), one trailing space
# (MD009), a heading without blank lines around it (MD022 twice), a line over 80
# characters (MD013), a hard tab (MD010), two blank lines (MD012).
printf 'Some text before any heading. \n## Second\nThis line is far too long for the default limit of markdownlint, which is eighty characters.\n\n\n\tA hard tab starts this line.\n' |
  page lint
# Nothing for either tool: every eval passes.
page clean <<'MD'
# Clean

A short page with plain words.
MD
git add -A

step "evalgate check --all --format json"
status=0
"$work/evalgate" check --all --format json > "$work/report.json" 2> "$work/report.err" || status=$?
cat "$work/report.err"
[ "$status" -eq 1 ] || die "evalgate check exited $status, want 1 (findings fail)"

step "running Vale and markdownlint-cli2 by hand on the bodies evalgate gave them"
mkdir -p "$work/direct"
cat > "$work/direct.markdownlint-cli2.yaml" <<'YAML'
noBanner: true
noProgress: true
outputFormatters:
  - [markdownlint-cli2-formatter-sarif, {name: sarif}]
YAML
for name in spelling lint clean; do
  [ -f "docs/$name.md.body" ] || die "tool:capture did not run on docs/$name.md"
  cmp -s "docs/$name.md.body" "$work/pages/$name.body" ||
    die "the {target} of docs/$name.md is not the page's body: $(diff "$work/pages/$name.body" "docs/$name.md.body" | head -5)"
  cp "docs/$name.md.body" "$work/direct/$name.md"
  # From the repository, as evalgate runs them (the tools' configs are found there).
  status=0
  vale --output=JSON "$work/direct/$name.md" > "$work/direct/$name.vale.json" || status=$?
  [ "$status" -le 1 ] || die "vale on $name.md exited $status: $(cat "$work/direct/$name.vale.json")"
  sed "s|{name: sarif}|{name: $work/direct/$name.mdl.sarif}|" "$work/direct.markdownlint-cli2.yaml" \
    > "$work/direct/$name.markdownlint-cli2.yaml"
  status=0
  markdownlint-cli2 --config "$work/direct/$name.markdownlint-cli2.yaml" ":$work/direct/$name.md" || status=$?
  [ "$status" -le 1 ] || die "markdownlint-cli2 on $name.md exited $status"
  [ -s "$work/direct/$name.mdl.sarif" ] || die "markdownlint-cli2 wrote no SARIF for $name.md"
done

step "one finding per alert, at the page's line"
python3 - "$work/report.json" "$work/pages" "$work/direct" <<'PY' || die "evalgate's findings are not the tools' alerts"
import collections, json, os, sys

report = json.load(open(sys.argv[1], encoding="utf-8"))
pages, direct = sys.argv[2], sys.argv[3]
names = ["spelling", "lint", "clean"]
evals = ["vale", "vale-severity", "markdownlint", "markdownlint-sarif"]

by = collections.defaultdict(list)
for r in report["results"]:
    by[(r["file"], r["check"])].append(r)

def vale_alerts(name):
    log = json.load(open(os.path.join(direct, name + ".vale.json"), encoding="utf-8"))
    return [(a["Line"], a["Span"][0], a["Check"], a["Severity"], a["Message"]) for alerts in log.values() for a in alerts]

def markdownlint_alerts(name):
    log = json.load(open(os.path.join(direct, name + ".mdl.sarif"), encoding="utf-8"))
    out = []
    for run in log["runs"]:
        for r in run["results"]:
            reg = r["locations"][0]["physicalLocation"]["region"]
            out.append((reg["startLine"], reg.get("startColumn"), r["ruleId"], r.get("level", "warning"), r["message"]["text"]))
    return out

# What each page must make the tools say, in body lines: the test is not
# vacuous when both sides find nothing.
planted = {
    ("spelling", "vale"): {(3, "Vale.Spelling"), (5, "Vale.Spelling"), (7, "Vale.Spelling"), (9, "Vale.Repetition")},
    ("lint", "markdownlint"): {(1, "MD041"), (1, "MD009"), (2, "MD022"), (3, "MD013"), (5, "MD012"), (6, "MD010")},
}
exact = {("spelling", "vale"): 5}   # 4 misspellings and 1 repetition, nothing else

failures, checked, findings = [], 0, 0
def fail(msg):
    failures.append(msg)
    print("  FAIL " + msg)

for name in names:
    file = "docs/%s.md" % name
    offset = sum(1 for _ in open(os.path.join(pages, name + ".fm"), encoding="utf-8"))
    alerts = {"vale": vale_alerts(name), "markdownlint": markdownlint_alerts(name)}
    cap = by.get((file, "capture"), [])
    if [r["outcome"] for r in cap] != ["pass"]:
        fail("%s capture: %s" % (file, [(r["outcome"], r["message"]) for r in cap]))
    for ev in evals:
        checked += 1
        tool = "vale" if ev.startswith("vale") else "markdownlint"
        want_alerts = alerts[tool]
        got = by.get((file, ev), [])
        for line, code in sorted(planted.get((name, tool), set())):
            if not any(a[0] == line and a[2] == code for a in want_alerts):
                fail("%s: %s reports no %s at body line %d: the fixture is wrong" % (file, tool, code, line))
        if (name, tool) in exact and len(want_alerts) != exact[(name, tool)]:
            fail("%s: %s reports %d alerts, the fixture plants %d: %s" % (file, tool, len(want_alerts), exact[(name, tool)], want_alerts))
        if not want_alerts:
            outcome = [(r["outcome"], r["code"]) for r in got]
            if outcome != [("pass", "ok")]:
                fail("%s %s: the tool reports nothing, want one pass, got %s" % (file, ev, outcome))
            else:
                print("  ok %s %s: no alert, one pass" % (file, ev))
            continue
        bad = [r for r in got if r["outcome"] != "fail" or r["code"] in ("command_failed", "findings_unreadable", "finding")]
        if bad:
            fail("%s %s: results that are no finding: %s" % (file, ev, [(r["outcome"], r["code"], r["message"]) for r in bad]))
        # Each alert: its line shifted past the frontmatter, its column, its
        # rule, the severity the config gives its word, its message.
        def severity(a):
            if ev == "vale":            # no severity in --output=line: the eval's own
                return "error"
            if ev == "vale-severity":   # Vale's word, through severity-map {suggestion: info}
                return {"suggestion": "info"}.get(a[3], a[3])
            if ev == "markdownlint":    # the word "error", and severity-map {MD013: info}
                return "info" if a[2] == "MD013" else "error"
            return {"note": "info", "none": "info"}.get(a[3], a[3])   # SARIF's level
        same_message = ev != "markdownlint"   # the line output words the message otherwise
        want = collections.Counter((file, offset + a[0], a[1] or None, a[2], severity(a), a[4] if same_message else None)
                                   for a in want_alerts)
        have = collections.Counter((r["file"], r["line"], r["column"], r["code"], r["severity"], r["message"] if same_message else None)
                                   for r in got)
        if want != have:
            fail("%s %s: %d alerts, %d findings; missing %s; extra %s" % (
                file, ev, sum(want.values()), len(got), sorted((want - have).elements(), key=str), sorted((have - want).elements(), key=str)))
            continue
        findings += len(got)
        print("  ok %s %s: %d alerts, %d findings (%s)" % (file, ev, len(want_alerts), len(got),
              ", ".join("%d:%s:%s" % (k[1], k[3], k[4]) for k in sorted(have.elements(), key=lambda k: (k[1], k[2] or 0, k[3])))))

summary = report["summary"]
want_fail = findings
if summary["fail"] != want_fail or summary["error"] != 0:
    fail("summary %s: want %d fail (the findings), 0 error" % (summary, want_fail))
print("tools-e2e: %d evals checked, %d findings, %d failure(s)" % (checked, findings, len(failures)))
sys.exit(1 if failures else 0)
PY

printf '\ntools-e2e: PASS: Vale %s and markdownlint-cli2 %s, one finding per alert\n' "$vale_version" "$markdownlint_version"
