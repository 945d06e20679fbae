#!/usr/bin/env bash
# Proves the node leaves nothing behind: takes leftovers.sh's picture of the machine, runs COMMAND (default: up.sh
# then down.sh), takes it again, and fails with the difference when the two pictures differ.
# usage: check.sh [COMMAND...]   e.g. check.sh mvn -pl reconcilers surefire:test -Dgroups=real-node
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=test-fixtures/node/node.sh
source "$here/node.sh"
die() { echo "node/check.sh: $*" >&2; exit 1; }

if [[ -d $NODE_DIR ]]; then
  die "a node is up (state in $NODE_DIR): run test-fixtures/node/down.sh first, the check needs the machine without one"
fi
before=$(mktemp) after=$(mktemp)
trap 'rm -f "$before" "$after"' EXIT
"$here/leftovers.sh" | sort > "$before"
if (( $# )); then
  "$@"; rc=$?
else
  "$here/up.sh" > /dev/null && "$here/down.sh"; rc=$?
fi
# a command that failed may have left its node up: take it down before comparing
[[ ! -d $NODE_DIR ]] || "$here/down.sh"
"$here/leftovers.sh" | sort > "$after"
if ! diff -u "$before" "$after" > /dev/null; then
  echo "node/check.sh: the machine is not as it was before the node (- before, + after):" >&2
  diff -u "$before" "$after" | tail -n +3 >&2
  exit 1
fi
echo "node/check.sh: nothing left behind ($(wc -l < "$before") things compared)" >&2
exit "$rc"
