#!/usr/bin/env bash
# SARIF against a real client: Microsoft's SARIF Multitool validates evalgate's
# SARIF with the SARIF 2.1.0 schema and rules plus GitHub's ingestion rules
# (--rule-kind "Gh;Sarif"), on every golden file internal/report/testdata/*.sarif
# and on a SARIF report of a real run over the repository's examples. Any
# result of level error fails.
set -euo pipefail
checkout=$(cd "$(dirname "$0")/.." && pwd)
cd "$checkout"

multitool_version=5.7.0

step() { printf '\n--- sarif-validate: %s\n' "$*"; }
die() { printf 'sarif-validate: FAIL: %s\n' "$*" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! command -v npm > /dev/null || ! command -v node > /dev/null; then
  step "installing Debian's nodejs and npm"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm > /dev/null
fi
command -v python3 > /dev/null || die "python3 is missing (it reads the validation logs)"

step "installing @microsoft/sarif-multitool@$multitool_version with npm"
npm install --prefix "$work/tool" --no-audit --no-fund --loglevel=error \
  "@microsoft/sarif-multitool@$multitool_version" > /dev/null
# `npx sarif-multitool` starts the tool through a shell (the package's bin.js
# spawns it with shell: true), where the `;` of "Gh;Sarif" ends the command:
# run the same platform binary that npx would, without a shell.
multitool=$(cd "$work/tool" && node -p "require('@microsoft/sarif-multitool')")
chmod u+x "$multitool"   # what the package's postinstall does, which npm may skip
# A self-contained .NET program: no ICU needed for validation.
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 DOTNET_CLI_TELEMETRY_OPTOUT=1
"$multitool" --version || die "sarif-multitool does not run"

files=()
shopt -s nullglob
golden=(internal/report/testdata/*.sarif)
shopt -u nullglob
if [ "${#golden[@]}" -eq 0 ]; then
  die "no golden SARIF file yet: internal/report/testdata/*.sarif must hold the SARIF writer's golden output"
fi
files+=("${golden[@]}")

step "a SARIF report of evalgate on the repository's examples"
sarif="$work/examples.sarif"
status=0
go run ./cmd/evalgate check --all --fail-on none --category evalgate-examples --sarif "$sarif" \
  > "$work/examples.txt" 2> "$work/examples.err" || status=$?
tail -n 1 "$work/examples.txt" || true
if [ "$status" -ne 0 ] || [ ! -s "$sarif" ]; then
  cat "$work/examples.err" >&2
  die "evalgate check --all --fail-on none --sarif exited $status, writing ${sarif}: $(test -s "$sarif" && echo a report || echo nothing)"
fi
python3 - "$sarif" <<'PY' || die "the examples' SARIF is not what the examples should give"
import json, sys
log = json.load(open(sys.argv[1], encoding="utf-8"))
runs = log.get("runs") or []
assert log.get("version") == "2.1.0", "version is not 2.1.0"
assert len(runs) == 1, "want one run, got %d" % len(runs)
results = runs[0].get("results") or []
assert results, "no results, but examples/failing fails on purpose"
auto = (runs[0].get("automationDetails") or {}).get("id")
assert auto == "evalgate-examples/", "automationDetails.id is %r, want 'evalgate-examples/'" % auto
print("examples.sarif: %d results, category %s" % (len(results), auto))
PY
files+=("$sarif")

fails=0
for f in "${files[@]}"; do
  step "sarif-multitool validate $f"
  out="$work/validation-$(basename "$f")"
  rm -f "$out"
  status=0
  "$multitool" validate "$f" --output "$out" --log ForceOverwrite --rule-kind "Gh;Sarif" \
    > "$work/validate.log" 2>&1 || status=$?
  if [ ! -s "$out" ]; then
    cat "$work/validate.log" >&2
    die "sarif-multitool wrote no validation log for $f (exit $status)"
  fi
  if ! python3 - "$out" <<'PY'; then fails=$((fails + 1)); fi
import json, re, sys
log = json.load(open(sys.argv[1], encoding="utf-8-sig"))
errors = 0
for run in log.get("runs") or []:
    rules = {r.get("id"): r for r in (run.get("tool", {}).get("driver", {}).get("rules") or [])}
    def text(msg, rule_id):
        if msg.get("text"):
            return msg["text"]
        strings = (rules.get(rule_id) or {}).get("messageStrings") or {}
        t = (strings.get(msg.get("id")) or {}).get("text", msg.get("id", "?"))
        args = msg.get("arguments") or []
        return re.sub(r"\{(\d+)\}", lambda m: args[int(m.group(1))] if int(m.group(1)) < len(args) else m.group(0), t)
    for r in run.get("results") or []:
        level = r.get("level", "warning")
        where = ""
        for loc in r.get("locations") or []:
            pl = loc.get("physicalLocation") or {}
            where = " at line %s" % (pl.get("region") or {}).get("startLine", "?")
        print("  %s: %s%s: %s" % (level, r.get("ruleId"), where, text(r.get("message") or {}, r.get("ruleId"))))
        errors += level == "error"
    for inv in run.get("invocations") or []:
        for n in (inv.get("toolExecutionNotifications") or []) + (inv.get("toolConfigurationNotifications") or []):
            level = n.get("level", "warning")
            print("  %s (tool notification): %s" % (level, (n.get("message") or {}).get("text", "")))
            errors += level == "error"
print("  %d error(s)" % errors)
sys.exit(1 if errors else 0)
PY
done

checked=${#files[@]}
printf '\nsarif-validate: %d passed, %d failed\n' "$((checked - fails))" "$fails"
[ "$fails" -eq 0 ] || die "$fails SARIF file(s) have validation errors"
