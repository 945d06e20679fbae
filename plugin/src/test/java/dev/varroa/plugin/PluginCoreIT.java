package dev.varroa.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.plugin.claims.GateAnswer;
import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.plugin.testing.MiteLoopbackStandIn;
import dev.varroa.protocol.builds.v1.BuildEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The core as the glue starts it: settings from the environment, spool in the Jenkins home, sender running. */
class PluginCoreIT {

  @TempDir
  Path home;

  @Test
  void startsFromTheEnvironmentSendsWhatRunsEmitAndGatesQueuedItems() throws Exception {
    Path tokenFile = home.resolve("loopback-token");
    try (MiteLoopbackStandIn mite = MiteLoopbackStandIn.start(tokenFile, "token")) {
      mite.answerClaims(request -> MiteLoopbackStandIn.Answer.granted(3));
      PluginSettings settings = PluginSettings.fromEnvironment(Map.of(
          "VARROA_LOOPBACK_URL", mite.url().toString(),
          "VARROA_LOOPBACK_TOKEN_FILE", tokenFile.toString(),
          "VARROA_CLAIM_GATE", "true"));
      try (PluginCore core = PluginCore.start(settings, home, Clock.systemUTC())) {
        core.events().runQueued("run-1", "team/app", 12, "Started by user admin");
        core.events().runStarted("run-1", "team/app", 3, "built-in", 250, "Started by user admin");
        core.events().testSummary("run-1", "team/app", 120, 2, 5);
        core.events().runCompleted("run-1", "team/app", 3, "UNSTABLE", 4000);
        core.events().runFinalized("run-1", "team/app", 3, "UNSTABLE", 4100);

        await().atMost(Duration.ofSeconds(10)).until(() -> core.spool().status().pendingEvents() == 0);
        assertThat(mite.received()).extracting(BuildEvent::getSequence).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(mite.received().get(2).getTestSummary().getFailed()).isEqualTo(2);
        assertThat(mite.received().get(4).getRunFinalized().getResult()).isEqualTo("UNSTABLE");
        assertThat(Files.isDirectory(home.resolve("varroa/spool"))).isTrue();

        assertThat(core.claimGate().canRun(12, "run-1", "team/app", 1).mayRun()).isFalse();
        await().atMost(Duration.ofSeconds(10))
            .until(() -> core.claimGate().canRun(12, "run-1", "team/app", 1), answer -> answer.equals(new GateAnswer.Granted(3)));
      }
    }
  }
}
