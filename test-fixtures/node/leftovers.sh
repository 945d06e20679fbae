#!/usr/bin/env bash
# Prints what of this machine a node could change, one sorted line per thing: processes of the node's programs,
# mounts, network links, iptables chains and rules, cgroups, the folders kubelet and containerd hard-code, and the
# sysctls up.sh sets. Taken before up.sh and after down.sh, the two must be equal (NodeLifecycleIT, `make node-check`).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=test-fixtures/node/node.sh
source "$here/node.sh"

# processes by program name (their PIDs change; their presence must not)
for program in containerd containerd-shim-runc-v2 runc etcd kube-apiserver kube-apiserver.bin kube-controller-manager \
    kube-scheduler kubelet kube-proxy coredns pause; do
  pgrep -x "$program" >/dev/null 2>&1 && echo "process $program"
done
awk '{ print "mount " $2 " " $3 }' /proc/mounts
ip -o link show 2>/dev/null | awk -F': ' '{ sub(/@.*/, "", $2); print "link " $2 }'
for ipt in iptables ip6tables; do
  for table in nat filter mangle raw; do
    # rules without their counters; chains by name
    $ipt -t "$table" -S 2>/dev/null | sed -E 's/ -c [0-9]+ [0-9]+//' | sed "s/^/$ipt $table /"
  done
done
# process_api/<id>: this machine's own job runner makes and removes one a job, whatever the node does
find /sys/fs/cgroup -mindepth 1 -maxdepth 3 -type d -not -path '*/process_api/*' 2>/dev/null | sed 's/^/cgroup /'
for path in /var/lib/kubelet /var/log/pods /var/log/containers /run/containerd /opt/containerd /var/lib/cni /etc/cni \
    /run/netns /var/run/netns /var/lib/containerd /opt/cni; do
  [[ -e $path ]] && echo "path $path"
done
echo "sysctl ip_forward $(cat /proc/sys/net/ipv4/ip_forward)"
echo "sysctl bridge-nf-call-iptables $(cat /proc/sys/net/bridge/bridge-nf-call-iptables 2>/dev/null || echo absent)"
[[ -e $NODE_DIR ]] && echo "path $NODE_DIR"
true
