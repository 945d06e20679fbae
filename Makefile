# The two commands of the README: `make demo` and `make test`. Everything they need is installed
# by test-fixtures/install-deps.sh, idempotently, outside the repository.
MVN ?= mvn -B -ntp
SHELL := /bin/bash

.PHONY: node-up node-down node-check test-real-node deps build demo demo-check demo-played demo-played-check test crds docs images images-check install-dry-run images-registry-stop bench-bundles bench-controllers bench-gateway bench-mite bench-latency bench-events bench-logs bench-bff bench-clusters bench-brood bench-cells bench-dashboard-page bench-hibernation clean

deps:
	bash test-fixtures/install-deps.sh

# The local run lives with the operator's tests: it wires the operator, the gateway, the mite and the fixtures.
LOCAL_RUN = java -cp "reconcilers/target/test-classes:reconcilers/target/classes:$$(cat reconcilers/target/test-classpath.txt)" dev.varroa.operator.demo.LocalRun

build: deps
	$(MVN) -q install -DskipTests
	$(MVN) -q -pl reconcilers dependency:build-classpath -DincludeScope=test -Dmdep.outputFile=target/test-classpath.txt
	$(MVN) -q -pl dashboard dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile=target/classpath.txt

# Varroa on the real node (bin/demo.sh): the node up, the images built, the chart installed with helm, the example
# Controller Connected and its build recorded; it falls back to the played mode, saying why in one line, when the node
# cannot come up here. The played mode (every pod played by the local run) stays as the faster target for development.
demo: build
	bash bin/demo.sh

demo-check: build
	bash bin/demo.sh --check

demo-played: build
	$(LOCAL_RUN)

demo-played-check: build
	$(LOCAL_RUN) --check

# Every test: the Maven reactor (unit tests and ITs against real servers, the chart's ITs), then the images
# built and run (each entrypoint in a chroot) and rebuilt to prove the same digests, then the test images (what the
# chart pulls from upstream, and the Jenkins stand-in), and last the real-node tests: the chart installed with helm on
# a real node running those images (docs/testing.md), inside node/check.sh, which fails when the node left anything
# behind on the machine.
# -T 2: modules off one another's path (api, bundle-composer, plugin, update-center beside recorder, gateway, mite)
# build side by side; the reactor still orders every module after what it depends on, test-jars included.
test: deps
	$(MVN) -T 2 install
	IMAGES_FROM_INSTALLED=true bin/images/build.sh && IMAGES_FROM_INSTALLED=true bin/images/check.sh \
	  && test-fixtures/images/build.sh && IMAGES_FROM_INSTALLED=true test-fixtures/images/jenkins-standin.sh \
	  && $(REAL_NODE_TESTS); rc=$$?; \
	  bin/images/registry.sh stop; exit $$rc

# The tests tagged real-node (WithRealNode), on a node brought up for them and taken down after, checked to leave nothing.
# One node for both modules' JVMs: up.sh first, so each JVM's extension finds it running and leaves it to check.sh.
REAL_NODE_TESTS = bash test-fixtures/node/check.sh bash -c 'test-fixtures/node/up.sh > /dev/null && $(MVN) -o \
	-pl test-fixtures,reconcilers surefire:test -Dvarroa.test.forks=1 -Dvarroa.test.excludedGroups= -Dgroups=real-node'

test-real-node:
	$(REAL_NODE_TESTS)

# The components' images (bin/images/images.tsv), built by Jib on a base assembled from Debian packages and a
# jlinked Java 17, pushed to $$IMAGE_REGISTRY/varroa/<name>:<version> or, unset, to a docker-registry started on
# loopback (its host:port in $${VARROA_CACHE:-~/.cache/varroa}/images/registry). See docs/images.md.
images: deps
	bin/images/build.sh

# Runs each image's entrypoint with --version in a chroot as user 65532, probes its runtime, checks jdeps against
# it, rebuilds base and images to compare digests, and prints the sizes (figure: lines) last.
images-check: images
	bin/images/check.sh

# `make images`, then the chart installed with helm install --dry-run=server into a real API server started for it,
# with the images just pushed (image.registry from the registry file). ARGS go to helm, e.g. ARGS="-f chart/values-hive.yaml
# --set bus.url=tls://nats.example.com:4222".
install-dry-run: build images
	java -cp "reconcilers/target/test-classes:reconcilers/target/classes:$$(cat reconcilers/target/test-classpath.txt)" \
	  dev.varroa.operator.demo.InstallDryRun --set image.registry=$$(cat $${VARROA_CACHE:-$$HOME/.cache/varroa}/images/registry) $(ARGS)

images-registry-stop:
	bin/images/registry.sh stop

# A real single-node Kubernetes on this machine (containerd, kubelet, kube-proxy, CoreDNS; docs/testing.md): node-up
# installs what it needs and starts it (or reuses the running one) and prints its kubeconfig; node-down takes it all away.
node-up:
	bash test-fixtures/node/up.sh

node-down:
	bash test-fixtures/node/down.sh

# The machine before node-up and after node-down must be the same: processes, mounts, links, iptables, cgroups, files.
node-check:
	bash test-fixtures/node/check.sh

# Regenerates the CRDs from the api/ model and copies them into chart/crds/.
crds:
	$(MVN) -q -pl api -am package -DskipTests

# Rewrites docs/reference/api.md from the CRDs.
docs: crds
	$(MVN) -q -pl api test -Dtest=ApiReferenceTest -Dvarroa.writeDocs=true

# Issue 3's bundle benchmark; figures go to docs/benchmarks.md.
bench-bundles: build
	$(MVN) -q -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
	java -cp "benchmarks/target/classes:$$(cat benchmarks/target/classpath.txt)" dev.varroa.benchmarks.BundleRenderBenchmark

