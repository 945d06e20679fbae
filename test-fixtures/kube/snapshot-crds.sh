#!/usr/bin/env bash
# Fetches the CSI snapshot CRDs (snapshot.storage.k8s.io/v1: VolumeSnapshot, VolumeSnapshotContent,
# VolumeSnapshotClass) from the Go module github.com/kubernetes-csi/external-snapshotter/client/v8, whose zip
# holds config/crd/, and copies them to ${VARROA_CACHE:-$HOME/.cache/varroa}/snapshot-crds/<version>/.
# SnapshotCrds (test-fixtures) applies them from there. No release download site is reachable here; the Go
# module proxy is. Idempotent: a second run with the files present does nothing.
set -euo pipefail

# Keep in step with SnapshotCrds.VERSION, which reads the files from the folder named after it.
SNAPSHOTTER_VERSION="${SNAPSHOTTER_VERSION:-8.4.0}"
MODULE="github.com/kubernetes-csi/external-snapshotter/client/v8"
DEST="${VARROA_CACHE:-$HOME/.cache/varroa}/snapshot-crds/${SNAPSHOTTER_VERSION}"
# Only the v1 snapshot kinds; the group snapshot CRDs in the same folder are beta and unused.
CRDS=(
  snapshot.storage.k8s.io_volumesnapshotclasses.yaml
  snapshot.storage.k8s.io_volumesnapshotcontents.yaml
  snapshot.storage.k8s.io_volumesnapshots.yaml
)

die() { echo "kube/snapshot-crds.sh: $*" >&2; exit 1; }

installed() {
  local f
  for f in "${CRDS[@]}"; do [[ -s "$DEST/$f" ]] || return 1; done
}

if installed; then
  echo "kube/snapshot-crds.sh: snapshot CRDs v${SNAPSHOTTER_VERSION} already in $DEST"
  exit 0
fi

command -v go >/dev/null || die "go is missing: the snapshot CRDs come from a Go module"
mkdir -p "$DEST"
# One fetch at a time: parallel test modules or a second terminal wait here instead of racing.
exec 9>"$DEST/.lock"
flock 9
if installed; then
  echo "kube/snapshot-crds.sh: fetched by a concurrent run; nothing to do"
  exit 0
fi
export GOFLAGS="-mod=mod"
export GOTOOLCHAIN=local

# Outside any go.mod, so the download resolves the module alone.
cd "$DEST"
info="$(go mod download -json "${MODULE}@v${SNAPSHOTTER_VERSION}")" \
  || die "could not fetch ${MODULE}@v${SNAPSHOTTER_VERSION} from the Go module proxy ($(go env GOPROXY))"
module_dir="$(sed -n 's/.*"Dir": "\(.*\)".*/\1/p' <<<"$info")"
[[ -d "$module_dir/config/crd" ]] || die "${MODULE}@v${SNAPSHOTTER_VERSION} has no config/crd folder (module dir: '$module_dir')"

for f in "${CRDS[@]}"; do
  [[ -s "$module_dir/config/crd/$f" ]] || die "$f is missing from $module_dir/config/crd"
  # The module cache is read-only; a writable copy, renamed into place so a half-written file is never seen.
  install -m 0644 "$module_dir/config/crd/$f" "$DEST/$f.tmp"
  mv -f "$DEST/$f.tmp" "$DEST/$f"
done
echo "kube/snapshot-crds.sh: installed the snapshot CRDs v${SNAPSHOTTER_VERSION} into $DEST"
