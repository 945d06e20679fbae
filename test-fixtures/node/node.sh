# Shared by up.sh, down.sh and leftovers.sh: where the node keeps its state, its fixed ports and names.
# Everything the node writes lives under VARROA_NODE_DIR (default ${VARROA_CACHE:-~/.cache/varroa}/node/run),
# except what kubelet and containerd hard-code (their teardown in down.sh removes it).
# shellcheck shell=bash
K8S_VERSION="${K8S_VERSION:-1.34.4}"
node_arch="$(go env GOARCH 2>/dev/null || echo amd64)"
KUBE_BIN="${KUBEAPITEST_DIR:-$HOME/.kubeapitest}/k8s/${K8S_VERSION}-linux-${node_arch}"
NODE_CACHE="${VARROA_CACHE:-$HOME/.cache/varroa}/node"
NODE_DIR="${VARROA_NODE_DIR:-$NODE_CACHE/run}"
NODE_NAME=varroa-node
# Unusual fixed ports, so the node never takes a port a developer's own cluster or a test's server uses.
APISERVER_PORT=16443
ETCD_CLIENT_PORT=12379
ETCD_PEER_PORT=12380
KUBELET_PORT=20250
KUBELET_HEALTHZ_PORT=20248
KUBE_PROXY_METRICS_PORT=20249
KUBE_PROXY_HEALTHZ_PORT=20256
CONTROLLER_MANAGER_PORT=20257
SCHEDULER_PORT=20259
SERVICE_CIDR=10.0.0.0/16
CLUSTER_DNS=10.0.0.10
POD_CIDR=10.244.0.0/16
NODE_POD_CIDR=10.244.0.0/24
# The bridge the pods hang off, and the CNI network name that tags the bridge plugin's iptables rules.
BRIDGE=varroa0
CNI_NETWORK=varroa-node
# Components in start order; down.sh stops them in reverse.
NODE_PROCESSES=(containerd etcd kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy)

node_kubectl() { "$KUBE_BIN/kubectl" --kubeconfig "$NODE_DIR/admin.kubeconfig" "$@"; }
node_pid() { local f="$NODE_DIR/pids/$1"; [[ -f $f ]] && kill -0 "$(cat "$f")" 2>/dev/null && cat "$f"; }
node_api_ready() { node_kubectl get --raw /readyz >/dev/null 2>&1; }
