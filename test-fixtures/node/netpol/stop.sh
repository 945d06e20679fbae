#!/usr/bin/env bash
# Stops the real node's NetworkPolicy agent and leaves none of its state: SIGTERM (the agent deletes its nftables
# table and releases its queue), SIGKILL after 15 s, then `--cleanup` deletes the table should the agent have died
# without. Run by down.sh before it stops kube-proxy. Safe to run twice and on a node where the agent never ran.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=test-fixtures/node/node.sh
source "$here/../node.sh"
# shellcheck source=test-fixtures/node/netpol/netpol.sh
source "$here/netpol.sh"
say() { echo "node/netpol/stop.sh: $*" >&2; }
[[ $(id -u) -eq 0 ]] || { say "the agent runs as root: run stop.sh as root"; exit 1; }

if pid=$(node_pid kube-network-policies); then
  kill "$pid" 2>/dev/null
  deadline=$(( $(date +%s) + 15 ))
  while kill -0 "$pid" 2>/dev/null; do
    (( $(date +%s) < deadline )) || { say "the agent (pid $pid) did not stop in 15 s: killing it"; kill -9 "$pid" 2>/dev/null; break; }
    sleep 0.2
  done
fi
rm -f "$NODE_DIR/pids/kube-network-policies"
# only a table that is there is touched; no binary built means no agent ever ran
if [[ -x $NETPOL_BIN ]] && "$NETPOL_BIN" --list-nftables | grep -qx "nftables inet $NETPOL_TABLE"; then
  say "the agent left its table inet $NETPOL_TABLE: deleting it"
  "$NETPOL_BIN" --cleanup --nftables-table "$NETPOL_TABLE" || { say "could not delete nftables table inet $NETPOL_TABLE"; exit 1; }
fi
exit 0
