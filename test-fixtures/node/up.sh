#!/usr/bin/env bash
# Brings up a real single-node Kubernetes on this machine: containerd and runc (Debian), etcd, kube-apiserver,
# kube-controller-manager, kube-scheduler, kubelet and kube-proxy (iptables mode), a bridge network and CoreDNS.
# All state in one folder (node.sh); `down.sh` takes it all away again. Idempotent: with a node already up it
# prints its kubeconfig and returns. Needs root (network namespaces, mounts, iptables, cgroups).
#
# Environment: VARROA_NODE_DIR (state folder), VARROA_CACHE, NODE_IMAGE_REGISTRY (host:port of a plain-HTTP
# registry containerd pulls from; default: the loopback registry of `make images`, when its address file exists).
# Prints the admin kubeconfig's path last.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=test-fixtures/node/node.sh
source "$here/node.sh"

say() { echo "node/up.sh: $*" >&2; }
die() { echo "node/up.sh: $*" >&2; exit 1; }
started=$(date +%s.%N)
elapsed() { awk -v s="$started" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - s }'; }

[[ $(id -u) -eq 0 ]] || die "the node needs root (network namespaces, mounts, iptables, cgroups): run it as root"
if [[ -f $NODE_DIR/admin.kubeconfig ]] && node_pid kubelet >/dev/null && node_api_ready; then
  say "a node is already up (state in $NODE_DIR)"
  echo "$NODE_DIR/admin.kubeconfig"
  exit 0
fi
if [[ -d $NODE_DIR/pids ]] && ls "$NODE_DIR/pids" | grep -q .; then
  say "a node that did not come up fully is in $NODE_DIR: taking it down first"
  "$here/down.sh" >&2
fi

"$here/install.sh" >&2
pause_image=$(cat "$NODE_CACHE/images/pause.ref")
coredns_image=$(cat "$NODE_CACHE/images/coredns.ref")

port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for port in $APISERVER_PORT $ETCD_CLIENT_PORT $ETCD_PEER_PORT $KUBELET_PORT $KUBELET_HEALTHZ_PORT \
    $KUBE_PROXY_METRICS_PORT $KUBE_PROXY_HEALTHZ_PORT $CONTROLLER_MANAGER_PORT $SCHEDULER_PORT; do
  port_taken "$port" && die "port $port is taken (ss -ltnp 'sport = :$port' names the process); the node uses fixed ports"
done
ip link show "$BRIDGE" >/dev/null 2>&1 && die "a bridge $BRIDGE exists from an earlier node: run test-fixtures/node/down.sh"

# The node's address: the one on the interface of the default route (pods reach the API server there).
route_dev=$(ip -o -4 route show default | awk '{ for (i = 1; i < NF; i++) if ($i == "dev") { print $(i + 1); exit } }')
[[ -n $route_dev ]] || die "this machine has no IPv4 default route, so the node has no address for its pods to reach it at"
NODE_IP=$(ip -o -4 addr show dev "$route_dev" scope global | awk '{ split($4, a, "/"); print a[1]; exit }')
[[ -n $NODE_IP ]] || die "the interface $route_dev of the default route has no global IPv4 address"

[[ ! -e $NODE_DIR || -f $NODE_DIR/.varroa-node || -z $(ls -A "$NODE_DIR") ]] \
  || die "$NODE_DIR exists and is not a node's state folder: set VARROA_NODE_DIR to an empty or new folder"
mkdir -p "$NODE_DIR"/{pids,logs,pki,conf,etcd,ctr/certs.d,cni/net.d,cni/ipam,kubelet,kubelet-plugins,pod-logs}
touch "$NODE_DIR/.varroa-node"
L=$NODE_DIR/logs P=$NODE_DIR/pki C=$NODE_DIR/conf
say "state in $NODE_DIR, node address $NODE_IP"

# --- what up changes on the machine, remembered so down can put it back -----------------------------------
if [[ ! -f $NODE_DIR/machine.saved ]]; then
  {
    echo "ip_forward=$(cat /proc/sys/net/ipv4/ip_forward)"
    echo "bridge_nf_call_iptables=$(cat /proc/sys/net/bridge/bridge-nf-call-iptables 2>/dev/null || echo absent)"
    for d in /var/lib/kubelet /var/log/containers /var/log/pods /run/containerd /var/lib/cni; do
      [[ -e $d ]] && echo "existed=$d"
    done
  } > "$NODE_DIR/machine.saved"
fi
echo 1 > /proc/sys/net/ipv4/ip_forward
[[ -e /proc/sys/net/bridge/bridge-nf-call-iptables ]] || modprobe br_netfilter 2>/dev/null \
  || die "bridged pod traffic must pass iptables (net.bridge.bridge-nf-call-iptables) and br_netfilter cannot be loaded here"
echo 1 > /proc/sys/net/bridge/bridge-nf-call-iptables

