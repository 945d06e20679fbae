#!/usr/bin/env bash
# Installs what the tests and the demo run against, idempotently, outside the repository:
# Debian's nats-server and docker-registry, umoci, skopeo and jq (for `make images`), and
# kube-apiserver/etcd/kubectl, helm and helm-unittest built from Go modules, and Debian's postgresql
# with the OS user the PostgreSQL fixture runs it as, and the OpenID provider the identity tests log in through
# (zitadel/oidc's example server, built from Go modules), and SeaweedFS (built from Go modules: the S3 server
# whose identities can be limited to a key prefix, for the cell artifact tests), and Debian's chromium with a font
# for the dashboard's browser tests (driven by playwright-core from npm, which never downloads a browser of its
# own), and rsync for the JENKINS_HOME move's copy tests, and what the real node needs (test-fixtures/node/install.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

die() { echo "install-deps.sh: $*" >&2; exit 1; }

for tool in java mvn go node npm; do
  command -v "$tool" >/dev/null || die "$tool is missing: this project needs Java 17, Maven, Go and Node.js with npm on the machine"
done

missing=()
command -v nats-server >/dev/null || [[ -x /usr/sbin/nats-server ]] || missing+=(nats-server)
command -v docker-registry >/dev/null || missing+=(docker-registry)
# `make images` assembles its base image with umoci and hands it to Jib as a docker-archive made by skopeo.
command -v umoci >/dev/null || missing+=(umoci)
command -v skopeo >/dev/null || missing+=(skopeo)
command -v jq >/dev/null || missing+=(jq)
# the JENKINS_HOME move's copy command line is tested with the real rsync (docs/storage-moves.md)
command -v rsync >/dev/null || missing+=(rsync)
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
# without a font Chromium draws no text, and the dashboard's screenshots would show empty boxes
[[ -d /usr/share/fonts/truetype/dejavu ]] || missing+=(fonts-dejavu-core)
if (( ${#missing[@]} )); then
  echo "install-deps.sh: installing Debian packages: ${missing[*]}"
  sudo_cmd=(); [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
fi

"$here/postgres/install.sh"
"$here/kube/install.sh"
"$here/kube/snapshot-crds.sh"
"$here/helm/install.sh"
"$here/oidc/install.sh"
"$here/s3/install-seaweedfs.sh"
# the real node: containerd, runc, kubelet, kube-proxy, the scheduler and controller manager, CoreDNS, the volume stack
"$here/node/install.sh"
