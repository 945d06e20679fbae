#!/usr/bin/env bash
# Installs what a real single-node Kubernetes needs, idempotently and outside the repository:
#   Debian's containerd, runc, containernetworking-plugins (bridge, host-local, portmap) and conntrack;
#   kubelet, kube-proxy, kube-scheduler and kube-controller-manager, built from k8s.io/kubernetes in the module
#   and under the lock of kube/install.sh, into the folder beside kube-apiserver;
#   CoreDNS and the pod sandbox's pause binary (pause/), built from Go modules with CGO_ENABLED=0, and each packaged
#   as an image (umoci, skopeo) in ${VARROA_CACHE:-~/.cache/varroa}/node/images/, which up.sh imports into containerd.
# No download site for Kubernetes binaries or images is reachable here; Debian and the Go module proxy are.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

K8S_VERSION="${K8S_VERSION:-1.34.4}"
COREDNS_VERSION="${COREDNS_VERSION:-1.15.0}"
ARCH="$(go env GOARCH 2>/dev/null || echo amd64)"
DEST="${KUBEAPITEST_DIR:-$HOME/.kubeapitest}/k8s/${K8S_VERSION}-linux-${ARCH}"
CACHE="${VARROA_CACHE:-$HOME/.cache/varroa}"
K8S_WORK="$CACHE/kube-build/${K8S_VERSION}"
NODE_CACHE="$CACHE/node"
COMPONENTS=(kubelet kube-proxy kube-scheduler kube-controller-manager)

say() { echo "node/install.sh: $*"; }
die() { echo "node/install.sh: $*" >&2; exit 1; }

