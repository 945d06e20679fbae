package dev.varroa.cli.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.cli.bff.BffClient;
import dev.varroa.cli.bff.BffFailure;
import dev.varroa.cli.bff.ConsoleLogPrinter;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;

/**
 * --follow of a pipeline run: polls GET /pipeline-runs/{id} until the build has a run id, prints its console log to
 * the end, waits for its result and answers the exit code (docs/pipelines.md).
 */
final class PipelineRunFollower {

  /** How often the request's status is asked while it waits for the cell and Jenkins. */
  static final Duration POLL_INTERVAL = Duration.ofSeconds(1);
  /** After the log is complete the result is a recorder write away; far longer means the events are stuck. */
  static final Duration RESULT_WAIT = Duration.ofMinutes(10);

  static final String FAILED = "failed";
  static final String FINISHED = "finished";

  private final BffClient client;
  private final PrintWriter out;
  private final PrintWriter err;
  private final Duration startWait;

  PipelineRunFollower(BffClient client, PrintWriter out, PrintWriter err, Duration startWait) {
    this.client = client;
    this.out = out;
    this.err = err;
    this.startWait = startWait;
  }

  int follow(String requestId, JsonNode accepted) {
    String cell = accepted.path("cellNamespace").asText() + "/" + accepted.path("cell").asText();
    JsonNode started = poll(requestId, startWait, s -> !s.path("runId").asText().isEmpty()
        || FAILED.equals(state(s)) || FINISHED.equals(state(s)));
    if (started == null || FAILED.equals(state(started)) || started.path("runId").asText().isEmpty()) {
      JsonNode last = started == null ? status(requestId) : started;
      err.println("pipeline run " + requestId + " never started on cell " + cell + ": " + (FAILED.equals(state(last))
          ? "it failed: " + last.path("message").asText()
          : "it is still " + describe(last) + " after " + startWait.toString().substring(2).toLowerCase()
              + " (--timeout); `varroactl run pipeline ... --request-id " + requestId + " --follow` waits again"));
      err.flush();
      return BuildResultExit.NEVER_STARTED;
    }
    String runId = started.path("runId").asText();
    err.println("run " + runId + " (" + started.path("job").asText() + " #" + started.path("buildNumber").asLong()
        + ")");
    err.flush();
    new ConsoleLogPrinter(client, out).print(runId, true);
    JsonNode finished = FINISHED.equals(state(started)) ? started
        : poll(requestId, RESULT_WAIT, s -> FINISHED.equals(state(s)) || FAILED.equals(state(s)));
    if (finished == null || !FINISHED.equals(state(finished))) {
      throw BffFailure.local("run " + runId + " of pipeline run " + requestId + " has a complete log but no result"
          + " after " + RESULT_WAIT.toMinutes() + " minutes; `varroactl get runs` shows it once the recorder has it");
    }
    String result = finished.path("result").asText();
    err.println("result: " + result);
    err.flush();
    return BuildResultExit.of(result).orElseThrow(() -> BffFailure.local("run " + runId + " ended with result '"
        + result + "', which is not a Jenkins result (SUCCESS, UNSTABLE, FAILURE, NOT_BUILT, ABORTED)"));
  }

  /** The first status that passes, or null once the wait is over. */
  private JsonNode poll(String requestId, Duration wait, Predicate<JsonNode> done) {
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      JsonNode status = status(requestId);
      if (done.test(status)) {
        return status;
      }
      if (System.nanoTime() - deadline >= 0) {
        return null;
      }
      try {
        Thread.sleep(Math.min(POLL_INTERVAL.toMillis(), Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw BffFailure.local("interrupted while waiting for pipeline run " + requestId);
      }
    }
  }

  private JsonNode status(String requestId) {
    return client.json("/pipeline-runs/" + URLEncoder.encode(requestId, StandardCharsets.UTF_8), Map.of());
  }

  private static String state(JsonNode status) {
    return status.path("state").asText();
  }

  private static String describe(JsonNode status) {
    String message = status.path("message").asText();
    return state(status) + (message.isEmpty() ? "" : " (" + message + ")");
  }
}