# --- certificates: a CA, the API server's serving certificate, one client certificate per component --------
"$here/pki.sh" "$P" "$NODE_NAME" "$NODE_IP" "https://127.0.0.1:$APISERVER_PORT" >&2

# --- containerd: state, sockets, shims' runc root and netns files under the state folder ------------------
cat > "$C/containerd.toml" <<TOML
version = 2
root = "$NODE_DIR/ctr/root"
state = "$NODE_DIR/ctr/state"
[grpc]
  address = "$NODE_DIR/ctr/containerd.sock"
[ttrpc]
  address = "$NODE_DIR/ctr/containerd.sock.ttrpc"
[plugins."io.containerd.internal.v1.opt"]
  path = "$NODE_DIR/ctr/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$pause_image"
  # this VM lacks CAP_SYS_RESOURCE: without it runc cannot lower oom_score_adj and every sandbox fails
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  stream_server_address = "127.0.0.1"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$NODE_DIR/ctr/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$NODE_DIR/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "$NODE_DIR/ctr/certs.d"
TOML
registry=${NODE_IMAGE_REGISTRY:-}
registry_file="${VARROA_CACHE:-$HOME/.cache/varroa}/images/registry"
[[ -n $registry || ! -f $registry_file ]] || registry=$(cat "$registry_file")
if [[ -n $registry ]]; then
  # a plain-HTTP registry on this machine: containerd needs to be told it speaks HTTP
  mkdir -p "$NODE_DIR/ctr/certs.d/$registry"
  printf 'server = "http://%s"\n\n[host."http://%s"]\n  capabilities = ["pull", "resolve"]\n' "$registry" "$registry" \
    > "$NODE_DIR/ctr/certs.d/$registry/hosts.toml"
  echo "$registry" > "$NODE_DIR/registry"
fi

cat > "$NODE_DIR/cni/net.d/10-varroa-node.conflist" <<JSON
{
  "cniVersion": "0.4.0",
  "name": "$CNI_NETWORK",
  "plugins": [
    {
      "type": "bridge", "bridge": "$BRIDGE", "isGateway": true, "ipMasq": true, "hairpinMode": true,
      "ipam": { "type": "host-local", "dataDir": "$NODE_DIR/cni/ipam",
                "ranges": [[{ "subnet": "$NODE_POD_CIDR" }]], "routes": [{ "dst": "0.0.0.0/0" }] }
    },
    { "type": "portmap", "capabilities": { "portMappings": true } }
  ]
}
JSON

cat > "$C/kubelet.yaml" <<YAML
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $NODE_IP
port: $KUBELET_PORT
readOnlyPort: 0
healthzPort: $KUBELET_HEALTHZ_PORT
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $P/ca.crt}
authorization: {mode: Webhook}
# this machine mounts cgroup v1 and has no systemd managing it
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
containerRuntimeEndpoint: unix://$NODE_DIR/ctr/containerd.sock
clusterDomain: cluster.local
clusterDNS: [$CLUSTER_DNS]
resolvConf: /etc/resolv.conf
tlsCertFile: $P/kubelet-serving.crt
tlsPrivateKeyFile: $P/kubelet-serving.key
# a shared development machine: never evict the node's pods because its disk is fuller than a server's would be
evictionHard: {"memory.available": "100Mi", "nodefs.available": "1%", "imagefs.available": "1%", "nodefs.inodesFree": "1%"}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
serializeImagePulls: false
podLogsDir: $NODE_DIR/pod-logs
volumePluginDir: $NODE_DIR/kubelet-plugins
YAML

cat > "$C/kube-proxy.yaml" <<YAML
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: $P/kube-proxy.kubeconfig}
mode: iptables
clusterCIDR: $POD_CIDR
hostnameOverride: $NODE_NAME
metricsBindAddress: 127.0.0.1:$KUBE_PROXY_METRICS_PORT
healthzBindAddress: 127.0.0.1:$KUBE_PROXY_HEALTHZ_PORT
# leave the machine's conntrack table size alone
conntrack: {maxPerCore: 0}
YAML

