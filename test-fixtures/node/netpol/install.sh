#!/usr/bin/env bash
# Builds the real node's NetworkPolicy agent, sigs.k8s.io/kube-network-policies v0.8.0 (nftables + NFQUEUE,
# enforces NetworkPolicy on any CNI, the bridge plugin's too), from the Go module proxy with CGO_ENABLED=0: our
# main in agent/ around the module's controller (upstream's main reads only a pod's in-cluster config). Also
# Debian's netcat-openbsd, the nc check.sh probes with. Idempotent, under its own lock in
# ${VARROA_CACHE:-~/.cache/varroa}/node/; prints the binary's path last.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=test-fixtures/node/netpol/netpol.sh
source "$here/netpol.sh"
say() { echo "node/netpol/install.sh: $*" >&2; }
die() { echo "node/netpol/install.sh: $*" >&2; exit 1; }

if ! command -v nc >/dev/null; then
  say "installing Debian's netcat-openbsd"
  sudo_cmd=(); [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends netcat-openbsd >/dev/null \
    || die "apt-get install netcat-openbsd failed"
fi

if [[ ! -x $NETPOL_BIN ]]; then
  command -v go >/dev/null || die "no go on PATH: the agent is built from Go modules (Go 1.23 or newer)"
  mkdir -p "$NETPOL_CACHE/bin"
  # not node/install.sh's lock (.lock): that script may call this one while holding its own
  exec 7>"$NETPOL_CACHE/.netpol.lock"
  flock 7
  if [[ ! -x $NETPOL_BIN ]]; then
    say "building kube-network-policies v0.8.0 from Go modules"
    start=$SECONDS
    # go.sum pins every module; -mod=readonly refuses to build anything else
    (cd "$here/agent" && GOTOOLCHAIN=local GOFLAGS=-mod=readonly CGO_ENABLED=0 \
      go build -trimpath -ldflags "-s -w" -o "$NETPOL_BIN.tmp" .) \
      || die "could not build test-fixtures/node/netpol/agent from the Go module proxy ($(go env GOPROXY))"
    mv -f "$NETPOL_BIN.tmp" "$NETPOL_BIN"
    say "built $(basename "$NETPOL_BIN") in $((SECONDS - start)) s"
  fi
  exec 7>&-
fi
echo "$NETPOL_BIN"
