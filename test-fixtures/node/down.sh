#!/usr/bin/env bash
# Takes the node of up.sh away and leaves nothing behind on the machine: workloads deleted while kubelet still
# runs (so the CNI plugin removes its rules and addresses), the processes stopped, kube-proxy's chains cleaned,
# the shims stopped by their socket, mounts under the state folder unmounted, the bridge, the iptables rules
# and chains, the pods' cgroups and what kubelet writes outside the state folder removed, the sysctls put back,
# and the state folder deleted (its logs kept in ${VARROA_CACHE:-~/.cache/varroa}/node/last-logs). Safe to run
# twice, and on a node that never came up.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=test-fixtures/node/node.sh
source "$here/node.sh"
say() { echo "node/down.sh: $*" >&2; }
[[ $(id -u) -eq 0 ]] || { say "the node runs as root: run down.sh as root"; exit 1; }
[[ -d $NODE_DIR ]] || { say "no node state in $NODE_DIR: nothing to do"; exit 0; }
# the folder is deleted at the end: only one up.sh marked as a node's
[[ -f $NODE_DIR/.varroa-node ]] || { say "$NODE_DIR is not a node's state folder (no .varroa-node): not touching it"; exit 1; }

wait_until() { # deadline-seconds command...
  local deadline=$(( $(date +%s) + $1 )); shift
  until "$@" >/dev/null 2>&1; do (( $(date +%s) < deadline )) || return 1; sleep 0.3; done
}
no_pods_left() { [[ -z $(node_kubectl get pods -A --no-headers 2>/dev/null) ]]; }
stop_process() {
  local name=$1 pid
  pid=$(node_pid "$name") || { rm -f "$NODE_DIR/pids/$name"; return 0; }
  kill "$pid" 2>/dev/null
  wait_until 15 bash -c "! kill -0 $pid" || kill -9 "$pid" 2>/dev/null
  rm -f "$NODE_DIR/pids/$name"
}

# 1. While kubelet runs it tears pods down properly (CNI DEL, unmounts): stop what makes pods, then delete them;
#    the node's own namespaces last, since the volume driver must outlive the pods that use its volumes.
node_namespaces=(kube-system varroa-test-csi)
delete_workloads() { # namespace...
  local ns
  for ns in "$@"; do
    node_kubectl -n "$ns" delete deployment,statefulset,daemonset,replicaset,job,cronjob --all --wait=false >/dev/null 2>&1
    node_kubectl -n "$ns" delete pods --all --grace-period=2 --wait=false >/dev/null 2>&1
  done
}
no_pods_in() { # namespace...
  local ns
  for ns in "$@"; do [[ -z $(node_kubectl -n "$ns" get pods --no-headers 2>/dev/null) ]] || return 1; done
}
if node_pid kubelet >/dev/null && node_api_ready; then
  mapfile -t workload_namespaces < <(node_kubectl get namespaces -o name 2>/dev/null | sed 's#^namespace/##' \
    | grep -vxF -e kube-system -e varroa-test-csi)
  delete_workloads "${workload_namespaces[@]}"
  wait_until 120 no_pods_in "${workload_namespaces[@]}" || say "workload pods still there after 120 s"
  delete_workloads "${node_namespaces[@]}"
  wait_until 60 no_pods_left || say "pods still there after 60 s: removing them the hard way"
fi

