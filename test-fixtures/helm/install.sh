#!/usr/bin/env bash
# Builds helm and the helm-unittest plugin from the Go module proxy into
# ${VARROA_CACHE:-$HOME/.cache/varroa}/helm/: bin/helm and plugins/unittest/ (point HELM_PLUGINS there).
# No download site for Helm releases is reachable here; the Go module proxy is.
# Idempotent: a second run with the same versions installed does nothing.
set -euo pipefail

HELM_VERSION="${HELM_VERSION:-3.22.0}"
HELM_UNITTEST_VERSION="${HELM_UNITTEST_VERSION:-1.1.2}"
# The test API server's version (test-fixtures/kube/install.sh): helm's built-in default for
# .Capabilities.KubeVersion and for its deprecation lint follows it, so `helm template` and
# `helm lint` judge the chart against the cluster the tests run.
K8S_VERSION="${K8S_VERSION:-1.34.4}"
CACHE="${VARROA_CACHE:-$HOME/.cache/varroa}"
HOME_DIR="$CACHE/helm"
BIN="$HOME_DIR/bin"
PLUGIN_DIR="$HOME_DIR/plugins/unittest"
WORK="$HOME_DIR/build"
STAMP="$HOME_DIR/installed"
WANT="helm=${HELM_VERSION} helm-unittest=${HELM_UNITTEST_VERSION} kube=${K8S_VERSION}"

die() { echo "helm/install.sh: $*" >&2; exit 1; }

installed() {
  [[ -x "$BIN/helm" && -x "$PLUGIN_DIR/untt" && -f "$PLUGIN_DIR/plugin.yaml" && -f "$STAMP" ]] \
    && [[ "$(cat "$STAMP")" == "$WANT" ]]
}

if installed; then
  echo "helm/install.sh: helm ${HELM_VERSION} and helm-unittest ${HELM_UNITTEST_VERSION} already in $HOME_DIR"
  exit 0
fi

command -v go >/dev/null || die "go is missing: helm is built from Go modules"
mkdir -p "$WORK" "$BIN" "$PLUGIN_DIR"
# One build at a time: parallel test modules or a second terminal wait here instead of racing.
exec 9>"$HOME_DIR/.lock"
flock 9
if installed; then
  echo "helm/install.sh: built by a concurrent run; nothing to do"
  exit 0
fi
export GOFLAGS="-mod=mod"
export GOTOOLCHAIN=local

k8s_major="${K8S_VERSION%%.*}"
k8s_minor="${K8S_VERSION#*.}"; k8s_minor="${k8s_minor%%.*}"
kube_ldflags=""
for pkg in helm.sh/helm/v3/pkg/chartutil helm.sh/helm/v3/pkg/lint/rules; do
  kube_ldflags+=" -X $pkg.k8sVersionMajor=${k8s_major} -X $pkg.k8sVersionMinor=${k8s_minor}"
done

echo "helm/install.sh: building helm v${HELM_VERSION} from Go modules (default KubeVersion v${k8s_major}.${k8s_minor})"
# helm's go.mod has no replace directive, so `go install module@version` builds it as released.
GOBIN="$WORK/gobin" go install -trimpath \
  -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=v${HELM_VERSION} -X helm.sh/helm/v3/internal/version.metadata= $kube_ldflags" \
  "helm.sh/helm/v3/cmd/helm@v${HELM_VERSION}" \
  || die "could not build helm.sh/helm/v3/cmd/helm@v${HELM_VERSION} from the Go module proxy ($(go env GOPROXY))"

echo "helm/install.sh: building helm-unittest v${HELM_UNITTEST_VERSION} from Go modules"
# helm-unittest's go.mod has a replace directive, which `go install module@version` refuses:
# download the module and build inside a writable copy of it, where the replace applies.
unittest_dir="$(go mod download -json "github.com/helm-unittest/helm-unittest@v${HELM_UNITTEST_VERSION}" \
  | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')"
[[ -n "$unittest_dir" && -f "$unittest_dir/go.mod" ]] \
  || die "could not fetch github.com/helm-unittest/helm-unittest@v${HELM_UNITTEST_VERSION} from the Go module proxy ($(go env GOPROXY))"
src="$WORK/helm-unittest-${HELM_UNITTEST_VERSION}"
rm -rf "$src"
cp -r "$unittest_dir" "$src"
chmod -R u+w "$src"
# The plugin renders through helm's library: the same KubeVersion default as the helm binary.
(cd "$src" && go build -trimpath \
  -ldflags "-s -w -X github.com/helm-unittest/helm-unittest/internal/build.version=${HELM_UNITTEST_VERSION} $kube_ldflags" \
  -o "$WORK/untt" ./cmd/helm-unittest) \
  || die "could not build helm-unittest in $src"
rm -rf "$src"

mv -f "$WORK/gobin/helm" "$BIN/helm"
mv -f "$WORK/untt" "$PLUGIN_DIR/untt"
# Our own plugin manifest: upstream's names per-platform binaries and an install hook that downloads them.
cat > "$PLUGIN_DIR/plugin.yaml" <<YAML
name: "unittest"
version: "${HELM_UNITTEST_VERSION}"
usage: "unit tests for helm charts (built from Go modules by test-fixtures/helm/install.sh)"
description: "helm-unittest ${HELM_UNITTEST_VERSION}"
ignoreFlags: false
command: "\$HELM_PLUGIN_DIR/untt"
YAML
echo "$WANT" > "$STAMP"

HELM_PLUGINS="$HOME_DIR/plugins" "$BIN/helm" version --short
HELM_PLUGINS="$HOME_DIR/plugins" "$BIN/helm" plugin list
echo "helm/install.sh: installed into $HOME_DIR (run helm with HELM_PLUGINS=$HOME_DIR/plugins for \`helm unittest\`)"
