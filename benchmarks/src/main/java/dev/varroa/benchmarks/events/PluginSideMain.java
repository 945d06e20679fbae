package dev.varroa.benchmarks.events;

import dev.varroa.plugin.PluginCore;
import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.plugin.events.BuildEventEmitter;
import dev.varroa.plugin.events.SpoolAdmission;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.List;

/**
 * Plays Jenkins with the plugin core, spool included, in its own JVM so the benchmark can kill it with SIGKILL:
 * runs {@code first..last} of {@link BenchRuns}, each {@value BenchRuns#EVENTS_PER_RUN} events, at a steady rate.
 * After a restart it goes on where the spool says each run stands; runs it finished are listed in the progress file.
 * The plugin's settings come from the environment (VARROA_LOOPBACK_URL, VARROA_LOOPBACK_TOKEN_FILE).
 * Arguments: JENKINS_HOME, first run, last run (exclusive), events per second.
 */
public final class PluginSideMain {

  static final String PROGRESS_FILE = "bench-finished-runs";
  static final String DONE_LINE = "emitted";

  private PluginSideMain() {
  }

  public static void main(String[] args) throws Exception {
    Path home = Path.of(args[0]);
    int first = Integer.parseInt(args[1]);
    int last = Integer.parseInt(args[2]);
    double perSecond = Double.parseDouble(args[3]);
    Path progress = home.resolve(PROGRESS_FILE);
    List<String> finished = Files.exists(progress) ? Files.readAllLines(progress) : List.of();
    try (PluginCore core = PluginCore.start(PluginSettings.fromEnvironment(), home, Clock.systemUTC())) {
      BuildEventEmitter events = core.events();
      long startedNanos = System.nanoTime();
      long emitted = 0;
      for (int run = first; run < last; run++) {
        if (finished.contains(Integer.toString(run))) {
          continue;
        }
        String runId = BenchRuns.runId(run);
        long done = core.spool().lastSequence(runId);
        for (int step = (int) done + 1; step <= BenchRuns.EVENTS_PER_RUN; step++) {
          SpoolAdmission admission = BenchRuns.emit(events, run, step);
          if (admission instanceof SpoolAdmission.RefusedAtCap refused) {
            System.out.println("event=bench_refused_at_cap key=" + refused.key());
          }
          emitted++;
          // a steady rate: each event waits for its slot
          long due = startedNanos + (long) (emitted * 1e9 / perSecond);
          long wait = due - System.nanoTime();
          if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
          }
        }
        Files.writeString(progress, run + "\n", StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      }
      Files.writeString(progress, DONE_LINE + "\n", StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      System.out.println("event=bench_emitted_all");
      // keep sending until the benchmark stops this process: the spool drains in the background
      Thread.currentThread().join();
    }
  }

  static boolean emittedAll(Path home) throws IOException {
    Path progress = home.resolve(PROGRESS_FILE);
    return Files.exists(progress) && Files.readAllLines(progress).contains(DONE_LINE);
  }
}
