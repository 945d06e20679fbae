# The two commands of the README: `make demo` and `make test`. Everything they need is installed
# by test-fixtures/install-deps.sh, idempotently, outside the repository.
MVN ?= mvn -B -ntp
SHELL := /bin/bash

.PHONY: deps build demo demo-check test crds docs bench-bundles bench-controllers bench-gateway bench-mite bench-latency clean

deps:
	bash test-fixtures/install-deps.sh

# The local run lives with the operator's tests: it wires the operator, the gateway, the mite and the fixtures.
LOCAL_RUN = java -cp "reconcilers/target/test-classes:reconcilers/target/classes:$$(cat reconcilers/target/test-classpath.txt)" dev.varroa.operator.demo.LocalRun

build: deps
	$(MVN) -q install -DskipTests
	$(MVN) -q -pl reconcilers dependency:build-classpath -DincludeScope=test -Dmdep.outputFile=target/test-classpath.txt

demo: build
	$(LOCAL_RUN)

demo-check: build
	$(LOCAL_RUN) --check

test: deps
	$(MVN) install

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

# P1 "commit -> applied": one Controller following a Git branch, the demo's setup; figures go to docs/benchmarks.md.
bench-latency: build
	$(MVN) -q -pl benchmarks dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
	java -cp "benchmarks/target/classes:$$(cat benchmarks/target/classpath.txt)" dev.varroa.benchmarks.CommitLatencyBenchmark $(ARGS)

clean:
	$(MVN) -q clean
	rm -rf .demo
