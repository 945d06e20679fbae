package dev.varroa.benchmarks.bundle;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.compose.BundleComposer;
import dev.varroa.bundle.compose.ComposeRequest;
import dev.varroa.bundle.compose.Composition;
import dev.varroa.bundle.compose.InputSource;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.ExecutorService;

/**
 * One compose with nothing cached: a new composer (empty memo) whose sources have a new, empty Git cache, its
 * source calls on a pool shared by every run, as the operator shares one. Records its wall time, the process's
 * CPU and JIT compilation time during it, and when its revision checks and fetches ran.
 *
 * @param millis wall time of the compose
 * @param cpuMillis CPU time of the whole process during it (every thread, JIT and GC included)
 * @param jitMillis time the JIT compilers spent during it; near zero once the JVM is warm
 * @param revisionChecksMillis first ls-remote's start to the last one's end
 * @param fetchesMillis first fetch's start to the last one's end
 * @param afterSourcesMillis the last source call's end to the compose's return: what is left of parse and render
 */
public record ColdCompose(double millis, double cpuMillis, double jitMillis, double revisionChecksMillis,
    double fetchesMillis, double afterSourcesMillis, BundleComposer composer, Composition composition) {

  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

  /** @param sources sources whose Git cache is new and empty */
  public static ColdCompose run(InputSource sources, ExecutorService sourceCalls, ComposeRequest request)
      throws BundleException {
    TimedInputSource source = new TimedInputSource(sources);
    BundleComposer composer = new BundleComposer(source, sourceCalls);
    long jit = JIT.getTotalCompilationTime();
    long cpu = OS.getProcessCpuTime();
    long start = System.nanoTime();
    Composition composition = composer.compose(request);
    long end = System.nanoTime();
    double cpuMillis = (OS.getProcessCpuTime() - cpu) / 1e6;
    double jitMillis = JIT.getTotalCompilationTime() - jit;
    long lastSourceCall = Math.max(source.revisionChecks().lastEnd(), source.fetches().lastEnd());
    return new ColdCompose((end - start) / 1e6, cpuMillis, jitMillis, source.revisionChecks().millis(),
        source.fetches().millis(), (end - lastSourceCall) / 1e6, composer, composition);
  }
}
