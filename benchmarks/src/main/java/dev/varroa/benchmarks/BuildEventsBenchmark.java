package dev.varroa.benchmarks;

import dev.varroa.benchmarks.channel.ModuleClasspath;
import dev.varroa.benchmarks.channel.Teardown;
import dev.varroa.benchmarks.events.BuildEventPath;
import dev.varroa.testfixtures.ProjectLayout;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * R1 "a restart at any tier costs a delay and not a lost event" (seed 000, Build Events Are Durable), measured:
 * the plugin core (spool included) in its own JVM plays Jenkins and emits 10,000 events across 400 runs through a real
 * mite, gateway, nats-server with JetStream and recorder into a real PostgreSQL, while the harness kills each tier in
 * turn with SIGKILL mid-stream and starts it again. Then it compares what was emitted with the rows. After that, with
 * nothing killed: the time from emission to row, the claim round trip through all four hops to the ledger, and the
 * rate at which the gateway publishes (acknowledges) events. Prints its figures last, one a line.
 * Run with {@code make bench-events}.
 */
public final class BuildEventsBenchmark {

  private BuildEventsBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    Path logs = Files.createDirectories(ProjectLayout.root().resolve("benchmarks/target/events-benchmark")
        .resolve(Long.toString(Instant.now().getEpochSecond())));
    // the harness's own clients log through slf4j-simple: into a file, not over the figures
    System.setProperty("slf4j.provider", "org.slf4j.simple.SimpleServiceProvider");
    System.setProperty("org.slf4j.simpleLogger.logFile", logs.resolve("harness.log").toString());
    System.out.printf("machine: %d cores, %s; logs in %s%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.vm.version"), logs);
    List<String> figures;
    try (Teardown teardown = new Teardown()) {
      BuildEventPath path = BuildEventPath.start(teardown, logs, classpath("gateway", "varroa-gateway"),
          classpath("mite", "varroa-mite"), classpath("recorder", "varroa-recorder"));
      figures = path.measure();
    }
    System.out.println();
    figures.forEach(System.out::println);
    System.exit(0);
  }

  private static String classpath(String module, String artifactId) {
    return String.join(File.pathSeparator, ModuleClasspath.of(module, artifactId));
  }
}
