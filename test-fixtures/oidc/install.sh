#!/usr/bin/env bash
# Builds the OpenID provider the identity tests log in through: zitadel/oidc's example server, from the Go
# module proxy, into ${VARROA_CACHE:-$HOME/.cache/varroa}/oidc/<version>/bin/server. Production uses Dex, which
# cannot be built here (its module has replace directives, and the proxy serves no current release).
# Idempotent: a second run with the same version installed does nothing.
set -euo pipefail

OIDC_VERSION="${OIDC_VERSION:-3.52.0}"
CACHE="${VARROA_CACHE:-$HOME/.cache/varroa}"
HOME_DIR="$CACHE/oidc/v${OIDC_VERSION}"
BIN="$HOME_DIR/bin"

die() { echo "oidc/install.sh: $*" >&2; exit 1; }

if [[ -x "$BIN/server" ]]; then
  echo "oidc/install.sh: zitadel/oidc example server v${OIDC_VERSION} already in $BIN"
  exit 0
fi

command -v go >/dev/null || die "go is missing: the OpenID provider is built from Go modules"
mkdir -p "$HOME_DIR"
# One build at a time: parallel test modules or a second terminal wait here instead of racing.
exec 9>"$HOME_DIR/.lock"
flock 9
if [[ -x "$BIN/server" ]]; then
  echo "oidc/install.sh: built by a concurrent run; nothing to do"
  exit 0
fi
export GOTOOLCHAIN=local
echo "oidc/install.sh: building github.com/zitadel/oidc/v3/example/server@v${OIDC_VERSION} from Go modules"
GOBIN="$HOME_DIR/gobin" go install -trimpath -ldflags "-s -w" \
  "github.com/zitadel/oidc/v3/example/server@v${OIDC_VERSION}" \
  || die "could not build github.com/zitadel/oidc/v3/example/server@v${OIDC_VERSION} from the Go module proxy ($(go env GOPROXY))"
mkdir -p "$BIN"
mv "$HOME_DIR/gobin/server" "$BIN/server"
rm -rf "$HOME_DIR/gobin"
echo "oidc/install.sh: installed $BIN/server"
