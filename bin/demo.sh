#!/usr/bin/env bash
# `make demo` and `make demo-check`: Varroa as a cluster runs it, on the real node (test-fixtures/node/): the node up,
# the images built and pushed to the loopback registry, then dev.varroa.operator.node.NodeDemo installs the chart with
# helm and runs the example Controller (docs/getting-started.md). When the node cannot come up on this machine, or the
# images cannot be built, it says why in one line and runs the played mode instead (`make demo-played`).
# VARROA_DEMO=played picks the played mode outright. A node this script brought up goes down when it ends (Ctrl-C too);
# a node that was up before (make node-up) is left up.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
check=()
[[ ${1:-} == --check ]] && check=(--check)
classpath="reconcilers/target/test-classes:reconcilers/target/classes:$(cat reconcilers/target/test-classpath.txt)"
mkdir -p .demo

played() {
  exec java -cp "$classpath" dev.varroa.operator.demo.LocalRun "${check[@]}"
}

# The last line a failed step printed, as the one-line reason.
reason() { grep -v '^[[:space:]]*$' "$1" | tail -n 1; }

if [[ ${VARROA_DEMO:-node} == played ]]; then
  played
fi

was_up=false
if bash -c 'source test-fixtures/node/node.sh && node_pid kubelet >/dev/null && node_api_ready' 2>/dev/null; then
  was_up=true
fi
# With "quiet": after a failed start, where down.sh only takes away what up.sh got to start.
node_down() {
  if [[ $was_up == false ]]; then
    [[ ${1:-} == quiet ]] || echo "demo: taking the node down (test-fixtures/node/down.sh)"
    bash test-fixtures/node/down.sh > .demo/node-down.log 2>&1 || echo "demo: down.sh failed: $(reason .demo/node-down.log) (log $root/.demo/node-down.log)"
  fi
}

echo "demo: bringing up the real node (test-fixtures/node/up.sh; log $root/.demo/node-up.log)"
if ! bash test-fixtures/node/up.sh > .demo/node-up.log 2>&1; then
  why=$(reason .demo/node-up.log)
  node_down quiet
  echo "demo: the real node cannot run here ($why); running the played mode instead (see $root/.demo/node-up.log)"
  played
fi

echo "demo: building Varroa's images, the test images and the Jenkins stand-in (log $root/.demo/images.log)"
if ! { IMAGES_FROM_INSTALLED=true bin/images/build.sh && test-fixtures/images/build.sh \
    && IMAGES_FROM_INSTALLED=true test-fixtures/images/jenkins-standin.sh; } > .demo/images.log 2>&1; then
  why=$(reason .demo/images.log)
  node_down
  echo "demo: the images for the real node could not be built ($why); running the played mode instead (see $root/.demo/images.log)"
  played
fi

# Ctrl-C reaches the JVM too (one process group); this shell waits for it to stop, then takes the node down.
trap ':' INT TERM
java -cp "$classpath" dev.varroa.operator.node.NodeDemo "${check[@]}"
rc=$?
node_down
exit $rc
