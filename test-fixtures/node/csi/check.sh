#!/usr/bin/env bash
# Tries the node's volumes end to end, in a namespace of its own (csi-try-*), deleted at the end:
# a PVC of the default StorageClass binds, a pod (non-root, fsGroup) writes to it, a second pod reads it back,
# a VolumeSnapshot of it becomes readyToUse, the volume is then overwritten, and a PVC restored from the
# snapshot holds the data of the moment of the snapshot. Prints each step's time; exits non-zero on the
# first step that does not happen within its deadline.
#
# usage: test-fixtures/node/csi/check.sh KUBECONFIG    (after deploy.sh)
set -euo pipefail
say() { echo "node/csi/check.sh: $*" >&2; }
die() { echo "node/csi/check.sh: FAILED: $*" >&2; exit 1; }
kubeconfig=${1:-}
[[ -n $kubeconfig && -f $kubeconfig ]] || die "usage: check.sh KUBECONFIG (the node's admin kubeconfig); got '${kubeconfig}'"
K8S_VERSION="${K8S_VERSION:-1.34.4}"
kubectl_bin="${KUBEAPITEST_DIR:-$HOME/.kubeapitest}/k8s/${K8S_VERSION}-linux-$(go env GOARCH 2>/dev/null || echo amd64)/kubectl"
# shellcheck disable=SC1091
source "${VARROA_CACHE:-$HOME/.cache/varroa}/node/csi/images.env" 2>/dev/null \
  || die "no images.env in ${VARROA_CACHE:-$HOME/.cache/varroa}/node/csi: run deploy.sh first"
ns="csi-try-$(date +%s)-$RANDOM"
kc() { "$kubectl_bin" --kubeconfig "$kubeconfig" -n "$ns" "$@"; }
started=$(date +%s.%N)
step_started=$started
step() { # the time of the step just done
  local now; now=$(date +%s.%N)
  say "$1 ($(awk -v s="$step_started" -v n="$now" 'BEGIN { printf "%.1f", n - s }') s)"
  step_started=$now
}
cleanup() { "$kubectl_bin" --kubeconfig "$kubeconfig" delete namespace "$ns" --wait=false >/dev/null 2>&1 || true; }
trap cleanup EXIT

# A run-once pod on a claim: the script runs as user 65532 with fsGroup 65532, as Varroa's pods do.
pod() { # name claim script
  cat <<YAML
apiVersion: v1
kind: Pod
metadata: {name: $1}
spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 1
  securityContext: {runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, fsGroup: 65532}
  containers:
    - name: try
      image: $BUSYBOX_IMAGE
      imagePullPolicy: IfNotPresent
      # the output goes to the termination message, which the API carries without a connection to the kubelet
      command: [/bin/sh, -c, '{ $3; } > /dev/termination-log 2>&1']
      securityContext: {allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: {drop: [ALL]}}
      volumeMounts: [{name: data, mountPath: /data}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: $2}}]
YAML
}
run_pod() { # name claim script -> its output
  pod "$@" | kc apply -f - >/dev/null
  kc wait --for=jsonpath='{.status.phase}'=Succeeded "pod/$1" --timeout=90s >/dev/null \
    || die "pod $1 did not succeed within 90 s: $(kc get pod "$1" -o jsonpath='{.status.phase} {.status.containerStatuses[0].state}') $(kc get events --field-selector involvedObject.name="$1" -o jsonpath='{.items[*].message}')"
  kc get pod "$1" -o jsonpath='{.status.containerStatuses[0].state.terminated.message}'
}

"$kubectl_bin" --kubeconfig "$kubeconfig" create namespace "$ns" >/dev/null
say "namespace $ns"
token="written-$(date +%s%N)"
kc apply -f - >/dev/null <<YAML
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 16Mi}}
YAML
run_pod writer data "echo $token > /data/token && mkdir -p /data/jobs && echo ok > /data/jobs/state && sync" >/dev/null
[[ $(kc get pvc data -o jsonpath='{.status.phase}') == Bound ]] || die "PVC data is not Bound after its pod ran"
step "PVC data bound to $(kc get pvc data -o jsonpath='{.spec.volumeName}') through the default StorageClass; a non-root pod wrote to it"

kc delete pod writer --wait=true >/dev/null
got=$(run_pod reader data "cat /data/token")
[[ $got == "$token" ]] || die "a new pod read '$got' from PVC data, not '$token'"
step "writer deleted; a new pod read the data back"

kc apply -f - >/dev/null <<YAML
apiVersion: snapshot.storage.k8s.io/v1
kind: VolumeSnapshot
metadata: {name: data-snap}
spec:
  source: {persistentVolumeClaimName: data}
YAML
kc wait --for=jsonpath='{.status.readyToUse}'=true volumesnapshot/data-snap --timeout=60s >/dev/null \
  || die "VolumeSnapshot data-snap not readyToUse within 60 s: $(kc get volumesnapshot data-snap -o jsonpath='{.status}')"
step "VolumeSnapshot data-snap readyToUse (class $(kc get volumesnapshot data-snap -o jsonpath='{.spec.volumeSnapshotClassName}'))"

run_pod overwrite data "echo changed-after-snapshot > /data/token && sync" >/dev/null
kc apply -f - >/dev/null <<YAML
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: restored}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 16Mi}}
  dataSource: {apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: data-snap}
YAML
got=$(run_pod restored-reader restored "cat /data/token /data/jobs/state")
[[ $got == "$token"$'\n'ok ]] || die "the PVC restored from data-snap holds '$got', not the data of the snapshot ('$token' and 'ok')"
step "source overwritten; a PVC restored from the snapshot holds the snapshot's data"

pvs=$(kc get pvc -o jsonpath='{.items[*].spec.volumeName}')
"$kubectl_bin" --kubeconfig "$kubeconfig" delete namespace "$ns" --timeout=120s >/dev/null \
  || die "namespace $ns not deleted within 120 s"
for pv in $pvs; do
  "$kubectl_bin" --kubeconfig "$kubeconfig" wait --for=delete "pv/$pv" --timeout=60s >/dev/null 2>&1 \
    || die "PersistentVolume $pv still there 60 s after its claim was deleted (reclaimPolicy Delete)"
done
trap - EXIT
step "namespace deleted; its PersistentVolumes deleted with it"
say "all steps passed ($(awk -v s="$started" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - s }') s)"
