#!/usr/bin/env bash
# Proves the NetworkPolicy agent enforces policies on a bridge, without the real node and without touching this
# machine's own network: everything happens in network namespaces this script makes and owns.
#   "node" namespace: the bridge br0 (10.88.0.1/24), etcd and kube-apiserver on its loopback (the node's ports),
#   the agent as start.sh starts it on the node (its state folder a temp one) and stop.sh stops it;
#   three "pod" namespaces on veths into br0: server 10.88.0.2 (app=server, nc listening on 8080),
#   client 10.88.0.3 (role=client) and other 10.88.0.4 (role=other).
# The API holds a Node, the three Pods (their status written here, playing the kubelet) and the policies; the agent
# runs with its own client certificate and rbac.yaml's rights. Traffic client/other -> server must be allowed with
# no policy, denied by a deny-all ingress policy, and with an allow rule selecting role=client, allowed for client
# and still denied for other; allowed again once the policies are gone; stop.sh must leave no table and no queue.
# Exits non-zero on the first failure; removes its namespaces, processes and temp folder on every exit path (the
# logs of a failed run stay in ${VARROA_CACHE:-~/.cache/varroa}/node/netpol-check-logs/). Needs root.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work=$(mktemp -d /tmp/varroa-netpol-check.XXXXXX)
# the node's layout and ports, with this run's own state folder; its ports are taken in the node namespace only
export VARROA_NODE_DIR=$work/node
# shellcheck source=test-fixtures/node/node.sh
source "$here/../node.sh"
# shellcheck source=test-fixtures/node/netpol/netpol.sh
source "$here/netpol.sh"

# fd 3 is stderr even inside a wait_for probe, whose own output is discarded
exec 3>&2
say() { echo "node/netpol/check.sh: $*" >&3; }
fail() { echo "node/netpol/check.sh: FAILED: $*" >&3; exit 1; }
started=$(date +%s.%N)
elapsed() { awk -v s="$started" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - s }'; }

pids=()        # processes this script started, in start order
declare -A NS  # namespace name -> PID of the process holding it

