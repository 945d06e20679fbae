package dev.varroa.operator.node;

import dev.varroa.testfixtures.ProjectLayout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One of the dashboard's end-to-end scripts (dashboard/web/e2e, playwright-core driving Debian's Chromium), run
 * against the dashboard on the real node through its Service: the Service names map to their ClusterIPs.
 */
final class DashboardInChromium {
  private static final Duration DEADLINE = Duration.ofMinutes(3);

  private DashboardInChromium() {}

  /** Runs the script; returns what it printed; fails with that output when it does not pass. */
  static List<String> run(String script, Map<String, String> environment) throws Exception {
    Path web = ProjectLayout.root().resolve("dashboard/web");
    ProcessBuilder builder = new ProcessBuilder("node", "e2e/" + script).directory(web.toFile())
        .redirectErrorStream(true);
    builder.environment().putAll(environment);
    builder.environment().put("VARROA_E2E_SCREENSHOTS",
        ProjectLayout.root().resolve("reconcilers/target/e2e-screenshots").toString());
    Process process = builder.start();
    List<String> output = new ArrayList<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        lines.lines().forEach(output::add);
      } catch (java.io.IOException e) {
        output.add("(output unreadable: " + e.getMessage() + ")");
      }
    });
    reader.start();
    if (!process.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    reader.join(DEADLINE.toMillis());
    if (process.exitValue() != 0) {
      throw new AssertionError("e2e/" + script + " failed (exit " + process.exitValue() + "):\n"
          + String.join("\n", output));
    }
    return output;
  }
}