# Issue 4's fleet benchmark (500 Controllers on a real API server); figures go to docs/benchmarks.md.
bench-controllers: build
	$(MVN) -q -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
	java -cp "benchmarks/target/classes:$$(cat benchmarks/target/classpath.txt)" dev.varroa.benchmarks.ControllerFleetBenchmark

# Issue 5's benchmarks: 5,000 simulated mites on one gateway, and the mite's footprint; figures go to docs/benchmarks.md.
CHANNEL_BENCH_CLASSPATH = \
	$(MVN) -q -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt && \
	$(MVN) -q -pl gateway,mite dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile=target/runtime-classpath.txt

bench-gateway: build
	$(CHANNEL_BENCH_CLASSPATH)
	java -Xmx3g -cp "benchmarks/target/classes:$$(cat benchmarks/target/classpath.txt)" dev.varroa.benchmarks.GatewayFleetBenchmark

bench-mite: build
	$(CHANNEL_BENCH_CLASSPATH)
	java -cp "benchmarks/target/classes:$$(cat benchmarks/target/classpath.txt)" dev.varroa.benchmarks.MiteFootprintBenchmark

# R1: 10,000 build events through plugin core, mite, gateway, NATS and recorder into PostgreSQL while each
# tier is killed in turn; then claim round trips and the gateway's publish rate. Figures go to docs/benchmarks.md.
bench-events: build
	$(MVN) -q -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt && \
	$(MVN) -q -pl gateway,mite,recorder dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile=target/runtime-classpath.txt
	java -cp "benchmarks/target/classes:$$(cat benchmarks/target/classpath.txt)" dev.varroa.benchmarks.BuildEventsBenchmark

# Issue 12: console log write MB/s through the gateway to each blob tier, live-tail latency, and the gateway's heap
# with 1,000 streams in the middle of a log; figures go to docs/benchmarks.md.
bench-logs: build
	$(MVN) -q -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt && \
	$(MVN) -q -pl gateway dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile=target/runtime-classpath.txt
	java -cp "benchmarks/target/classes:$$(cat benchmarks/target/classpath.txt)" dev.varroa.benchmarks.ConsoleLogsBenchmark $(ARGS)

# Issue 13: GET /controllers of 1,000 Controllers, live activity fanned out to 500 SSE clients, and the BFF's heap,
# with the BFF in its own JVM on its runtime classpath; figures go to docs/benchmarks.md.
bench-bff: build
	$(MVN) -q -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt && \
	$(MVN) -q -pl dashboard dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile=target/runtime-classpath.txt
	java -cp "benchmarks/target/classes:$$(cat benchmarks/target/classpath.txt)" dev.varroa.benchmarks.DashboardBenchmark $(ARGS)

# Issue 27: GET /controllers across two clusters of 1,000 Controllers (two kube-apiservers, one NATS, the BFF in its
# own JVM), then with a third, silent member; figures go to docs/benchmarks.md.
bench-clusters: build
	$(MVN) -q -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt && \
	$(MVN) -q -pl dashboard dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile=target/runtime-classpath.txt
	java -cp "benchmarks/target/classes:$$(cat benchmarks/target/classpath.txt)" dev.varroa.benchmarks.MemberClustersListBenchmark $(ARGS)

# Issue 28: a reapplyConfiguration BroodOperation over 1,000 Controllers on 2 clusters (two kube-apiservers, one NATS),
# maxConcurrent 50; ARGS="controllers-per-cluster max-concurrent"; figures go to docs/benchmarks.md.
bench-brood: build
	$(MVN) -q -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
	java -cp "benchmarks/target/classes:$$(cat benchmarks/target/classpath.txt)" dev.varroa.benchmarks.BroodOperationBenchmark $(ARGS)

# Issue 29's placement figures: 500 Teams over a CellPool of 50 cells on a real API server (time, writes per team,
# writes after an operator restart).
bench-cells: build
	$(MVN) -q -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
	java -cp "benchmarks/target/classes:$$(cat benchmarks/target/classpath.txt)" dev.varroa.benchmarks.CellPlacementBenchmark $(ARGS)

# Issue 14's browser figures (Controllers page with 1,000 controllers in Chromium, bundle sizes, the page's heap after
# ten minutes of live activity); ARGS="controllers minutes events-per-second"; figures go to docs/benchmarks.md.
bench-dashboard-page: build
	$(MVN) -q -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt && \
	$(MVN) -q -pl dashboard dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile=target/runtime-classpath.txt
	java -cp "benchmarks/target/classes:$$(cat benchmarks/target/classpath.txt)" dev.varroa.benchmarks.DashboardPageBenchmark $(ARGS)

# Issue 15's hibernation benchmark: one Controller parked and woken N times (ARGS="30") on a real API server and NATS,
# the kubelet, the StatefulSet controller and the mite played at once; figures go to docs/benchmarks.md.
bench-hibernation: build
	$(MVN) -q -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
	java -cp "benchmarks/target/classes:$$(cat benchmarks/target/classpath.txt)" dev.varroa.benchmarks.HibernationWakeBenchmark $(ARGS)

# P1 "commit -> applied": one Controller following a Git branch, the demo's setup; figures go to docs/benchmarks.md.
bench-latency: build
	$(MVN) -q -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
	java -cp "benchmarks/target/classes:$$(cat benchmarks/target/classpath.txt)" dev.varroa.benchmarks.CommitLatencyBenchmark $(ARGS)

clean:
	$(MVN) -q clean
	rm -rf .demo