cleanup() {
  local rc=$? i pid deadline
  trap - EXIT INT TERM
  # the agent first, by stop.sh in the node namespace (never this machine's own), then by its pid
  if [[ -n ${NS[node]:-} ]] && kill -0 "${NS[node]}" 2>/dev/null; then inside node "$here/stop.sh" 2>/dev/null || true; fi
  [[ ! -f $NODE_DIR/pids/kube-network-policies ]] || pids+=("$(cat "$NODE_DIR/pids/kube-network-policies")")
  cp "$NODE_DIR/logs/kube-network-policies.log" "$work/agent.log" 2>/dev/null || true
  for (( i = ${#pids[@]} - 1; i >= 0; i-- )); do kill "${pids[i]}" 2>/dev/null || true; done
  for pid in "${NS[@]}"; do kill "$pid" 2>/dev/null || true; done
  deadline=$(( $(date +%s) + 15 ))
  for pid in ${pids[@]+"${pids[@]}"} "${NS[@]}"; do
    while kill -0 "$pid" 2>/dev/null; do
      (( $(date +%s) < deadline )) || { kill -9 "$pid" 2>/dev/null || true; break; }
      sleep 0.1
    done
  done
  if (( rc != 0 )); then
    rm -rf "$NETPOL_CACHE/netpol-check-logs"
    mkdir -p "$NETPOL_CACHE/netpol-check-logs"
    cp "$work"/*.log "$NETPOL_CACHE/netpol-check-logs/" 2>/dev/null || true
    say "logs of this run in $NETPOL_CACHE/netpol-check-logs/"
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# inside NAMESPACE_NAME COMMAND...: run a command in one of this script's network namespaces
inside() { local ns=$1; shift; nsenter -t "${NS[$ns]}" -n -- "$@"; }

[[ $(id -u) -eq 0 ]] || fail "needs root (network namespaces, nftables in them): run it as root"
"$here/../../kube/install.sh" >/dev/null
"$here/install.sh" >/dev/null
for tool in unshare nsenter ip openssl nc awk; do
  command -v "$tool" >/dev/null || fail "no $tool on PATH"
done
# this machine's own tables of the agent's name, read only (another node on this machine may change its other tables)
root_agent_tables() { "$NETPOL_BIN" --list-nftables | grep -F "$NETPOL_TABLE" || true; }
root_tables_before=$(root_agent_tables)

NAMESPACE=netpol-check
SERVER_IP=10.88.0.2 SERVER_PORT=8080
# names of this script's pod namespaces and their addresses
declare -A POD_IP=([server]=$SERVER_IP [client]=10.88.0.3 [other]=10.88.0.4)
declare -A POD_LABEL=([server]="app: server" [client]="role: client" [other]="role: other")

# background NAME NAMESPACE_NAME COMMAND...: start a process there, logged to $work/NAME.log
background() {
  local name=$1 ns=$2; shift 2
  nsenter -t "${NS[$ns]}" -n -- "$@" > "$work/$name.log" 2>&1 < /dev/null &
  pids+=($!)
}
wait_for() { # what deadline-seconds command...
  local what=$1 seconds=$2 deadline=$(( $(date +%s) + $2 )); shift 2
  until "$@" >/dev/null 2>&1; do
    (( $(date +%s) < deadline )) || fail "$what did not happen within $seconds s"
    sleep 0.2
  done
}

# --- the namespaces: each held by a process that also ends when this script does, even on SIGKILL ------------
for ns in node server client other; do
  unshare --net -- tail --pid=$$ -f /dev/null &
  NS[$ns]=$!
done
inside node ip link set lo up
inside node ip link add br0 type bridge
inside node ip addr add 10.88.0.1/24 dev br0
inside node ip link set br0 up
# bridged traffic passes the inet hooks, as on the node (br_netfilter's switch is per namespace on this kernel)
inside node sh -c 'echo 1 > /proc/sys/net/bridge/bridge-nf-call-iptables' \
  || fail "net.bridge.bridge-nf-call-iptables is not settable in a network namespace here (br_netfilter missing)"
for pod in server client other; do
  inside node ip link add "v-$pod" type veth peer name eth0 netns "${NS[$pod]}"
  inside node ip link set "v-$pod" master br0 up
  inside "$pod" ip link set lo up
  inside "$pod" ip addr add "${POD_IP[$pod]}/24" dev eth0
  inside "$pod" ip link set eth0 up
done
background server-nc server nc -lk "$SERVER_IP" "$SERVER_PORT"
say "namespaces and bridge ready ($(elapsed) s)"

connects() { inside "$1" nc -z -w 2 "$SERVER_IP" "$SERVER_PORT"; }
refused() { ! connects "$1"; }
# expect POD allowed|denied: wait until it holds (the agent syncs within seconds), then check it twice more
expect() {
  local pod=$1 want=$2 probe=connects i
  [[ $want == denied ]] && probe=refused
  wait_for "$pod -> server $want" 30 "$probe" "$pod"
  for i in 1 2; do "$probe" "$pod" || fail "$pod -> server was $want, then not (probe $i)"; done
  say "$pod -> server:$SERVER_PORT $want ($(elapsed) s)"
}

# the bridge carries traffic before any agent runs, so a refusal later is the agent's doing
expect client allowed
# the kernel must take every kind of rule the agent writes; the agent would also refuse to start without
kernel_report=$(inside node "$NETPOL_BIN" --check-kernel 2>&1) || fail "${kernel_report#kube-network-policies: }"

# --- etcd and kube-apiserver on the node namespace's loopback ---------------------------------------------------
mkdir -p "$NODE_DIR/pids" "$NODE_DIR/logs"
touch "$NODE_DIR/.varroa-node"
P=$NODE_DIR/pki
"$here/../pki.sh" "$P" "$NODE_NAME" 10.88.0.1 "https://127.0.0.1:$APISERVER_PORT" >/dev/null
background etcd node "$KUBE_BIN/etcd" --data-dir "$work/etcd" --unsafe-no-fsync \
  --listen-client-urls "http://127.0.0.1:$ETCD_CLIENT_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_CLIENT_PORT" \
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-cluster "default=http://127.0.0.1:$ETCD_PEER_PORT" --listen-metrics-urls ""
background kube-apiserver node "$KUBE_BIN/kube-apiserver" --etcd-servers "http://127.0.0.1:$ETCD_CLIENT_PORT" \
  --secure-port "$APISERVER_PORT" --bind-address 127.0.0.1 --advertise-address 10.88.0.1 \
  --service-cluster-ip-range "$SERVICE_CIDR" \
  --tls-cert-file "$P/apiserver.crt" --tls-private-key-file "$P/apiserver.key" --client-ca-file "$P/ca.crt" \
  --service-account-key-file "$P/sa.pub" --service-account-signing-key-file "$P/sa.key" \
  --service-account-issuer https://kubernetes.default.svc.cluster.local --authorization-mode Node,RBAC
kubectl() { inside node "$KUBE_BIN/kubectl" --kubeconfig "$P/admin.kubeconfig" "$@"; }
# generous: this machine is shared and an API server's start slows under others' builds
wait_for "kube-apiserver ready" 180 kubectl get --raw /readyz
say "API server ready ($(elapsed) s)"

# --- what the kubelet and a user would have put in the API ------------------------------------------------------
kubectl apply -f - >/dev/null <<YAML
apiVersion: v1
kind: Node
metadata: {name: $NODE_NAME}
---
apiVersion: v1
kind: Namespace
metadata: {name: $NAMESPACE}
YAML
# the ServiceAccount admission needs the namespace's default account; no controller manager makes it here
wait_for "namespace $NAMESPACE" 30 kubectl -n "$NAMESPACE" get namespace "$NAMESPACE"
kubectl -n "$NAMESPACE" create serviceaccount default >/dev/null
for pod in server client other; do
  kubectl -n "$NAMESPACE" apply -f - >/dev/null <<YAML
apiVersion: v1
kind: Pod
metadata:
  name: $pod
  labels: {${POD_LABEL[$pod]}}
spec:
  nodeName: $NODE_NAME
  automountServiceAccountToken: false
  containers: [{name: main, image: localhost/varroa-test/none:0}]
YAML
  kubectl -n "$NAMESPACE" patch pod "$pod" --subresource=status --type=merge \
    -p "{\"status\":{\"phase\":\"Running\",\"podIP\":\"${POD_IP[$pod]}\",\"podIPs\":[{\"ip\":\"${POD_IP[$pod]}\"}]}}" >/dev/null
done

# --- the agent, as the node runs it ------------------------------------------------------------------------------
VARROA_NODE_NETPOL=required inside node "$here/start.sh" || fail "start.sh could not start the agent: $(cat "$NODE_DIR/netpol" 2>/dev/null)"
[[ $(cat "$NODE_DIR/netpol") == enforced:* ]] || fail "start.sh recorded: $(cat "$NODE_DIR/netpol")"
say "agent up ($(elapsed) s)"

# --- traffic ---------------------------------------------------------------------------------------------------------
dropped_packets() {
  inside node curl -sf "http://127.0.0.1:$NETPOL_METRICS_PORT/metrics" \
    | awk '/^kube_network_policies_packet_count\{.*verdict="drop"/ { n += $NF } END { print n + 0 }'
}

say "no policy"
expect client allowed
expect other allowed

say "deny-all ingress policy on app=server"
kubectl -n "$NAMESPACE" apply -f - >/dev/null <<'YAML'
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: server-deny-all-ingress}
spec:
  podSelector: {matchLabels: {app: server}}
  policyTypes: [Ingress]
YAML
expect client denied
expect other denied
drops=$(dropped_packets)
(( drops > 0 )) || fail "connections were refused but the agent counted no dropped packet: something else dropped them"
say "the agent dropped $drops packets"

say "allow ingress from role=client on TCP $SERVER_PORT"
kubectl -n "$NAMESPACE" apply -f - >/dev/null <<YAML
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: server-allow-clients}
spec:
  podSelector: {matchLabels: {app: server}}
  policyTypes: [Ingress]
  ingress:
    - from: [{podSelector: {matchLabels: {role: client}}}]
      ports: [{protocol: TCP, port: $SERVER_PORT}]
YAML
expect client allowed
expect other denied

say "policies deleted"
kubectl -n "$NAMESPACE" delete networkpolicy --all >/dev/null
expect other allowed

say "stop.sh"
inside node "$here/stop.sh" || fail "stop.sh failed"
agent_gone() {
  ! inside node awk -v q="$NETPOL_QUEUE_ID" '$1 == q { found = 1 } END { exit !found }' /proc/net/netfilter/nfnetlink_queue \
    && ! inside node "$NETPOL_BIN" --list-nftables | grep -q "$NETPOL_TABLE"
}
agent_gone || fail "after stop.sh the node namespace still has the agent's queue $NETPOL_QUEUE_ID or a table named $NETPOL_TABLE"

[[ $(root_agent_tables) == "$root_tables_before" ]] \
  || fail "this machine's own nftables tables named $NETPOL_TABLE changed during the check"
say "PASSED: the agent enforces NetworkPolicy on a bridge here ($(elapsed) s)"
