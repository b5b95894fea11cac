#!/usr/bin/env bash
# End-to-end test of .pre-commit-hooks.yaml with a real pre-commit (Debian's):
# a throwaway repository whose .pre-commit-config.yaml points at this checkout
# commits pages through `git commit`, and the hooks must refuse the bad ones
# with the finding printed and let the good ones through. pre-commit builds
# cmd/evalgate itself (`go install ./...`, the system Go, the Go module proxy).
set -euo pipefail
checkout=$(cd "$(dirname "$0")/.." && pwd)

step() { printf '\n--- precommit-e2e: %s\n' "$*"; }
die() { printf 'precommit-e2e: FAIL: %s\n' "$*" >&2; exit 1; }

if ! command -v pre-commit > /dev/null; then
  step "installing Debian's pre-commit"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pre-commit > /dev/null
fi
command -v git > /dev/null || die "git is missing"
command -v go > /dev/null || die "go is missing (pre-commit builds the hook with the system Go)"
echo "pre-commit: $(pre-commit --version); $(go version)"

step "pre-commit validate-manifest .pre-commit-hooks.yaml"
pre-commit validate-manifest "$checkout/.pre-commit-hooks.yaml" || die ".pre-commit-hooks.yaml is not a valid manifest"

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2> /dev/null; rm -rf "$work"' EXIT
export PRE_COMMIT_HOME="$work/pre-commit-home"   # a fresh hook environment
export GOMODCACHE                                 # reuse the modules already downloaded
GOMODCACHE=$(go env GOMODCACHE)

# The hook repository: this checkout's files as one commit, so that the test
# sees uncommitted changes too (pre-commit clones the repository at `rev:`).
step "snapshot of $checkout as the hook repository"
hooks="$work/hooks"
mkdir -p "$hooks"
git -C "$checkout" ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do
    if [ -e "$checkout/$f" ] || [ -L "$checkout/$f" ]; then printf '%s\0' "$f"; fi
  done |
  tar -C "$checkout" --null -T - -cf - | tar -C "$hooks" -xf -
[ -f "$hooks/.pre-commit-hooks.yaml" ] || die "no .pre-commit-hooks.yaml in the checkout"
git -C "$hooks" init -q
git -C "$hooks" add -A
git -C "$hooks" -c user.name=ci -c user.email=ci@localhost commit -q -m snapshot
rev=$(git -C "$hooks" rev-parse HEAD)
echo "hook repository $hooks at $rev"

step "a repository using both hooks"
repo="$work/repo"
mkdir -p "$repo"
cd "$repo"
git init -q
git config user.name ci
git config user.email ci@localhost
git config commit.gpgsign false
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: evalgate-validate
      - id: evalgate
YAML
cat .pre-commit-config.yaml
pre-commit install
git add .pre-commit-config.yaml
git commit -q -m "pre-commit config" || die "committing the config alone failed"

# commit_expect refused|accepted MESSAGE WANT...: `git commit` must end as
# told, printing every WANT.
commit_expect() {
  local expect=$1 msg=$2 out got=accepted
  shift 2
  out=$(git commit -m "$msg" 2>&1 < /dev/null) || got=refused
  printf '%s\n' "$out"
  [[ $got == "$expect" ]] || die "the commit \"$msg\" was $got"
  local want
  for want in "$@"; do
    grep -qF -- "$want" <<< "$out" || die "the commit \"$msg\" ($got) does not say: $want"
  done
  echo "$got, as it should be"
}

commit_refused() { commit_expect refused "$@"; }
commit_accepted() { commit_expect accepted "$@"; }

step "an invalid evals definition is refused by evalgate-validate (pre-commit builds the hook first)"
mkdir -p docs
cat > docs/guide.md <<'MD'
---
title: Guide
evals:
  - id: Bad_Id
    grader: tool:headings
    options: {required: ["Install"]}
---
# Guide

## Install
MD
git add docs/guide.md
commit_refused "broken page" "evalgate validate" "Failed" "docs/guide.md:4:" "[invalid_id]"
[ "$(git rev-list --count HEAD)" = 1 ] || die "a refused commit was recorded"

step "the fixed page is accepted by both hooks"
sed -i 's/Bad_Id/has-install/' docs/guide.md
printf '{"not": "selected by any config"}\n' > docs/data.json
git add docs/guide.md docs/data.json
commit_accepted "good page" "evalgate validate" "evalgate check" "Passed"
[ "$(git rev-list --count HEAD)" = 2 ] || die "the accepted commit is missing"

step "a valid page whose check fails passes evalgate-validate and is refused by evalgate"
cat > docs/links.md <<'MD'
---
evals:
  - id: links-resolve
    grader: tool:links
---
# Links

See [the missing page](missing.md).
MD
git add docs/links.md
commit_refused "broken link" "[broken_link]" "docs/links.md:"
grep -q "^evalgate validate\.*Passed" <<< "$(git commit -m again 2>&1 < /dev/null || true)" ||
  die "evalgate-validate should pass a valid definition"

step "a commit of only a companion file re-checks the page that reads it, and is refused"
git reset -q docs/links.md
rm docs/links.md
cat > docs/api.md <<'MD'
---
evals:
  - id: spec-done
    grader: tool:absent
    target: {source: file, path: api.yaml}
    options: {text: TODO}
---
# API
MD
printf 'openapi: 3.1.0\n' > docs/api.yaml
printf '#!/bin/sh\necho build\n' > build.sh
git add docs/api.md docs/api.yaml build.sh
out=$(git commit -m "api and its spec" 2>&1 < /dev/null) || { printf '%s\n' "$out"; die "the api page and its spec were refused"; }
printf '%s\n' "$out"
grep -q "not selected" <<< "$out" && die "an unrelated staged file (build.sh) was reported as not selected"
printf 'openapi: 3.1.0\n# TODO: paths\n' > docs/api.yaml
git add docs/api.yaml
commit_refused "only the spec" "[text_present]" "docs/api.yaml:2:"

printf '\nprecommit-e2e: 4 passed, 0 failed\n'
