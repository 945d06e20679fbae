#!/usr/bin/env bash
# Builds SeaweedFS's `weed` (master, volume server, filer and S3 gateway in one binary) from the Go module proxy into
# ${VARROA_CACHE:-$HOME/.cache/varroa}/seaweedfs/<version>/bin/weed. Its S3 identities can be limited to a bucket and
# a key prefix, which s3proxy's cannot: the cell artifact tests prove one pool's credential is refused another's
# prefix against it. The module's go.mod has a replace directive, so `go install module@version` refuses it: the
# module source is downloaded, copied out of the read-only module cache and built there as the main module.
# Idempotent: a second run with the same version installed does nothing.
set -euo pipefail

SEAWEEDFS_VERSION="${SEAWEEDFS_VERSION:-v0.0.0-20261109003541-7506e5f91cd6}"
MODULE="github.com/seaweedfs/seaweedfs"
CACHE="${VARROA_CACHE:-$HOME/.cache/varroa}"
HOME_DIR="$CACHE/seaweedfs/${SEAWEEDFS_VERSION}"
BIN="$HOME_DIR/bin"
WORK="$HOME_DIR/build"

die() { echo "s3/install-seaweedfs.sh: $*" >&2; exit 1; }

if [[ -f "$BIN/weed" && -x "$BIN/weed" ]]; then
  echo "s3/install-seaweedfs.sh: SeaweedFS ${SEAWEEDFS_VERSION} already in $BIN"
  exit 0
fi

command -v go >/dev/null || die "go is missing: SeaweedFS is built from Go modules"
mkdir -p "$HOME_DIR"
# One build at a time: parallel test modules or a second terminal wait here instead of racing.
exec 9>"$HOME_DIR/.lock"
flock 9
if [[ -f "$BIN/weed" && -x "$BIN/weed" ]]; then
  echo "s3/install-seaweedfs.sh: built by a concurrent run; nothing to do"
  exit 0
fi
export GOTOOLCHAIN=local
export GOFLAGS="-buildvcs=false"

echo "s3/install-seaweedfs.sh: downloading ${MODULE}@${SEAWEEDFS_VERSION} from the Go module proxy"
go mod download "${MODULE}@${SEAWEEDFS_VERSION}" \
  || die "could not download ${MODULE}@${SEAWEEDFS_VERSION} from the Go module proxy ($(go env GOPROXY))"
source_dir="$(go env GOMODCACHE)/${MODULE}@${SEAWEEDFS_VERSION}"
[[ -f "$source_dir/go.mod" ]] || die "the module cache has no $source_dir/go.mod after go mod download"

rm -rf "$WORK"
mkdir -p "$WORK"
cp -R "$source_dir/." "$WORK/"
chmod -R u+w "$WORK"
echo "s3/install-seaweedfs.sh: building weed (several minutes on two cores the first time)"
# The output is named apart from the source folder weed/, which go build would otherwise write into.
(cd "$WORK" && go build -trimpath -ldflags "-s -w" -o "$HOME_DIR/weed.built" ./weed) \
  || die "could not build ${MODULE}/weed@${SEAWEEDFS_VERSION}; the build output above says why"
mkdir -p "$BIN"
mv "$HOME_DIR/weed.built" "$BIN/weed"
rm -rf "$WORK"
echo "s3/install-seaweedfs.sh: installed $BIN/weed"
