package dev.varroa.dashboard.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs one end-to-end script of dashboard/web/e2e in Node (playwright-core driving Debian's Chromium). A script that
 * needs the world to change prints {@code step: NAME} once the page is watching; the test's action for NAME runs then,
 * and the script waits, with its own deadline, until the page shows the change. Exit 0 is a pass.
 */
final class BrowserScript {

  /** The web client's folder, where npm installed playwright-core. */
  static final Path WEB = Path.of("web").toAbsolutePath();
  private static final Duration DEADLINE = Duration.ofSeconds(120);

  /** What a script printed, and how it ended. */
  record Outcome(int exitCode, List<String> output) {
    @Override
    public String toString() {
      return "exit " + exitCode + "\n" + String.join("\n", output);
    }
  }

  /** An action the test runs when the script reaches a step. */
  @FunctionalInterface
  interface Step {
    void run() throws Exception;
  }

  private final Map<String, String> environment;
  private final Map<String, Step> steps = new HashMap<>();

  BrowserScript(Map<String, String> environment) {
    this.environment = Map.copyOf(environment);
  }

  BrowserScript on(String step, Step action) {
    steps.put(step, action);
    return this;
  }

  Outcome run(String script) throws Exception {
    ProcessBuilder builder = new ProcessBuilder("node", "e2e/" + script).directory(WEB.toFile())
        .redirectErrorStream(true);
    builder.environment().putAll(environment);
    Process process = builder.start();
    // a script that hangs without a word is ended at the deadline, which also ends the read below
    CompletableFuture.runAsync(process::destroyForcibly,
        CompletableFuture.delayedExecutor(DEADLINE.toSeconds(), TimeUnit.SECONDS));
    List<String> output = new ArrayList<>();
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        output.add(line);
        if (line.startsWith("step: ")) {
          Step action = steps.get(line.substring("step: ".length()).trim());
          if (action == null) {
            process.destroyForcibly();
            throw new IllegalStateException(script + " reached a step the test does not know: " + line);
          }
          action.run();
        }
      }
    } catch (IOException e) {
      output.add("(output unreadable: " + e.getMessage() + ")");
    }
    return new Outcome(process.waitFor(), output);
  }
}
