#!/usr/bin/env bash
# The real memory of Varroa's pods on the real node (make node-up, with the chart installed as docs/install.md's
# "A tested install on the real node" does it): each container's RSS from its memory cgroup (cgroup v1:
# memory.stat total_rss), the largest of each workload's replicas, per container. Prints one figure a line, last:
#   figure: rss_<workload>_<container> <MiB> MiB
# usage: benchmarks/node/memory.sh [LABEL]   LABEL goes into the names (e.g. idle, events): rss_<LABEL>_<workload>_<container>
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=test-fixtures/node/node.sh
source "$here/../../test-fixtures/node/node.sh"
label=${1:+$1_}
[[ -f $NODE_DIR/admin.kubeconfig ]] || { echo "node/memory.sh: no node is up (make node-up)" >&2; exit 1; }

declare -A largest
while read -r namespace pod uid qos containers; do
  qos_dir=$(tr '[:upper:]' '[:lower:]' <<< "$qos")
  dir=/sys/fs/cgroup/memory/kubepods
  [[ $qos_dir == guaranteed ]] || dir=$dir/$qos_dir
  # the workload's name: the pod's without the ReplicaSet hash and pod suffix, or the StatefulSet ordinal
  workload=$(sed -E 's/-[a-z0-9]{8,10}-[a-z0-9]{5}$//; s/-[0-9]+$//; s/^sandbox-[0-9a-f]{8}$/jenkins-sandbox/' <<< "$pod")
  for entry in ${containers//,/ }; do
    name=${entry%%=*} id=${entry#*=containerd://}
    stat=$dir/pod$uid/$id/memory.stat
    [[ -r $stat ]] || continue
    rss=$(awk '$1 == "total_rss" { print $2 }' "$stat")
    key=${workload}_$name
    (( rss > ${largest[$key]:-0} )) && largest[$key]=$rss
  done
done < <(node_kubectl get pods -A -o jsonpath='{range .items[*]}{.metadata.namespace} {.metadata.name} {.metadata.uid} {.status.qosClass} {range .status.containerStatuses[*]}{.name}={.containerID},{end}{range .status.initContainerStatuses[*]}{.name}={.containerID},{end}{"\n"}{end}' \
  | awk '$1 == "varroa-system" || $1 == "ci"')
for key in $(printf '%s\n' "${!largest[@]}" | sort); do
  awk -v k="$key" -v l="$label" -v b="${largest[$key]}" 'BEGIN { printf "figure: rss_%s%s %.1f MiB\n", l, k, b / 1048576 }'
done
