#!/usr/bin/env bash
# Builds kube-apiserver, kubectl and etcd from the Go module proxy and installs them where
# kube-api-test looks in offline mode: ~/.kubeapitest/k8s/<version>-linux-<arch>/.
# No download site for Kubernetes binaries is reachable here; the Go module proxy is.
# Idempotent: a second run with the binaries present does nothing.
set -euo pipefail

K8S_VERSION="${K8S_VERSION:-1.34.4}"
ETCD_VERSION="${ETCD_VERSION:-3.6.16}"
ARCH="$(go env GOARCH 2>/dev/null || echo amd64)"
DEST="${KUBEAPITEST_DIR:-$HOME/.kubeapitest}/k8s/${K8S_VERSION}-linux-${ARCH}"
WORK="${VARROA_CACHE:-$HOME/.cache/varroa}/kube-build/${K8S_VERSION}"

die() { echo "kube/install.sh: $*" >&2; exit 1; }

# kube-api-test passes --service-cluster-ip-range=10.0.0.0/24 and --authorization-mode RBAC. A wrapper appends
# a /16 range (the last occurrence wins; the fleet benchmark needs 500 Services) and replaces the authorizers
# with Node,RBAC, those of a real cluster, which the chart's RBAC is proven against (that flag accumulates, so
# kube-api-test's own occurrence is dropped).
WRAPPER_VERSION="# varroa wrapper 2: Node,RBAC"
wrap_apiserver() {
  if [[ -x "$DEST/kube-apiserver.bin" ]] && grep -qF -- "$WRAPPER_VERSION" "$DEST/kube-apiserver" 2>/dev/null; then
    return
  fi
  # A wrapper from an older run is replaced; only the real binary moves to .bin.
  if [[ ! -x "$DEST/kube-apiserver.bin" ]]; then
    mv -f "$DEST/kube-apiserver" "$DEST/kube-apiserver.bin"
  fi
  cat > "$DEST/kube-apiserver.tmp" <<SH
#!/bin/sh
$WRAPPER_VERSION
skip=0
for arg in "\$@"; do
  shift
  if [ "\$skip" = 1 ]; then skip=0; continue; fi
  case "\$arg" in
    --authorization-mode) skip=1; continue ;;
    --authorization-mode=*) continue ;;
  esac
  set -- "\$@" "\$arg"
done
exec "\$(dirname "\$0")/kube-apiserver.bin" "\$@" --service-cluster-ip-range=10.0.0.0/16 --authorization-mode=Node,RBAC
SH
  chmod +x "$DEST/kube-apiserver.tmp"
  mv -f "$DEST/kube-apiserver.tmp" "$DEST/kube-apiserver"
}

if [[ -x "$DEST/kube-apiserver" && -x "$DEST/etcd" && -x "$DEST/kubectl" ]]; then
  wrap_apiserver
  echo "kube/install.sh: kube-apiserver, etcd and kubectl ${K8S_VERSION} already in $DEST"
  exit 0
fi

mkdir -p "$WORK/k8s" "$WORK/etcd" "$DEST"
# One build at a time: parallel test modules or a second terminal wait here instead of racing.
exec 9>"$WORK/.lock"
flock 9
if [[ -x "$DEST/kube-apiserver" && -x "$DEST/etcd" && -x "$DEST/kubectl" ]]; then
  wrap_apiserver
  echo "kube/install.sh: built by a concurrent run; nothing to do"
  exit 0
fi
export GOFLAGS="-mod=mod"
export GOTOOLCHAIN=local

echo "kube/install.sh: building Kubernetes v${K8S_VERSION} (kube-apiserver, kubectl) from Go modules; first run takes several minutes"
cd "$WORK/k8s"
[[ -f go.mod ]] || go mod init varroa.dev/kube-build >/dev/null 2>&1
# k8s.io/kubernetes points its staging modules at ./staging/...; a dependant must replace each with
# the published v0.x release. The list comes from the upstream go.mod, not typed by hand.
upstream_mod="$(go mod download -json "k8s.io/kubernetes@v${K8S_VERSION}" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')"
[[ -f "$upstream_mod" ]] || die "could not fetch k8s.io/kubernetes@v${K8S_VERSION} from the Go module proxy ($(go env GOPROXY))"
staging_version="v0.${K8S_VERSION#1.}"
staging=$(sed -n 's#^[[:space:]]*\(k8s.io/[a-z0-9-]*\) => ./staging/src/.*#\1#p' "$upstream_mod")
[[ -n "$staging" ]] || die "found no staging replace directives in $upstream_mod"
for m in $staging; do
  go mod edit -replace "$m=$m@$staging_version"
done
go mod edit -require "k8s.io/kubernetes@v${K8S_VERSION}"
cat > tools.go <<'GO'
//go:build tools

package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
GO
go mod tidy >/dev/null 2>&1 || go mod download

minor="${K8S_VERSION#1.}"; minor="${minor%%.*}"
ldflags=""
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=v${K8S_VERSION} -X $pkg.gitMajor=1 -X $pkg.gitMinor=${minor}"
  ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done
go build -trimpath -ldflags "-s -w $ldflags" -o "$DEST/kube-apiserver.tmp" k8s.io/kubernetes/cmd/kube-apiserver
go build -trimpath -ldflags "-s -w $ldflags" -o "$DEST/kubectl.tmp" k8s.io/kubernetes/cmd/kubectl

echo "kube/install.sh: building etcd v${ETCD_VERSION} from Go modules"
cd "$WORK/etcd"
[[ -f go.mod ]] || go mod init varroa.dev/etcd-build >/dev/null 2>&1
cat > main.go <<'GO'
package main

import "go.etcd.io/etcd/server/v3/etcdmain"

func main() { etcdmain.Main(os.Args) }
GO
sed -i 's#^import "go.etcd.io/etcd/server/v3/etcdmain"#import (\n\t"os"\n\n\t"go.etcd.io/etcd/server/v3/etcdmain"\n)#' main.go
go get "go.etcd.io/etcd/server/v3@v${ETCD_VERSION}" >/dev/null
go mod tidy >/dev/null
go build -trimpath -ldflags "-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=v${ETCD_VERSION}" -o "$DEST/etcd.tmp" .

for b in kube-apiserver kubectl etcd; do mv -f "$DEST/$b.tmp" "$DEST/$b"; done
wrap_apiserver
"$DEST/kube-apiserver" --version
# No pipe into head here: under pipefail, head closing early kills etcd with SIGPIPE and the script exits 141.
etcd_version="$("$DEST/etcd" --version)"
echo "${etcd_version%%$'\n'*}"
echo "kube/install.sh: installed into $DEST"
