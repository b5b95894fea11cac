#!/usr/bin/env bash
# End-to-end test of action.yml without GitHub: `.ci/action run` runs the
# composite steps as the runner would (inputs through env:, GITHUB_OUTPUT,
# GITHUB_STEP_SUMMARY), building evalgate from this checkout, and this script
# checks the exit statuses and the action's outputs for a few input sets.
set -euo pipefail
checkout=$(cd "$(dirname "$0")/.." && pwd)
cd "$checkout"

step() { printf '\n--- action-e2e: %s\n' "$*"; }
die() { printf 'action-e2e: FAIL: %s\n' "$*" >&2; exit 1; }

work=$(mktemp -d)
known=.action-e2e-baseline.json   # a baseline must be inside the repository: this checkout's, removed at the end
trap 'chmod -R u+w "$work" 2> /dev/null; rm -rf "$work" "$checkout/$known"' EXIT
runner_temp="$work/runner-temp"   # shared, so evalgate is built once, like a second use in a job
mkdir -p "$runner_temp"
go build -o "$work/action" ./.ci/action

passed=0
# scenario NAME WANT_STATUS [-with NAME=VALUE]...: runs the action ("" for any exit status); its
# outputs land in $work/NAME.out as NAME=VALUE lines.
scenario() {
  local name=$1 want=$2 status=0
  shift 2
  step "$name (want exit status $want)"
  "$work/action" run -runner-temp "$runner_temp" "$@" action.yml > "$work/$name.out" || status=$?
  sed 's/^/  output /' "$work/$name.out"
  [ -z "$want" ] || [ "$status" = "$want" ] || die "$name: exit status $status, want $want"
}
# output NAME KEY: the action output KEY of scenario NAME.
output() { sed -n "s/^$2=//p" "$work/$1.out"; }

scenario full-run 0 -with changed-only=false -with fail-on=none \
  -with category=evalgate-examples -with json-file="$work/report.json" -with junit-file="$work/junit.xml"
[ "$(output full-run fail)" -gt 0 ] || die "full-run: the failing examples must give fail > 0"
[ "$(output full-run pass)" -gt 0 ] || die "full-run: want passed results"
[ -n "$(output full-run score)" ] || die "full-run: no score output"
sarif=$(output full-run sarif-file)
case $sarif in /*) ;; *) die "full-run: sarif-file output is not an absolute path: '$sarif'" ;; esac
[ -s "$sarif" ] || die "full-run: no SARIF at $sarif"
[ "$(output full-run json-file)" = "$work/report.json" ] || die "full-run: json-file output is not $work/report.json"
[ -s "$work/report.json" ] || die "full-run: no JSON report"
[ -s "$work/junit.xml" ] || die "full-run: no JUnit report"
[ -s "$runner_temp/step-summary.md" ] || die "full-run: no job summary"
rm -f "$sarif"
passed=$((passed + 1))

scenario blocking 1 -with changed-only=false -with sarif-file="$work/blocking.sarif"
[ "$(output blocking fail)" -gt 0 ] || die "blocking: want fail > 0"
passed=$((passed + 1))

scenario paths 0 -with paths='
  examples/reference/skipped.md
examples/guide/install.md  
' -with sarif-file=
[ "$(output paths fail)" = 0 ] || die "paths: the passing pages gave fail=$(output paths fail)"
[ "$(output paths skip)" -gt 0 ] || die "paths: examples/reference/skipped.md must give a skip"
[ -z "$(output paths sarif-file)" ] || die "paths: sarif-file '' must write no SARIF"
passed=$((passed + 1))

scenario working-directory 1 -with working-directory=examples -with paths=failing/invalid.md -with sarif-file=
[ "$(output working-directory fail)" -gt 0 ] || die "working-directory: examples/failing/invalid.md must fail"
passed=$((passed + 1))

scenario no-judge 0 -with changed-only=false -with fail-on=none -with judge=none -with max-judge-calls=0 -with sarif-file=
[ "$(output no-judge pending)" = "$(output full-run pending)" ] || die "no-judge: pending $(output no-judge pending), want $(output full-run pending)"
passed=$((passed + 1))

for k in 1 2 3; do
  scenario "shard-$k" "" -with changed-only=false -with shard="$k/3" -with sarif-file= -with json-file="$work/shard-$k.json"
  [ -s "$work/shard-$k.json" ] || die "shard-$k: no JSON report"
done
scenario merge 1 -with merge="$work/shard-1.json
  $work/shard-2.json
$work/shard-3.json" -with sarif-file="$work/merged.sarif"
[ "$(output merge fail)" = "$(output blocking fail)" ] || die "merge: fail $(output merge fail), the whole run's $(output blocking fail)"
[ "$(output merge pass)" = "$(output blocking pass)" ] || die "merge: pass $(output merge pass), the whole run's $(output blocking pass)"
[ -s "$work/merged.sarif" ] || die "merge: no SARIF"
scenario merge-incomplete 2 -with merge="$work/shard-1.json" -with sarif-file=
scenario shard-changed-only 2 -with shard=1/3
passed=$((passed + 4))

# A shard set with a baseline (not the default file) merges with the same baseline; without it the merge
# is refused (exit 2), for the shards applied one.
go run ./cmd/evalgate baseline --baseline "$known" > /dev/null 2>&1 || die "baseline: could not write $known"
for k in 1 2; do
  scenario "bshard-$k" 0 -with changed-only=false -with shard="$k/2" -with sarif-file= -with fail-on=none \
    -with json-file="$work/bshard-$k.json" -with baseline="$known"
done
scenario merge-baseline 0 -with merge="$work/bshard-1.json
$work/bshard-2.json" -with sarif-file= -with fail-on=none -with baseline="$known"
[ "$(output merge-baseline fail)" = "$(output full-run fail)" ] || die "merge-baseline: fail $(output merge-baseline fail), the whole run's $(output full-run fail)"
passed=$((passed + 3))

# An input's line break never starts a workflow command of its own: the error echoes it escaped.
step "working-directory with a line break (want exit status 2, and no forged command)"
status=0
"$work/action" run -runner-temp "$runner_temp" -with working-directory=$'nope\n::warning title=forged::injected' \
  action.yml > "$work/wd-inject.out" 2> "$work/wd-inject.err" || status=$?
[ "$status" = 2 ] || die "wd-inject: exit status $status, want 2"
grep -q '^::error::evalgate action: input working-directory: no directory ' "$work/wd-inject.err" || die "wd-inject: no error line"
if grep -q '^::warning' "$work/wd-inject.err"; then die "wd-inject: a forged ::warning line reached the log"; fi
passed=$((passed + 1))

scenario unknown-judge 2 -with changed-only=false -with judge=nope -with sarif-file=
scenario bad-changed-only 2 -with changed-only=maybe
scenario paths-and-all 2 -with changed-only=false -with paths=examples/guide/install.md
passed=$((passed + 3))

printf '\naction-e2e: %d passed, 0 failed\n' "$passed"