# --- processes: each in its own session, so `make node-up` may return while they run ------------------------
start() {
  local name=$1; shift
  setsid "$@" > "$L/$name.log" 2>&1 < /dev/null &
  echo $! > "$NODE_DIR/pids/$name"
}
wait_for() { # what deadline-seconds command...
  local what=$1 deadline=$(( $(date +%s) + $2 )); shift 2
  until "$@" >/dev/null 2>&1; do
    (( $(date +%s) < deadline )) || die "$what did not happen within the deadline; logs in $L"
    sleep 0.3
  done
}
export CONTAINERD_ADDRESS=$NODE_DIR/ctr/containerd.sock
start containerd containerd --config "$C/containerd.toml"
wait_for "containerd answering on $CONTAINERD_ADDRESS" 30 ctr version
for ref in pause coredns; do
  tag=$(cat "$NODE_CACHE/images/$ref.ref"); tag=${tag##*:}
  ctr -n k8s.io images import --no-unpack=false "$NODE_CACHE/images/$ref-$tag.tar" >/dev/null \
    || die "containerd could not import $NODE_CACHE/images/$ref-$tag.tar"
done
say "containerd up, images imported ($(elapsed) s)"

start etcd "$KUBE_BIN/etcd" --data-dir "$NODE_DIR/etcd" --unsafe-no-fsync \
  --listen-client-urls "http://127.0.0.1:$ETCD_CLIENT_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_CLIENT_PORT" \
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-cluster "default=http://127.0.0.1:$ETCD_PEER_PORT" --listen-metrics-urls ""
start kube-apiserver "$KUBE_BIN/kube-apiserver" --etcd-servers "http://127.0.0.1:$ETCD_CLIENT_PORT" \
  --secure-port "$APISERVER_PORT" --advertise-address "$NODE_IP" --service-cluster-ip-range "$SERVICE_CIDR" \
  --tls-cert-file "$P/apiserver.crt" --tls-private-key-file "$P/apiserver.key" --client-ca-file "$P/ca.crt" \
  --service-account-key-file "$P/sa.pub" --service-account-signing-key-file "$P/sa.key" \
  --service-account-issuer https://kubernetes.default.svc.cluster.local \
  --kubelet-client-certificate "$P/apiserver-kubelet-client.crt" --kubelet-client-key "$P/apiserver-kubelet-client.key" \
  --kubelet-certificate-authority "$P/ca.crt" --enable-admission-plugins NodeRestriction --allow-privileged=true \
  --authorization-mode Node,RBAC --kubelet-preferred-address-types InternalIP,Hostname
wait_for "kube-apiserver ready on port $APISERVER_PORT" 90 node_api_ready
say "API server ready ($(elapsed) s)"

start kube-controller-manager "$KUBE_BIN/kube-controller-manager" --kubeconfig "$P/controller-manager.kubeconfig" \
  --authentication-kubeconfig "$P/controller-manager.kubeconfig" --authorization-kubeconfig "$P/controller-manager.kubeconfig" \
  --secure-port "$CONTROLLER_MANAGER_PORT" --bind-address 127.0.0.1 \
  --service-account-private-key-file "$P/sa.key" --root-ca-file "$P/ca.crt" \
  --cluster-signing-cert-file "$P/ca.crt" --cluster-signing-key-file "$P/ca.key" --use-service-account-credentials=true \
  --allocate-node-cidrs=true --cluster-cidr "$POD_CIDR" --node-cidr-mask-size 24 --service-cluster-ip-range "$SERVICE_CIDR" \
  --leader-elect=false
start kube-scheduler "$KUBE_BIN/kube-scheduler" --kubeconfig "$P/scheduler.kubeconfig" \
  --authentication-kubeconfig "$P/scheduler.kubeconfig" --authorization-kubeconfig "$P/scheduler.kubeconfig" \
  --secure-port "$SCHEDULER_PORT" --bind-address 127.0.0.1 --leader-elect=false
start kubelet "$KUBE_BIN/kubelet" --config "$C/kubelet.yaml" --kubeconfig "$P/kubelet.kubeconfig" \
  --hostname-override "$NODE_NAME" --node-ip "$NODE_IP" --root-dir "$NODE_DIR/kubelet"
start kube-proxy "$KUBE_BIN/kube-proxy" --config "$C/kube-proxy.yaml"

node_ready() {
  [[ $(node_kubectl get node "$NODE_NAME" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}') == True ]]
}
wait_for "node $NODE_NAME Ready" 120 node_ready
wait_for "the default ServiceAccount" 60 node_kubectl get serviceaccount default
say "node Ready ($(elapsed) s)"

sed "s#COREDNS_IMAGE#$coredns_image#; s#CLUSTER_DNS#$CLUSTER_DNS#" "$here/coredns.yaml" | node_kubectl apply -f - >/dev/null
wait_for "CoreDNS Ready" 120 node_kubectl -n kube-system wait --for=condition=Available deployment/coredns --timeout=2s
[[ ! -x $here/csi/deploy.sh ]] || "$here/csi/deploy.sh" "$NODE_DIR/admin.kubeconfig" >&2
{
  echo "NODE_IP=$NODE_IP"
  echo "NODE_NAME=$NODE_NAME"
  echo "KUBECONFIG=$NODE_DIR/admin.kubeconfig"
  echo "API_SERVER=https://127.0.0.1:$APISERVER_PORT"
  echo "REGISTRY=${registry}"
  echo "KUBECTL=$KUBE_BIN/kubectl"
} > "$NODE_DIR/node.env"
say "node up with DNS ($(elapsed) s); kubectl --kubeconfig $NODE_DIR/admin.kubeconfig get pods -A"
echo "figure: node_up_seconds $(elapsed) s" >&2
echo "$NODE_DIR/admin.kubeconfig"
