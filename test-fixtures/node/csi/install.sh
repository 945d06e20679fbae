#!/usr/bin/env bash
# Builds the volume stack of the real node from the Go module proxy and packages each static binary as a
# one-layer OCI image with umoci/skopeo (no Docker engine):
#   csi-provisioner      github.com/kubernetes-csi/external-provisioner/v5   (PVC -> CreateVolume)
#   csi-snapshotter      github.com/kubernetes-csi/external-snapshotter/v8   (VolumeSnapshotContent -> CreateSnapshot)
#   snapshot-controller  github.com/kubernetes-csi/external-snapshotter/v8   (VolumeSnapshot -> VolumeSnapshotContent)
#   csi-hostpath         ./driver, our own small hostpath CSI driver: the proxy serves neither
#                        csi-driver-host-path nor node-driver-registrar (403), so the driver also registers
#                        itself with the kubelet.
#   busybox              Debian's busybox-static, for the pods that try volumes (check.sh): a shell, cat, nc.
# The sidecars are the releases built on k8s.io/* v0.34, and are built with every module that
# k8s.io/kubernetes@v$K8S_VERSION requires pinned to its version there and with kube/install.sh's build settings
# (-trimpath, the same CGO_ENABLED), so their k8s.io packages come from the Go build cache kube/install.sh filled.
# Output in ${VARROA_CACHE:-~/.cache/varroa}/node/csi/: images/<name>.tar (docker-archive, for `ctr images
# import`) and images.env (NAME_IMAGE=reference lines deploy.sh reads). Idempotent: a second run with every
# image present does nothing; builds take one lock, so a concurrent run waits and then finds them built.
set -euo pipefail

# The newest releases whose go.mod needs k8s.io/* v0.34 (6.3.0 and later need v0.36 and do not build on v0.34).
PROVISIONER_VERSION="${CSI_PROVISIONER_VERSION:-5.3.0}"
# Keep in step with test-fixtures/kube/snapshot-crds.sh, whose CRDs deploy.sh applies.
SNAPSHOTTER_VERSION="${SNAPSHOTTER_VERSION:-8.4.0}"
# external-provisioner 5.3.0 names gateway-api v1.3.0, built on k8s.io v0.33 (structured-merge-diff/v4), which does
# not compile against v0.34; 1.4.1 is the gateway-api release built on v0.34.
PROVISIONER_GATEWAY_API_VERSION="1.4.1"
# The Kubernetes release kube/install.sh builds; the sidecars' k8s.io/* and other modules are pinned to its go.mod.
K8S_VERSION="${K8S_VERSION:-1.34.4}"
HERE="$(cd "$(dirname "$0")" && pwd)"
CACHE="${VARROA_CACHE:-$HOME/.cache/varroa}/node/csi"
# Images are test images built here, never shipped as Varroa's: the name says so.
IMAGE_PREFIX="localhost/varroa-test"
# Raise it when the way images are put together changes, so cached images of the same reference are rebuilt.
PACKAGING_VERSION=3

die() { echo "node/csi/install.sh: $*" >&2; exit 1; }
say() { echo "node/csi/install.sh: $*" >&2; }

