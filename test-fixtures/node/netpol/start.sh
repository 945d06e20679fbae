#!/usr/bin/env bash
# Starts the NetworkPolicy agent (kube-network-policies v0.8.0) on the real node as a host process beside
# kube-proxy: its own client certificate from the node's CA, rbac.yaml's rights, the node's name (only pods with
# that spec.nodeName are enforced), its pid in pids/ and its log in logs/ of the node's state folder. Run by up.sh
# once the API server answers. Idempotent.
# The outcome, one line, goes to $NODE_DIR/netpol: "enforced: …" or "not enforced: <reason>". A kernel that cannot
# hold the agent's rules leaves the node without enforcement (exit 0) unless VARROA_NODE_NETPOL=required (exit 1).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=test-fixtures/node/node.sh
source "$here/../node.sh"
# shellcheck source=test-fixtures/node/netpol/netpol.sh
source "$here/netpol.sh"
say() { echo "node/netpol/start.sh: $*" >&2; }
die() { echo "node/netpol/start.sh: $*" >&2; echo "not enforced: $*" > "$NODE_DIR/netpol"; exit 1; }

[[ $(id -u) -eq 0 ]] || { say "the agent writes nftables rules and reads an NFQUEUE: run it as root"; exit 1; }
[[ -f $NODE_DIR/.varroa-node && -f $NODE_DIR/pki/ca.key ]] \
  || { say "no node in $NODE_DIR (no .varroa-node or pki/ca.key): run test-fixtures/node/up.sh first"; exit 1; }
node_api_ready || { say "the node's API server does not answer on port $APISERVER_PORT: start it first"; exit 1; }
mkdir -p "$NODE_DIR/pids" "$NODE_DIR/logs"
if node_pid kube-network-policies >/dev/null && netpol_ready; then
  say "already running"
  exit 0
fi

"$here/install.sh" >/dev/null
if ! report=$("$NETPOL_BIN" --check-kernel 2>&1); then
  reason=${report#kube-network-policies: }
  echo "not enforced: $reason" > "$NODE_DIR/netpol"
  say "NetworkPolicy is NOT enforced on this node: $reason"
  [[ ${VARROA_NODE_NETPOL:-optional} != required ]] || exit 1
  exit 0
fi
(exec 3<>"/dev/tcp/127.0.0.1/$NETPOL_METRICS_PORT") 2>/dev/null \
  && die "port $NETPOL_METRICS_PORT (the agent's metrics) is taken (ss -ltnp 'sport = :$NETPOL_METRICS_PORT' names the process)"

netpol_identity "$NODE_DIR/pki" "https://127.0.0.1:$APISERVER_PORT"
node_kubectl apply -f "$here/rbac.yaml" >/dev/null || die "could not apply $here/rbac.yaml to the node's API server"
setsid "$NETPOL_BIN" --kubeconfig "$NODE_DIR/pki/kube-network-policies.kubeconfig" --hostname-override "$NODE_NAME" \
  --nfqueue-id "$NETPOL_QUEUE_ID" --nftables-table "$NETPOL_TABLE" \
  --metrics-bind-address "127.0.0.1:$NETPOL_METRICS_PORT" > "$NODE_DIR/logs/kube-network-policies.log" 2>&1 < /dev/null &
pid=$!
echo "$pid" > "$NODE_DIR/pids/kube-network-policies"
deadline=$(( $(date +%s) + 60 ))
until netpol_ready; do
  kill -0 "$pid" 2>/dev/null || die "the agent exited: $(tail -n 1 "$NODE_DIR/logs/kube-network-policies.log")"
  (( $(date +%s) < deadline )) \
    || die "the agent bound no queue $NETPOL_QUEUE_ID or wrote no table inet $NETPOL_TABLE within 60 s; log: $NODE_DIR/logs/kube-network-policies.log"
  sleep 0.2
done
echo "enforced: kube-network-policies v0.8.0 (nfqueue $NETPOL_QUEUE_ID, nftables table inet $NETPOL_TABLE)" > "$NODE_DIR/netpol"
say "NetworkPolicy enforced by kube-network-policies v0.8.0 (pid $pid, metrics on 127.0.0.1:$NETPOL_METRICS_PORT)"
