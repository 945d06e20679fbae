#!/usr/bin/env bash
# Installs the node's volume stack onto a running node of test-fixtures/node/up.sh and waits until it serves:
# the images of install.sh imported into the node's containerd, the VolumeSnapshot CRDs (kube/snapshot-crds.sh),
# csi-hostpath.yaml (hostpath CSI driver + provisioner + snapshotter sidecars, snapshot controller, the default
# StorageClass and VolumeSnapshotClass). Idempotent: on a node that has it, the imports and applies change nothing.
# Volumes live in $VARROA_NODE_DIR/csi-hostpath; the node's down.sh takes them away with the rest.
#
# usage: test-fixtures/node/csi/deploy.sh KUBECONFIG
#   KUBECONFIG  the node's admin kubeconfig (up.sh prints it); the state folder is the one holding it, unless
#               VARROA_NODE_DIR says otherwise
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
say() { echo "node/csi/deploy.sh: $*" >&2; }
die() { echo "node/csi/deploy.sh: $*" >&2; exit 1; }
started=$(date +%s.%N)
elapsed() { awk -v s="$started" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - s }'; }

kubeconfig=${1:-}
[[ -n $kubeconfig && -f $kubeconfig ]] || die "usage: deploy.sh KUBECONFIG (the node's admin kubeconfig, printed by test-fixtures/node/up.sh); got '${kubeconfig}'"
kubeconfig=$(readlink -f "$kubeconfig")
node_dir="${VARROA_NODE_DIR:-$(dirname "$kubeconfig")}"
[[ -f $node_dir/.varroa-node ]] || die "$node_dir is not a node's state folder (no .varroa-node): set VARROA_NODE_DIR to the folder of test-fixtures/node/up.sh"
[[ $(id -u) -eq 0 ]] || die "importing images into the node's containerd needs root (its socket is root's): run it as root"
K8S_VERSION="${K8S_VERSION:-1.34.4}"
kubectl_bin="${KUBEAPITEST_DIR:-$HOME/.kubeapitest}/k8s/${K8S_VERSION}-linux-$(go env GOARCH 2>/dev/null || echo amd64)/kubectl"
[[ -x $kubectl_bin ]] || die "kubectl is missing at $kubectl_bin: run test-fixtures/kube/install.sh"
kc() { "$kubectl_bin" --kubeconfig "$kubeconfig" "$@"; }
kubelet_dir="$node_dir/kubelet"
data_dir="$node_dir/csi-hostpath"
driver=hostpath.csi.varroa.dev
namespace=varroa-test-csi

wait_for() { # what deadline-seconds command...
  local what=$1 seconds=$2 deadline=$(( $(date +%s) + $2 )); shift 2
  until "$@" >/dev/null 2>&1; do
    (( $(date +%s) < deadline )) || die "$what did not happen within $seconds s; see: kubectl --kubeconfig $kubeconfig -n $namespace get pods,events"
    sleep 0.3
  done
}

kc get --raw /readyz >/dev/null 2>&1 || die "the API server of $kubeconfig does not answer: is the node up (test-fixtures/node/up.sh)?"
[[ -d $kubelet_dir ]] || die "the kubelet's folder $kubelet_dir is missing: the node's kubelet runs with --root-dir elsewhere?"

# --- images: built once (install.sh), imported into the node's containerd -------------------------------------
# Imported every time: a tag can stay while its content changed (a rebuilt image), and an import of content
# containerd has is quick.
"$here/install.sh" >&2
# shellcheck disable=SC1091
source "${VARROA_CACHE:-$HOME/.cache/varroa}/node/csi/images.env"
export CONTAINERD_ADDRESS="$node_dir/ctr/containerd.sock"
ctr version >/dev/null 2>&1 || die "the node's containerd does not answer on $CONTAINERD_ADDRESS"
for name in csi-hostpath csi-provisioner csi-snapshotter snapshot-controller busybox; do
  archive="${VARROA_CACHE:-$HOME/.cache/varroa}/node/csi/images/$name.tar"
  ctr -n k8s.io images import "$archive" >/dev/null || die "containerd could not import $archive"
done
say "images in the node's containerd ($(elapsed) s)"

# --- mount propagation: the driver's bind mounts reach the node and the pods only through a shared mount -----
# The kubelet makes its --root-dir rshared at start (this machine's own mounts are private); check, not assume.
propagation=$(findmnt -n -o PROPAGATION -M "$kubelet_dir" 2>/dev/null || true)
[[ $propagation == shared* ]] || die "$kubelet_dir is not a shared mount (findmnt says '${propagation:-not a mount point}'), so the driver's volume mounts would not reach the pods; the kubelet makes its --root-dir shared at start: does it run with --root-dir $kubelet_dir?"

# --- the VolumeSnapshot CRDs, the same files the API-server tests use ----------------------------------------
crd_dir=$("$here/../../kube/snapshot-crds.sh" >&2 && echo "${VARROA_CACHE:-$HOME/.cache/varroa}/snapshot-crds/${SNAPSHOTTER_VERSION:-8.4.0}")
for f in "$crd_dir"/snapshot.storage.k8s.io_*.yaml; do kc apply -f "$f" >/dev/null; done
wait_for "the VolumeSnapshot CRDs Established" 60 kc wait --for=condition=Established --timeout=2s \
  crd/volumesnapshots.snapshot.storage.k8s.io crd/volumesnapshotcontents.snapshot.storage.k8s.io \
  crd/volumesnapshotclasses.snapshot.storage.k8s.io

# --- the driver, the sidecars, the snapshot controller, the classes ------------------------------------------
sed -e "s#CSI_HOSTPATH_IMAGE#$CSI_HOSTPATH_IMAGE#; s#CSI_PROVISIONER_IMAGE#$CSI_PROVISIONER_IMAGE#" \
    -e "s#CSI_SNAPSHOTTER_IMAGE#$CSI_SNAPSHOTTER_IMAGE#; s#SNAPSHOT_CONTROLLER_IMAGE#$SNAPSHOT_CONTROLLER_IMAGE#" \
    -e "s#KUBELET_DIR#$kubelet_dir#g; s#DATA_DIR#$data_dir#g" "$here/csi-hostpath.yaml" | kc apply -f - >/dev/null \
  || die "kubectl apply of csi-hostpath.yaml failed"

# Ready: the pods run, and the kubelet registered the driver (CSINode lists it), so volumes can be published.
driver_registered() {
  [[ $(kc get csinode -o jsonpath="{.items[*].spec.drivers[?(@.name==\"$driver\")].name}") == *"$driver"* ]]
}
wait_for "the csi-hostpath DaemonSet ready" 120 kc -n "$namespace" rollout status daemonset/csi-hostpath --timeout=2s
wait_for "the kubelet registering $driver (CSINode)" 60 driver_registered
wait_for "the snapshot-controller Deployment available" 120 \
  kc -n "$namespace" wait --for=condition=Available deployment/snapshot-controller --timeout=2s
say "volumes ready: StorageClass varroa-hostpath (default), VolumeSnapshotClass varroa-hostpath (default), data in $data_dir ($(elapsed) s)"
echo "figure: csi_ready_seconds $(elapsed) s" >&2