# The driver's image tag is the hash of its sources, so an edit rebuilds it.
driver_tag() { (cd "$HERE/driver" && cat go.mod go.sum ./*.go) | sha256sum | cut -c1-12; }

# name reference, one a line: what deploy.sh loads and the manifests name.
wanted_images() {
  echo "csi-provisioner $IMAGE_PREFIX/csi-provisioner:v$PROVISIONER_VERSION"
  echo "csi-snapshotter $IMAGE_PREFIX/csi-snapshotter:v$SNAPSHOTTER_VERSION"
  echo "snapshot-controller $IMAGE_PREFIX/snapshot-controller:v$SNAPSHOTTER_VERSION"
  echo "csi-hostpath $IMAGE_PREFIX/csi-hostpath:$DRIVER_TAG"
  echo "busybox $IMAGE_PREFIX/busybox:$BUSYBOX_TAG"
}

# The busybox-static version this machine's Debian offers, as an image tag (an epoch's colon is not allowed).
busybox_version() {
  local version
  version=$(apt-cache policy busybox-static 2>/dev/null | awk '/Candidate:/ && !seen { print $2; seen = 1 }')
  [[ -n $version && $version != "(none)" ]] || die "Debian offers no busybox-static here: run 'apt-get update'"
  version=${version#*:}
  echo "${version//[^A-Za-z0-9_.-]/_}"
}

# Worked out once here, where a failure stops the script (inside wanted_images' callers it would not).
DRIVER_TAG=$(driver_tag)
BUSYBOX_TAG=$(busybox_version)

# An image is built when its archive exists and was made for the same reference the same way.
image_built() { [[ -s "$CACHE/images/$1.tar" && "$(cat "$CACHE/images/$1.ref" 2>/dev/null)" == "$2 $PACKAGING_VERSION" ]]; }

all_built() {
  local name ref
  while read -r name ref; do image_built "$name" "$ref" || return 1; done < <(wanted_images)
}

write_env() {
  local name ref
  while read -r name ref; do
    name="${name//-/_}"
    echo "${name^^}_IMAGE=$ref"
  done < <(wanted_images) > "$CACHE/images.env.tmp"
  mv -f "$CACHE/images.env.tmp" "$CACHE/images.env"
}

if all_built; then
  write_env
  echo "node/csi/install.sh: CSI images already in $CACHE/images"
  exit 0
fi

for tool in go umoci skopeo sha256sum flock apt-get dpkg-deb; do
  command -v "$tool" >/dev/null || die "$tool is missing: run 'make deps' (test-fixtures/install-deps.sh installs it)"
done
mkdir -p "$CACHE/images" "$CACHE/src" "$CACHE/bin" "$CACHE/rootfs"
# One build at a time: a second terminal or the node scripts wait here instead of racing.
exec 9>"$CACHE/.lock"
flock 9
if all_built; then
  write_env
  echo "node/csi/install.sh: built by a concurrent run; nothing to do"
  exit 0
fi
export GOFLAGS="-mod=mod" GOTOOLCHAIN=local
# The sidecars build with the CGO_ENABLED kube/install.sh builds with (the Go default): a different value
# compiles every package anew. With cgo on they are linked statically, so they run in an image holding nothing else.
STATIC_LDFLAGS=""
[[ "$(go env CGO_ENABLED)" == 1 ]] && STATIC_LDFLAGS="-linkmode=external -extldflags=-static"

# module@version for every module k8s.io/kubernetes@v$K8S_VERSION requires, with its staging modules (k8s.io/api,
# client-go, ...) at their published v0.x: the versions kube/install.sh's build resolves to.
kubernetes_pins() {
  local info gomod
  info="$(go mod download -json "k8s.io/kubernetes@v$K8S_VERSION")" \
    || die "could not fetch k8s.io/kubernetes@v$K8S_VERSION from the Go module proxy ($(go env GOPROXY))"
  gomod="$(sed -n 's/.*"GoMod": "\(.*\)".*/\1/p' <<<"$info")"
  [[ -f $gomod ]] || die "k8s.io/kubernetes@v$K8S_VERSION downloaded, but its go.mod '$gomod' is missing"
  awk '/^require \(/ { r = 1; next } r && /^\)/ { r = 0 } r && NF >= 2 && $2 != "v0.0.0" { print $1 "@" $2 }' "$gomod"
  sed -n "s#^[[:space:]]*\(k8s.io/[a-z0-9-]*\) => ./staging/src/.*#\1@v0.${K8S_VERSION#1.}#p" "$gomod"
  echo "k8s.io/kubernetes@v$K8S_VERSION"
}
KUBERNETES_PINS="$(kubernetes_pins)"

# Replace directives pin a module source's dependencies to KUBERNETES_PINS: a replace wins over any requirement,
# so the sidecar compiles against exactly the code kube/install.sh compiled. (With -trimpath the build cache key
# names module@version as selected, not as replaced, so the build itself runs under kube/install.sh's go.mod: see
# kube_module_build.)
pin_to_kubernetes() {
  local src=$1 pin args=()
  while read -r pin; do args+=(-replace "${pin%@*}=$pin"); done <<<"$KUBERNETES_PINS"
  (cd "$src" && go mod edit "${args[@]}") || die "go mod edit could not pin the k8s.io modules in $src/go.mod"
}

# A writable copy of a module's source (the module cache is read-only), made once per version.
module_source() {
  local module=$1 version=$2 dest="$CACHE/src/${1//\//_}@$2" info dir
  if [[ ! -f "$dest/.complete" ]]; then
    info="$(go mod download -json "$module@$version")" \
      || die "could not fetch $module@$version from the Go module proxy ($(go env GOPROXY))"
    dir="$(sed -n 's/.*"Dir": "\(.*\)".*/\1/p' <<<"$info")"
    [[ -d "$dir" ]] || die "$module@$version downloaded, but its folder '$dir' is missing"
    rm -rf "$dest"
    cp -r "$dir" "$dest"
    chmod -R u+w "$dest"
    touch "$dest/.complete"
  fi
  echo "$dest"
}

# kube/install.sh's Go module, whose go.mod and go.sum the sidecars build under.
KUBE_MODULE="${VARROA_CACHE:-$HOME/.cache/varroa}/kube-build/$K8S_VERSION/k8s"

# A module's source without its requirements, for a replace: it then adds nothing to version selection.
requirement_free_copy() {
  local module=$1 version=$2 dest="$CACHE/src/requirement-free/${1//\//_}@$2" info dir
  if [[ ! -f "$dest/.complete" ]]; then
    info="$(go mod download -json "$module@$version")" \
      || die "could not fetch $module@$version from the Go module proxy ($(go env GOPROXY))"
    dir="$(sed -n 's/.*"Dir": "\(.*\)".*/\1/p' <<<"$info")"
    [[ -d "$dir" ]] || die "$module@$version downloaded, but its folder '$dir' is missing"
    rm -rf "$dest" && mkdir -p "$(dirname "$dest")"
    cp -r "$dir" "$dest" && chmod -R u+w "$dest"
    { echo "module $module"; awk '/^go [0-9]/ { print; exit }' "$dest/go.mod" 2>/dev/null; } > "$dest/go.mod.tmp"
    mv -f "$dest/go.mod.tmp" "$dest/go.mod"
    touch "$dest/.complete"
  fi
  echo "$dest"
}

# A copy of a pinned sidecar source whose go.mod is kube/install.sh's (same requirements, same replaces), plus each
# module the sidecar needs that Kubernetes does not, as a requirement-free copy. Version selection then gives every
# shared module exactly the version kube/install.sh compiled, and the build cache serves those packages.
kube_module_build() {
  local src=$1 name=$2 build="$CACHE/build/$2" deps module version replaced path kube_modules
  deps="$(cd "$src" && go list -deps -f '{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}} {{with .Replace}}{{.Version}}{{end}}{{end}}{{end}}' "./cmd/$name" | sort -u)" \
    || die "go list could not resolve the packages of ./cmd/$name in $src"
  path="$(awk '/^module / { print $2; exit }' "$src/go.mod")"
  if [[ ! -f $KUBE_MODULE/go.mod ]]; then
    say "note: $KUBE_MODULE/go.mod is missing (kube/install.sh's binaries came from elsewhere), so $name builds without sharing its Go build cache"
    echo "$src"
    return
  fi
  rm -rf "$build" && mkdir -p "$CACHE/build" && cp -r "$src" "$build"
  # kube/install.sh's lock: node/install.sh edits that go.mod under it
  flock "$KUBE_MODULE/../.lock" cp "$KUBE_MODULE/go.mod" "$KUBE_MODULE/go.sum" "$build/"
  (cd "$build" && go mod edit -module "$path") || die "go mod edit could not name the module $path in $build/go.mod"
  kube_modules="$(cd "$build" && go mod edit -json | sed -n 's/^[[:space:]]*"Path": "\(.*\)",*$/\1/p' | sort -u)"
  while read -r module version replaced; do
    [[ -n $module ]] || continue
    grep -qxF "$module" <<<"$kube_modules" && continue
    (cd "$build" && go mod edit -require "$module@${replaced:-$version}" \
      -replace "$module=$(requirement_free_copy "$module" "${replaced:-$version}")") \
      || die "go mod edit could not add $module to $build/go.mod"
  done <<<"$deps"
  echo "$build"
}

# go build ./cmd/NAME inside a module's source into $CACHE/bin/NAME, statically linked when cgo is on.
build_cmd() {
  local src=$1 name=$2 version=$3 start=$SECONDS log="$CACHE/bin/$2.log"
  say "building $name $version"
  src="$(kube_module_build "$src" "$name")"
  # The static link warns about glibc's NSS functions: the images set GODEBUG=netdns=go and look up no users.
  if ! (cd "$src" && go build -trimpath -ldflags "-s -w -X main.version=$version $STATIC_LDFLAGS" \
      -o "$CACHE/bin/$name.tmp" "./cmd/$name") >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    die "go build of $name $version failed in $src (whole output: $log)"
  fi
  mv -f "$CACHE/bin/$name.tmp" "$CACHE/bin/$name"
  say "built $name in $((SECONDS - start)) s"
}

# A one-layer image of a folder's files with an entrypoint, saved as a docker-archive.
package_image() {
  local name=$1 ref=$2 rootfs=$3 entrypoint=$4 layout
  layout="$(mktemp -d "$CACHE/images/.layout-XXXXXX")"
  rmdir "$layout"
  # file times from 1970, as every other time in the image: the same inputs give the same digest
  find "$rootfs" -exec touch -h -d @0 {} +
  umoci init --layout "$layout"
  umoci new --image "$layout:image"
  umoci insert --image "$layout:image" --history.created 1970-01-01T00:00:00Z --history.author Varroa \
    "$rootfs" / >/dev/null
  umoci config --image "$layout:image" --no-history --created 1970-01-01T00:00:00Z --author Varroa \
    --os linux --architecture amd64 --config.entrypoint "$entrypoint" \
    --config.env GODEBUG=netdns=go >/dev/null
  rm -f "$CACHE/images/$name.tar"
  skopeo --insecure-policy copy --quiet "oci:$layout:image" "docker-archive:$CACHE/images/$name.tar.tmp:$ref" < /dev/null \
    || die "skopeo could not write $CACHE/images/$name.tar for $ref"
  rm -rf "$layout"
  mv -f "$CACHE/images/$name.tar.tmp" "$CACHE/images/$name.tar"
  echo "$ref $PACKAGING_VERSION" > "$CACHE/images/$name.ref"
}

# A root folder holding one binary at /NAME.
binary_rootfs() {
  local rootfs="$CACHE/rootfs/$1"
  rm -rf "$rootfs" && mkdir -p "$rootfs"
  cp "$CACHE/bin/$1" "$rootfs/$1"
  echo "$rootfs"
}

# Debian's busybox-static, downloaded (not installed) and unpacked, with the applets the tries use as links.
busybox_rootfs() {
  local rootfs="$CACHE/rootfs/busybox" work applet
  work=$(mktemp -d "$CACHE/src/.busybox-XXXXXX")
  chmod 755 "$work"   # apt downloads as its _apt user when it can
  (cd "$work" && apt-get download -qq -o APT::Sandbox::User=root busybox-static >/dev/null) || die "apt-get download busybox-static failed"
  dpkg-deb -x "$work"/busybox-static_*.deb "$work/deb"
  rm -rf "$rootfs" && mkdir -p "$rootfs/bin" "$rootfs/tmp"
  chmod 1777 "$rootfs/tmp"
  cp "$work/deb/bin/busybox" "$rootfs/bin/busybox"
  rm -rf "$work"
  for applet in sh cat echo ls mkdir rm sleep test id stat nc sync touch; do ln -s busybox "$rootfs/bin/$applet"; done
  echo "$rootfs"
}

while read -r name ref; do
  image_built "$name" "$ref" && continue
  case $name in
    csi-provisioner)
      src="$(module_source "github.com/kubernetes-csi/external-provisioner/v${PROVISIONER_VERSION%%.*}" "v$PROVISIONER_VERSION")"
      pin_to_kubernetes "$src"
      (cd "$src" && go mod edit -replace "sigs.k8s.io/gateway-api=sigs.k8s.io/gateway-api@v$PROVISIONER_GATEWAY_API_VERSION") \
        || die "go mod edit could not pin sigs.k8s.io/gateway-api in $src/go.mod"
      build_cmd "$src" csi-provisioner "v$PROVISIONER_VERSION" ;;
    csi-snapshotter|snapshot-controller)
      src="$(module_source github.com/kubernetes-csi/external-snapshotter/v8 "v$SNAPSHOTTER_VERSION")"
      # Its go.mod points the client module at ./client, a separate module the zip leaves out: use the release.
      (cd "$src" && go mod edit -replace "github.com/kubernetes-csi/external-snapshotter/client/v8=github.com/kubernetes-csi/external-snapshotter/client/v8@v$SNAPSHOTTER_VERSION")
      pin_to_kubernetes "$src"
      build_cmd "$src" "$name" "v$SNAPSHOTTER_VERSION" ;;
    csi-hostpath)
      say "building csi-hostpath (test-fixtures/node/csi/driver)"
      # Our own module shares no k8s.io build with kube/install.sh; pure Go, like pause and CoreDNS.
      (cd "$HERE/driver" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$CACHE/bin/csi-hostpath.tmp" .) \
        || die "go build of the hostpath driver failed in $HERE/driver"
      mv -f "$CACHE/bin/csi-hostpath.tmp" "$CACHE/bin/csi-hostpath" ;;
  esac
  if [[ $name == busybox ]]; then
    package_image "$name" "$ref" "$(busybox_rootfs)" /bin/sh
  else
    package_image "$name" "$ref" "$(binary_rootfs "$name")" "/$name"
  fi
  say "image $ref -> $CACHE/images/$name.tar"
done < <(wanted_images)
write_env
echo "node/csi/install.sh: CSI images in $CACHE/images"