# 2. The processes, in reverse start order; then kube-proxy's own cleanup of its KUBE-* chains.
for (( i = ${#NODE_PROCESSES[@]} - 1; i >= 0; i-- )); do
  [[ ${NODE_PROCESSES[i]} == containerd ]] || stop_process "${NODE_PROCESSES[i]}"
done
[[ -x $KUBE_BIN/kube-proxy ]] && "$KUBE_BIN/kube-proxy" --cleanup >/dev/null 2>&1

# 3. Containers left (a pod kubelet could not finish), containerd, then the shims: once containerd is gone they
#    belong to init, so they are found by the socket address on their command line.
export CONTAINERD_ADDRESS=$NODE_DIR/ctr/containerd.sock
if node_pid containerd >/dev/null; then
  for task in $(ctr -n k8s.io tasks ls -q 2>/dev/null); do ctr -n k8s.io tasks kill -s KILL "$task" >/dev/null 2>&1; done
  for task in $(ctr -n k8s.io tasks ls -q 2>/dev/null); do ctr -n k8s.io tasks rm -f "$task" >/dev/null 2>&1; done
fi
stop_process containerd
for pid in $(pgrep -f "containerd-shim-runc-v2 .*-address $NODE_DIR/ctr/containerd.sock" 2>/dev/null); do
  kill -9 "$pid" 2>/dev/null
done
for pid in $(pgrep -f "$NODE_DIR" 2>/dev/null); do
  [[ $pid == "$$" ]] || kill -9 "$pid" 2>/dev/null
done

# 4. Mounts under the state folder, deepest first (lazily: a dying process may still hold one).
awk -v d="$NODE_DIR" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r | while read -r mount; do
  umount -l "$mount" 2>/dev/null
done

# 5. The network: the bridge and the veths left on it, the CNI plugins' and kube-proxy's iptables rules and chains.
ip link del "$BRIDGE" 2>/dev/null
for ipt in iptables ip6tables; do
  for table in nat filter mangle; do
    rules=$($ipt -t "$table" -S 2>/dev/null) || continue
    grep -E '^-A' <<< "$rules" | grep -E "name: \"?$CNI_NETWORK|-j (KUBE|CNI)-" | sed 's/^-A/-D/' | while read -r rule; do
      eval "$ipt -t $table $rule" 2>/dev/null
    done
    for flush in -F -X; do
      for chain in $(awk '/^-N (KUBE|CNI)-/ { print $2 }' <<< "$rules"); do $ipt -t "$table" "$flush" "$chain" 2>/dev/null; done
    done
  done
done

# 6. The pods' cgroups, deepest first (kubelet with cgroupfs makes kubepods/ in each hierarchy).
for hierarchy in /sys/fs/cgroup/*/; do
  [[ -d ${hierarchy}kubepods ]] && find "${hierarchy}kubepods" -depth -type d -exec rmdir {} + 2>/dev/null
done

# 7. What kubelet and containerd hard-code outside the state folder, and the sysctls, as they were before up.
saved=$NODE_DIR/machine.saved
existed() { [[ -f $saved ]] && grep -qx "existed=$1" "$saved"; }
existed /var/lib/kubelet || rm -rf /var/lib/kubelet
existed /var/log/containers || rm -rf /var/log/containers
existed /var/log/pods || rm -rf /var/log/pods
existed /run/containerd || rm -rf /run/containerd
existed /var/lib/cni || rm -rf /var/lib/cni   # libcni's result cache
if [[ -f $saved ]]; then
  value=$(sed -n 's/^ip_forward=//p' "$saved"); [[ -z $value ]] || echo "$value" > /proc/sys/net/ipv4/ip_forward
  value=$(sed -n 's/^bridge_nf_call_iptables=//p' "$saved")
  [[ -z $value || $value == absent ]] || echo "$value" > /proc/sys/net/bridge/bridge-nf-call-iptables
fi

# 8. The state folder; the logs stay in the cache for a post-mortem.
if [[ -d $NODE_DIR/logs ]]; then
  rm -rf "$NODE_CACHE/last-logs"
  cp -r "$NODE_DIR/logs" "$NODE_CACHE/last-logs"
  # the containers' own output (a pod that crash-looped says why only there)
  if [[ -d $NODE_DIR/pod-logs ]]; then
    cp -rL "$NODE_DIR/pod-logs" "$NODE_CACHE/last-logs/pods" 2>/dev/null || true
  fi
fi
rm -rf "$NODE_DIR" 2>/dev/null || { sleep 1; rm -rf "$NODE_DIR"; }
say "node down; state folder removed, logs in $NODE_CACHE/last-logs"
