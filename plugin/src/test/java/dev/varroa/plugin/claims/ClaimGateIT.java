package dev.varroa.plugin.claims;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.plugin.loopback.LoopbackClient;
import dev.varroa.plugin.loopback.LoopbackToken;
import dev.varroa.plugin.testing.MiteLoopbackStandIn;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gate with its production scheduler and loopback client, against a listener that plays the mite. */
class ClaimGateIT {

  @TempDir
  Path dir;

  @Test
  void canRunAnswersWhileTheClaimIsInFlightAndLetsTheItemGoOnceGranted() throws Exception {
    Path tokenFile = dir.resolve("loopback-token");
    CountDownLatch ledgerAnswers = new CountDownLatch(1);
    try (MiteLoopbackStandIn mite = MiteLoopbackStandIn.start(tokenFile, "token");
        ExecutorTaskScheduler scheduler = new ExecutorTaskScheduler();
        LoopbackClient client = new LoopbackClient(PluginSettings.fromEnvironment(Map.of(
            "VARROA_LOOPBACK_URL", "http://127.0.0.1:1", "VARROA_LOOPBACK_TOKEN_FILE", tokenFile.toString()))
            .withLoopbackUrl(mite.url()), new LoopbackToken(tokenFile, Clock.systemUTC()))) {
      mite.answerClaims(request -> {
        try {
          ledgerAnswers.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return MiteLoopbackStandIn.Answer.granted(101);
      });
      ClaimGate gate = new ClaimGate(true, client::claim, scheduler);

      for (int i = 0; i < 50; i++) {
        assertThat(gate.canRun(77, "run-77", "team/app", 1).mayRun()).isFalse();
      }
      await().atMost(Duration.ofSeconds(5)).until(() -> mite.claims().size() == 1);
      ledgerAnswers.countDown();

      await().atMost(Duration.ofSeconds(10))
          .until(() -> gate.canRun(77, "run-77", "team/app", 1), answer -> answer.equals(new GateAnswer.Granted(101)));
      assertThat(mite.claims()).hasSize(1);
    }
  }
}
