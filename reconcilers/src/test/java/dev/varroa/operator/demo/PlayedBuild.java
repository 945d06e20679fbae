package dev.varroa.operator.demo;

import dev.varroa.plugin.PluginCore;
import dev.varroa.plugin.events.BuildEventEmitter;
import dev.varroa.plugin.logs.ConsoleLogSink;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One build played through the Jenkins plugin's core, as the plugin inside Jenkins would report it: queued,
 * started, two stages, a test summary, completed and finalized, with a console log of a few thousand lines written
 * through the plugin's log sink beside the run's own log file (where Jenkins keeps it). Nothing here waits for the
 * records; the caller checks the record store.
 */
public final class PlayedBuild {

  /** "a console log of a few thousand lines" */
  static final int LOG_LINES = 3_000;
  static final String[] STAGES = {"Build", "Test"};
  static final int TESTS = 214;
  static final int TESTS_SKIPPED = 3;

  /** What was played: the run, and the exact log the plugin was handed. */
  public record Played(String runId, String job, long buildNumber, byte[] log) {
  }

  private PlayedBuild() {
  }

  public static Played play(PluginCore core, Path jenkinsHome, String job, long buildNumber) throws IOException {
    String runId = BuildEventEmitter.runIdOf(job, buildNumber);
    BuildEventEmitter events = core.events();
    String cause = "Started by the Varroa demo";
    events.runQueued(runId, job, buildNumber, cause);
    events.runStarted(runId, job, buildNumber, "built-in", 180, cause);
    Path jenkinsLog = jenkinsHome.resolve("jobs").resolve(job.replace("/", "/jobs/")).resolve("builds")
        .resolve(Long.toString(buildNumber)).resolve("log");
    Files.createDirectories(jenkinsLog.getParent());
    java.io.ByteArrayOutputStream played = new java.io.ByteArrayOutputStream();
    try (OutputStream own = Files.newOutputStream(jenkinsLog); ConsoleLogSink sink = core.log(runId, job).sink(own)) {
      OutputStream both = new Tee(sink, played);
      line(both, "Started by the Varroa demo");
      line(both, "[Pipeline] Start of Pipeline");
      int perStage = LOG_LINES / STAGES.length;
      for (int s = 0; s < STAGES.length; s++) {
        String stageId = Integer.toString(3 + 4 * s);
        events.stageStarted(runId, job, stageId, STAGES[s], "");
        line(both, "[Pipeline] { (" + STAGES[s] + ")");
        for (int i = 1; i <= perStage - 2; i++) {
          line(both, String.format(Locale.ROOT, "[%s] step %04d of %s: compiling dev/varroa/demo/Module%03d.java",
              STAGES[s].toLowerCase(Locale.ROOT), i, job, i % 997));
        }
        line(both, "[Pipeline] }");
        events.stageEnded(runId, job, stageId, STAGES[s], "", "SUCCESS", 1_000L * (s + 2));
      }
      events.testSummary(runId, job, TESTS, 0, TESTS_SKIPPED);
      line(both, "Tests: " + TESTS + " run, 0 failed, " + TESTS_SKIPPED + " skipped");
      line(both, "[Pipeline] End of Pipeline");
      line(both, "Finished: SUCCESS");
    }
    events.runCompleted(runId, job, buildNumber, "SUCCESS", 5_400);
    events.runFinalized(runId, job, buildNumber, "SUCCESS", 5_400);
    core.runFinished(runId);
    return new Played(runId, job, buildNumber, played.toByteArray());
  }

  private static void line(OutputStream out, String text) throws IOException {
    out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /** The sink and the demo's own record of what it wrote, so the stored log can be compared byte for byte. */
  private static final class Tee extends OutputStream {
    private final OutputStream first;
    private final OutputStream second;

    Tee(OutputStream first, OutputStream second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public void write(int b) throws IOException {
      first.write(b);
      second.write(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      first.write(bytes, offset, length);
      second.write(bytes, offset, length);
    }
  }
}