# --- Debian packages -----------------------------------------------------------------------------------------
missing=()
command -v containerd >/dev/null || missing+=(containerd)
command -v runc >/dev/null || missing+=(runc)
[[ -x /usr/lib/cni/bridge && -x /usr/lib/cni/host-local && -x /usr/lib/cni/portmap ]] || missing+=(containernetworking-plugins)
command -v conntrack >/dev/null || missing+=(conntrack)
command -v iptables >/dev/null || missing+=(iptables)
command -v umoci >/dev/null || missing+=(umoci)
command -v skopeo >/dev/null || missing+=(skopeo)
command -v openssl >/dev/null || missing+=(openssl)
if (( ${#missing[@]} )); then
  say "installing Debian packages: ${missing[*]}"
  sudo_cmd=(); [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
fi
# Debian's containerd package installs a system service; the node runs its own containerd, never that one.
if command -v systemctl >/dev/null && systemctl is-active -q containerd 2>/dev/null; then
  say "note: a system containerd runs here; the node starts its own with its own socket and state"
fi

# --- kube-apiserver, etcd, kubectl first: the node's components build in the same Go module ----------------
"$here/../kube/install.sh" >/dev/null

ldflags() {
  local minor="${K8S_VERSION#1.}" flags="" pkg
  minor="${minor%%.*}"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags+=" -X $pkg.gitVersion=v${K8S_VERSION} -X $pkg.gitMajor=1 -X $pkg.gitMinor=${minor}"
    flags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
  done
  echo "-s -w$flags"
}

components_built() {
  local c
  for c in "${COMPONENTS[@]}"; do [[ -x "$DEST/$c" ]] || return 1; done
}

export GOTOOLCHAIN=local
if ! components_built; then
  # kube/install.sh's lock: one Go build in this module at a time
  exec 9>"$K8S_WORK/.lock"
  flock 9
  if ! components_built; then
    cd "$K8S_WORK/k8s"
    cat > node-tools.go <<'GO'
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-proxy"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubelet"
)
GO
    GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 || GOFLAGS=-mod=mod go mod download
    for c in "${COMPONENTS[@]}"; do
      [[ -x "$DEST/$c" ]] && continue
      say "building $c v${K8S_VERSION} from Go modules"
      start=$SECONDS
      GOFLAGS=-mod=mod go build -trimpath -ldflags "$(ldflags)" -o "$DEST/$c.tmp" "k8s.io/kubernetes/cmd/$c" \
        || die "could not build k8s.io/kubernetes/cmd/$c v${K8S_VERSION} from the Go module proxy ($(go env GOPROXY))"
      mv -f "$DEST/$c.tmp" "$DEST/$c"
      say "built $c in $((SECONDS - start)) s"
    done
  fi
  exec 9>&-
fi

# --- CoreDNS and pause, as binaries and as images ------------------------------------------------------------
mkdir -p "$NODE_CACHE/bin" "$NODE_CACHE/images"
exec 8>"$NODE_CACHE/.lock"
flock 8

coredns_bin="$NODE_CACHE/bin/coredns-v${COREDNS_VERSION}"
if [[ ! -x $coredns_bin ]]; then
  say "building CoreDNS v${COREDNS_VERSION} from Go modules"
  gobin=$(mktemp -d "$NODE_CACHE/.gobin-XXXXXX")
  CGO_ENABLED=0 GOBIN="$gobin" go install -trimpath -ldflags "-s -w" "github.com/coredns/coredns@v${COREDNS_VERSION}" \
    || { rm -rf "$gobin"; die "could not build github.com/coredns/coredns@v${COREDNS_VERSION} from the Go module proxy"; }
  mv -f "$gobin/coredns" "$coredns_bin"
  rm -rf "$gobin"
fi

pause_key=$(cat "$here/pause/main.go" "$here/pause/go.mod" | sha256sum | cut -c1-12)
pause_bin="$NODE_CACHE/bin/pause-$pause_key"
if [[ ! -x $pause_bin ]]; then
  say "building the pause binary"
  (cd "$here/pause" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$pause_bin.tmp" .) || die "could not build pause/"
  mv -f "$pause_bin.tmp" "$pause_bin"
fi

# One static binary as an image: a single layer with the binary at /<name>, the entrypoint, a docker-archive whose
# tag (localhost/<name>:<tag>) containerd keeps on import.
binary_image() {
  local name=$1 tag=$2 binary=$3 user=$4 out="$NODE_CACHE/images/$1-$2.tar" work
  [[ -s $out ]] && return 0
  say "packaging localhost/$name:$tag"
  work=$(mktemp -d "$NODE_CACHE/.image-XXXXXX")
  umoci init --layout "$work/oci"
  umoci new --image "$work/oci:$tag"
  umoci unpack --image "$work/oci:$tag" "$work/bundle" >/dev/null
  install -m 0755 "$binary" "$work/bundle/rootfs/$name"
  umoci repack --image "$work/oci:$tag" "$work/bundle"
  umoci config --image "$work/oci:$tag" --config.entrypoint "/$name" --config.user "$user" \
    --os linux --architecture "$ARCH"
  skopeo --insecure-policy copy --quiet "oci:$work/oci:$tag" "docker-archive:$out.tmp:localhost/$name:$tag" < /dev/null
  mv -f "$out.tmp" "$out"
  rm -rf "$work"
}
binary_image pause "$pause_key" "$pause_bin" 65535
# CoreDNS binds port 53 inside its pod: root in the pod's own namespaces, as upstream's image runs it
binary_image coredns "v${COREDNS_VERSION}" "$coredns_bin" 0
# up.sh reads which images to import and which sandbox image to name
printf 'localhost/pause:%s\n' "$pause_key" > "$NODE_CACHE/images/pause.ref"
printf 'localhost/coredns:v%s\n' "$COREDNS_VERSION" > "$NODE_CACHE/images/coredns.ref"
exec 8>&-
# the volume stack (CSI driver, provisioner, snapshotter) up.sh deploys
"$here/csi/install.sh"
say "ready: ${COMPONENTS[*]} in $DEST; CoreDNS, pause and the volume stack's images in $NODE_CACHE"
