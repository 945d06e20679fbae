#!/usr/bin/env bash
# Builds the volume stack of the real node from the Go module proxy and packages each static binary
# (CGO_ENABLED=0) as a one-layer OCI image with umoci/skopeo (no Docker engine):
#   csi-provisioner      github.com/kubernetes-csi/external-provisioner/v6   (PVC -> CreateVolume)
#   csi-snapshotter      github.com/kubernetes-csi/external-snapshotter/v8   (VolumeSnapshotContent -> CreateSnapshot)
#   snapshot-controller  github.com/kubernetes-csi/external-snapshotter/v8   (VolumeSnapshot -> VolumeSnapshotContent)
#   csi-hostpath         ./driver, our own small hostpath CSI driver: the proxy serves neither
#                        csi-driver-host-path nor node-driver-registrar (403), so the driver also registers
#                        itself with the kubelet.
#   busybox              Debian's busybox-static, for the pods that try volumes (check.sh): a shell, cat, nc.
# Output in ${VARROA_CACHE:-~/.cache/varroa}/node/csi/: images/<name>.tar (docker-archive, for `ctr images
# import`) and images.env (NAME_IMAGE=reference lines deploy.sh reads). Idempotent: a second run with every
# image present does nothing; builds take one lock, so a concurrent run waits and then finds them built.
set -euo pipefail

PROVISIONER_VERSION="${CSI_PROVISIONER_VERSION:-6.4.0}"
# Keep in step with test-fixtures/kube/snapshot-crds.sh, whose CRDs deploy.sh applies.
SNAPSHOTTER_VERSION="${SNAPSHOTTER_VERSION:-8.7.0}"
HERE="$(cd "$(dirname "$0")" && pwd)"
CACHE="${VARROA_CACHE:-$HOME/.cache/varroa}/node/csi"
# Images are test images built here, never shipped as Varroa's: the name says so.
IMAGE_PREFIX="localhost/varroa-test"
# Raise it when the way images are put together changes, so cached images of the same reference are rebuilt.
PACKAGING_VERSION=2

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
export GOFLAGS="-mod=mod" GOTOOLCHAIN=local CGO_ENABLED=0

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

# go build ./cmd/NAME inside a module's source into $CACHE/bin/NAME.
build_cmd() {
  local src=$1 name=$2 version=$3
  say "building $name $version"
  (cd "$src" && go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$CACHE/bin/$name.tmp" "./cmd/$name") \
    || die "go build of $name $version failed in $src"
  mv -f "$CACHE/bin/$name.tmp" "$CACHE/bin/$name"
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
    --os linux --architecture amd64 --config.entrypoint "$entrypoint" >/dev/null
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
      src="$(module_source github.com/kubernetes-csi/external-provisioner/v6 "v$PROVISIONER_VERSION")"
      build_cmd "$src" csi-provisioner "v$PROVISIONER_VERSION" ;;
    csi-snapshotter|snapshot-controller)
      src="$(module_source github.com/kubernetes-csi/external-snapshotter/v8 "v$SNAPSHOTTER_VERSION")"
      # Its go.mod points the client module at ./client, a separate module the zip leaves out: use the release.
      (cd "$src" && go mod edit -replace "github.com/kubernetes-csi/external-snapshotter/client/v8=github.com/kubernetes-csi/external-snapshotter/client/v8@v$SNAPSHOTTER_VERSION")
      build_cmd "$src" "$name" "v$SNAPSHOTTER_VERSION" ;;
    csi-hostpath)
      say "building csi-hostpath (test-fixtures/node/csi/driver)"
      (cd "$HERE/driver" && go build -trimpath -ldflags "-s -w" -o "$CACHE/bin/csi-hostpath.tmp" .) \
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
