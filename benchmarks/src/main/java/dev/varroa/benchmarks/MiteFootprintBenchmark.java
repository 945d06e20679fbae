package dev.varroa.benchmarks;

import dev.varroa.benchmarks.channel.ControllerEnrolment;
import dev.varroa.benchmarks.channel.BusProbe;
import dev.varroa.benchmarks.channel.ChildJvm;
import dev.varroa.benchmarks.channel.MitePod;
import dev.varroa.benchmarks.channel.ModuleClasspath;
import dev.varroa.benchmarks.channel.OperatorStandIn;
import dev.varroa.benchmarks.channel.ProcessGauge;
import dev.varroa.benchmarks.channel.Teardown;
import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.channel.BootstrapTokenIssuer;
import dev.varroa.operator.render.MiteSidecar;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;
import io.nats.client.Connection;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The mite alone: one mite as a child process with the flags the operator renders (JAVA_TOOL_OPTIONS and
 * MALLOC_ARENA_MAX from MiteSidecar) plus {@value #CONTAINER_LIMIT} standing for the container's memory limit, its own
 * runtime classpath, against a gateway (in this JVM), NATS, and the Jenkins contract fixture. Prints
 * the time from process start to Connected (its route in varroa_mite_routes), then pushes one desired
 * state as the operator does and samples the idle resident memory for a minute. Arguments: JVM flags
 * to add (they override the rendered ones), NAME=VALUE environment variables to add or replace (NAME= leaves
 * a rendered one out, JAVA_TOOL_OPTIONS=... replaces the rendered flags), {@code --sweep}
 * to measure a built-in list of flag variations one after another, {@code --window=SECONDS} for a longer
 * idle window.
 */
public final class MiteFootprintBenchmark {

  /** docs/mite.md: the rendered flags keep "an idle mite within 96 MiB resident". */
  private static final long TARGET_RESIDENT_KIB = 96 * 1024;
  /** This machine is no container: MaxRAM stands for a 256 MiB container limit, which the JVM would read. */
  private static final String CONTAINER_LIMIT = "-XX:MaxRAM=256m";
  /** "Sampled for about a minute after connect"; --window=SECONDS for a longer soak. */
  private static final Duration IDLE_WINDOW = Duration.ofSeconds(60);
  private static final Duration SAMPLE_EVERY = Duration.ofSeconds(1);
  /** In a window longer than this, the resident memory so far is printed this often. */
  private static final Duration PROGRESS_EVERY = Duration.ofMinutes(1);
  private static final Duration CONNECT_DEADLINE = Duration.ofSeconds(120);
  private static final Duration MITE_GRACEFUL_STOP = Duration.ofSeconds(30);
  private static final String MITE_MAIN = "dev.varroa.mite.MiteMain";
  private static final String GATEWAY_ID = "gateway-footprint";

  /**
   * One way of starting the mite: flags added after the rendered ones (the later flag wins), variables
   * added to the rendered environment, and rendered variables left out.
   */
  private record Variant(String name, List<String> flags, Map<String, String> env, List<String> unset) {
    static Variant flags(String name, String... flags) {
      return new Variant(name, List.of(flags), Map.of(), List.of());
    }
  }

  /** What --sweep tries, each on top of what the operator renders and the container limit. */
  private static final List<Variant> SWEEP = List.of(
      Variant.flags("rendered"),
      new Variant("without MALLOC_ARENA_MAX", List.of(), Map.of(), List.of("MALLOC_ARENA_MAX")),
      Variant.flags("+CICompilerCount=1", "-XX:CICompilerCount=1"),
      Variant.flags("+ActiveProcessorCount=1", "-XX:ActiveProcessorCount=1"),
      Variant.flags("+ReservedCodeCacheSize=8m", "-XX:ReservedCodeCacheSize=8m"),
      Variant.flags("+Xmx32m", "-Xmx32m"),
      Variant.flags("+Xshare:off", "-Xshare:off"));

  private MiteFootprintBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    Path logs = Files.createDirectories(ProjectLayout.root().resolve("benchmarks/target/channel-benchmarks"));
    long stamp = Instant.now().getEpochSecond();
    // The in-process gateway logs through slf4j-simple: into a file, not over the figures.
    System.setProperty("slf4j.provider", "org.slf4j.simple.SimpleServiceProvider");
    System.setProperty("org.slf4j.simpleLogger.logFile", logs.resolve("gateway-footprint-" + stamp + ".log").toString());
    Duration window = IDLE_WINDOW;
    boolean sweep = false;
    List<String> rest = new ArrayList<>();
    for (String arg : args) {
      if (arg.equals("--sweep")) {
        sweep = true;
      } else if (arg.startsWith("--window=")) {
        window = Duration.ofSeconds(Long.parseLong(arg.substring("--window=".length())));
      } else {
        rest.add(arg);
      }
    }
    if (sweep && !rest.isEmpty()) {
      throw new IllegalArgumentException("--sweep runs the built-in variations; it takes no flags: " + rest);
    }
    List<Variant> variants = sweep ? SWEEP : List.of(fromArgs(rest));
    try (Teardown teardown = new Teardown()) {
      run(teardown, variants, window, logs, stamp);
    }
    System.exit(0);
  }

  private static void run(Teardown teardown, List<Variant> variants, Duration window, Path logs, long stamp)
      throws Exception {
    System.out.printf("machine: %d cores, %s, not a container (%s stands for the container memory limit)%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version"), CONTAINER_LIMIT);
    System.out.printf("rendered: JAVA_TOOL_OPTIONS=\"%s\" MALLOC_ARENA_MAX=%s%n", MiteSidecar.JAVA_TOOL_OPTIONS,
        MiteSidecar.MALLOC_ARENA_MAX);
    ThrowawayDirectory work = teardown.add(ThrowawayDirectory.create("varroa-bench-mite-"));
    NatsServerProcess nats = teardown.add(NatsServerProcess.start());
    Path caCert = work.resolve("ca.crt");
    CertificateAuthority ca = CertificateAuthority.createFiles(caCert, work.resolve("ca.key"));
    Gateway gateway = Gateway.start(GatewaySettings.of(GATEWAY_ID, nats.value().url(), caCert, work.resolve("ca.key"))
        .withListen(LoopbackPort.HOST, 0));
    teardown.then(gateway::close);
    Connection operator = nats.value().connect();
    teardown.then(operator::close);
    BusTopology.ensure(operator);
    ControllerEnrolment tokens = new ControllerEnrolment(operator);
    OperatorStandIn operatorStandIn = teardown.add(new OperatorStandIn(operator));
    BusProbe bus = new BusProbe(operator);
    List<String> classpath = ModuleClasspath.of("mite", "varroa-mite");
    System.out.printf("mite classpath: its own runtime classpath, %d jars; idle window %d s after the first "
        + "desired state%n", classpath.size(), window.toSeconds());

    List<String> rows = new ArrayList<>();
    for (int i = 0; i < variants.size(); i++) {
      Variant variant = variants.get(i);
      Path log = logs.resolve("mite-" + stamp + "-" + i + ".log");
      System.out.printf("%n[%s] the rendered environment, then: command line %s %s; environment set %s, left "
          + "out %s; log %s%n", variant.name(), CONTAINER_LIMIT, String.join(" ", variant.flags()), variant.env(),
          variant.unset(), log);
      try {
        Footprint footprint = measure(variant, i, window, work, classpath, log, gateway, ca, tokens,
            operatorStandIn, bus);
        footprint.print();
        rows.add(footprint.row(variant.name()));
      } catch (RuntimeException e) {
        // One variant the JVM refuses (a flag combination it rejects) must not end the sweep.
        System.out.println("  FAILED: " + e.getMessage());
        rows.add("| " + variant.name() + " | failed: " + e.getMessage().lines().findFirst().orElse("") + " |");
      }
    }
    System.out.printf("%n=== mite footprint (target: idle VmRSS <= %d MiB) ===%n", TARGET_RESIDENT_KIB / 1024);
    System.out.println("| variant | start to Connected | first apply | VmRSS idle max / last | VmHWM | heap used "
        + "after GC / max | metaspace | threads | idle CPU | within 96 MiB |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    rows.forEach(System.out::println);
  }

  /** What one mite run measured; sizes in KiB. */
  private record Footprint(Duration toConnected, Duration firstApply, String applyOutcome, long rssAtConnect,
      long maxRss, long lastRss, long peakRss, long anonRss, long fileRss, long heapUsed, long maxHeapBytes,
      long metaspaceUsed, long maxThreads, double idleCpuPercent, int tokenRequests) {
    boolean withinTarget() {
      return maxRss <= TARGET_RESIDENT_KIB;
    }

    void print() {
      System.out.printf("  start to Connected (route in varroa_mite_routes): %.2f s; first desired state: %s in "
          + "%d ms%n", toConnected.toMillis() / 1000.0, applyOutcome, firstApply.toMillis());
      System.out.printf("  VmRSS at Connected %.1f MiB; idle window: max %.1f MiB, last %.1f MiB; VmHWM (peak "
          + "since start) %.1f MiB -> %s%n", mib(rssAtConnect), mib(maxRss), mib(lastRss), mib(peakRss),
          withinTarget() ? "within 96 MiB" : "ABOVE 96 MiB");
      System.out.printf("  of the last VmRSS: RssAnon %.1f MiB (heap, metaspace, stacks, malloc, code), RssFile %.1f "
          + "MiB (libjvm.so, CDS archive, mapped files)%n", mib(anonRss), mib(fileRss));
      System.out.printf("  heap used after a full GC %.1f MiB (MaxHeapSize %.0f MiB), metaspace %.1f MiB, "
          + "threads %d, idle CPU %.2f %% of one core, Jenkins token grants %d%n", mib(heapUsed),
          maxHeapBytes / 1048576.0, mib(metaspaceUsed), maxThreads, idleCpuPercent, tokenRequests);
    }

    String row(String variant) {
      return String.format("| %s | %.2f s | %d ms (%s) | %.1f / %.1f MiB | %.1f MiB | %.1f / %.0f MiB | %.1f MiB "
              + "| %d | %.2f %% | %s |", variant, toConnected.toMillis() / 1000.0, firstApply.toMillis(),
          applyOutcome, mib(maxRss), mib(lastRss), mib(peakRss), mib(heapUsed), maxHeapBytes / 1048576.0,
          mib(metaspaceUsed), maxThreads, idleCpuPercent, withinTarget() ? "yes" : "no");
    }

    private static double mib(long kib) {
      return kib / 1024.0;
    }
  }

  private static Footprint measure(Variant variant, int index, Duration window, ThrowawayDirectory work,
      List<String> classpath, Path log, Gateway gateway, CertificateAuthority ca, ControllerEnrolment tokens,
      OperatorStandIn operator, BusProbe bus) throws Exception {
    ControllerIdentity controller = new ControllerIdentity("footprint", "jenkins-" + index,
        UUID.randomUUID().toString());
    String token = tokens.token(controller);
    try (MitePod pod = MitePod.prepare(controller, work.resolve("pod-" + index), token, ca.certificatePem())) {
      List<String> flags = new ArrayList<>();
      flags.add(CONTAINER_LIMIT);
      flags.addAll(variant.flags());
      Map<String, String> env = new HashMap<>(pod.environment(LoopbackPort.HOST + ":" + gateway.port()));
      env.putAll(variant.env());
      variant.unset().forEach(env::remove);
      int grantsBefore = operator.tokensGranted();
      try (ChildJvm mite = ChildJvm.start("mite", flags, String.join(File.pathSeparator, classpath), MITE_MAIN, env,
          log, MITE_GRACEFUL_STOP)) {
        ProcessGauge gauge = new ProcessGauge(mite.pid());
        Duration toConnected = awaitRoute(bus, controller, mite);
        long rssAtConnect = gauge.residentKib();

        long applyStart = System.nanoTime();
        CommandResult applied = operator.pushDesiredState(GATEWAY_ID, controller);
        Duration firstApply = Duration.ofNanos(System.nanoTime() - applyStart);
        String outcome = applied.getOutcome().name()
            + (applied.getOutcome() == CommandResult.Outcome.SUCCEEDED ? "" : ": " + applied.getMessage());

        long cpuBefore = gauge.cpuNanos();
        long start = System.nanoTime();
        long end = start + window.toNanos();
        long maxRss = 0;
        long lastRss = 0;
        long maxThreads = 0;
        long nextReport = start + PROGRESS_EVERY.toNanos();
        while (true) {
          mite.requireAlive();
          lastRss = gauge.residentKib();
          maxRss = Math.max(maxRss, lastRss);
          maxThreads = Math.max(maxThreads, gauge.threads());
          if (System.nanoTime() - end >= 0) {
            break;
          }
          if (window.compareTo(PROGRESS_EVERY) > 0 && System.nanoTime() - nextReport >= 0) {
            nextReport += PROGRESS_EVERY.toNanos();
            System.out.printf("  after %d s idle: VmRSS %.1f MiB (max so far %.1f MiB)%n",
                (System.nanoTime() - start) / 1_000_000_000L, lastRss / 1024.0, maxRss / 1024.0);
          }
          Thread.sleep(SAMPLE_EVERY.toMillis());
        }
        double cpuPercent = 100.0 * (gauge.cpuNanos() - cpuBefore) / (System.nanoTime() - start);
        long peakRss = gauge.peakResidentKib();
        long anonRss = gauge.anonymousResidentKib();
        long fileRss = gauge.fileResidentKib();
        if (flags.stream().anyMatch(flag -> flag.startsWith("-XX:NativeMemoryTracking="))) {
          System.out.println(gauge.nativeMemorySummary());
        }
        long maxHeap = Long.parseLong(gauge.vmFlag("MaxHeapSize"));
        ProcessGauge.HeapFigures heap = gauge.heapAfterFullGc();
        return new Footprint(toConnected, firstApply, outcome, rssAtConnect, maxRss, lastRss, peakRss, anonRss,
            fileRss, heap.heapUsedKib(), maxHeap, heap.metaspaceUsedKib(), maxThreads, cpuPercent,
            operator.tokensGranted() - grantsBefore);
      }
    }
  }

  /** From the moment the process was spawned until the gateway wrote the mite's route. */
  private static Duration awaitRoute(BusProbe bus, ControllerIdentity controller, ChildJvm mite) throws Exception {
    long deadline = mite.startedNanos() + CONNECT_DEADLINE.toNanos();
    while (bus.route(controller).isEmpty()) {
      mite.requireAlive();
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException("the mite did not connect within " + CONNECT_DEADLINE + "\n"
            + mite.logTail());
      }
      Thread.sleep(20);
    }
    return Duration.ofNanos(System.nanoTime() - mite.startedNanos());
  }

  private static Variant fromArgs(List<String> args) {
    List<String> flags = new ArrayList<>();
    Map<String, String> env = new HashMap<>();
    List<String> unset = new ArrayList<>();
    for (String arg : args) {
      if (arg.startsWith("-")) {
        flags.add(arg);
      } else if (arg.endsWith("=")) {
        unset.add(arg.substring(0, arg.length() - 1));
      } else if (arg.contains("=")) {
        env.put(arg.substring(0, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
      } else {
        throw new IllegalArgumentException("'" + arg + "' is neither a JVM flag (-...) nor NAME=VALUE; use "
            + "--sweep for the built-in variations, --window=SECONDS for a longer idle window");
      }
    }
    return new Variant(args.isEmpty() ? "rendered" : String.join(" ", args), flags, env, unset);
  }
}
