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

# The plugins coredns.yaml's Corefile names (the first word of each line inside its server block), one a line.
corefile_plugins() {
  awk '/Corefile: \|/ { on = 1; next }
       on && /^---/ { exit }
       on {
         line = $0; sub(/#.*/, "", line)
         if (depth == 1 && split(line, word) > 0 && word[1] != "}") print word[1]
         opens = gsub(/\{/, "{", line); closes = gsub(/\}/, "}", line); depth += opens - closes
       }' "$here/coredns.yaml" | sort -u
}

# CoreDNS with only those plugins: the full plugin.cfg compiles cloud SDKs (route53, azure, clouddns, etcd, ...)
# the node never runs. The tag names the plugin set, so a full build in the cache is never taken for this one.
mapfile -t coredns_plugins < <(corefile_plugins)
(( ${#coredns_plugins[@]} )) || die "found no plugin in the Corefile of $here/coredns.yaml (data.Corefile of ConfigMap coredns): is its server block still there?"
coredns_tag="v${COREDNS_VERSION}-$(printf '%s\n' "${coredns_plugins[@]}" | sha256sum | cut -c1-8)"
coredns_bin="$NODE_CACHE/bin/coredns-$coredns_tag"
if [[ ! -x $coredns_bin ]]; then
  say "building CoreDNS v${COREDNS_VERSION} from Go modules with the plugins ${coredns_plugins[*]}"
  start=$SECONDS
  info=$(go mod download -json "github.com/coredns/coredns@v${COREDNS_VERSION}") \
    || die "could not fetch github.com/coredns/coredns@v${COREDNS_VERSION} from the Go module proxy ($(go env GOPROXY))"
  module_dir=$(sed -n 's/.*"Dir": "\(.*\)".*/\1/p' <<<"$info")
  [[ -f $module_dir/plugin.cfg ]] || die "github.com/coredns/coredns@v${COREDNS_VERSION} has no plugin.cfg in '$module_dir'"
  # A writable copy (the module cache is read-only), where go generate rewrites the plugin list.
  coredns_src=$(mktemp -d "$NODE_CACHE/.coredns-src-XXXXXX")
  cp -r "$module_dir/." "$coredns_src"
  chmod -R u+w "$coredns_src"
  # plugin.cfg's order is the order the plugins run in: keep it, drop the lines of the plugins not named.
  awk -F: 'NR == FNR { wanted[$1] = 1; next } /^[a-z]/ && ($1 in wanted)' \
    <(printf '%s\n' "${coredns_plugins[@]}") "$module_dir/plugin.cfg" > "$coredns_src/plugin.cfg"
  for plugin in "${coredns_plugins[@]}"; do
    grep -q "^$plugin:" "$coredns_src/plugin.cfg" \
      || die "the Corefile in $here/coredns.yaml names '$plugin', which CoreDNS v${COREDNS_VERSION}'s plugin.cfg does not have: remove it from the Corefile or pick a CoreDNS version with it"
  done
  (cd "$coredns_src" && GOFLAGS=-mod=mod go generate coredns.go \
    && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$coredns_bin.tmp" .) \
    || { rm -rf "$coredns_src"; die "could not build CoreDNS v${COREDNS_VERSION} with the plugins ${coredns_plugins[*]} in $coredns_src"; }
  rm -rf "$coredns_src"
  mv -f "$coredns_bin.tmp" "$coredns_bin"
  say "built CoreDNS in $((SECONDS - start)) s"
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
binary_image coredns "$coredns_tag" "$coredns_bin" 0
# up.sh reads which images to import and which sandbox image to name
printf 'localhost/pause:%s\n' "$pause_key" > "$NODE_CACHE/images/pause.ref"
printf 'localhost/coredns:%s\n' "$coredns_tag" > "$NODE_CACHE/images/coredns.ref"
exec 8>&-
# the volume stack (CSI driver, provisioner, snapshotter) up.sh deploys
"$here/csi/install.sh"
say "ready: ${COMPONENTS[*]} in $DEST; CoreDNS, pause and the volume stack's images in $NODE_CACHE"
