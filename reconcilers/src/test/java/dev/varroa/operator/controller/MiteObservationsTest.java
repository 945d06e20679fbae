package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.ObservedState;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The delivery step's outcome for status: the mite as the gateways report it. */
class MiteObservationsTest {
  private static MiteRoute route(boolean degraded) {
    return MiteRoute.newBuilder().setGatewayId("gateway-1").setConnectedAtEpochMillis(1_767_225_600_000L)
        .setMiteVersion("1.4.0").setObserved(ObservedState.newBuilder().setJenkinsVersion("2.479.3"))
        .setStreamDegraded(degraded).build();
  }

  @Test
  void aLiveStreamIsConnectedWithItsGatewayAndVersions() {
    ControllerStatusAggregator.MiteObservation seen = MiteObservations.of(Optional.of(route(false)), Optional.empty(),
        null);
    assertThat(seen.connected()).isTrue();
    assertThat(seen.status().gateway).isEqualTo("gateway-1");
    assertThat(seen.status().connectedAt).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(seen.status().jenkinsVersion).isEqualTo("2.479.3");
    assertThat(seen.status().certificateNotAfter).isNull();
    assertThat(seen.degradedReason()).isEmpty();
    assertThat(seen.lastApply()).isEmpty();
  }

  @Test
  void aLostStreamKeepsWhatWasLastSeenForDiagnosis() {
    ControllerStatus.MiteStatus before = MiteObservations.of(Optional.of(route(false)), Optional.empty(), null)
        .status();
    ControllerStatusAggregator.MiteObservation seen = MiteObservations.of(Optional.empty(), Optional.empty(), before);
    assertThat(seen.connected()).isFalse();
    assertThat(seen.status().gateway).isEqualTo("gateway-1");
    assertThat(seen.status().miteVersion).isEqualTo("1.4.0");
  }

  @Test
  void aDegradedStreamWithoutAReasonNamesItsGateway() {
    assertThat(MiteObservations.of(Optional.of(route(true)), Optional.empty(), null).degradedReason())
        .contains("gateway gateway-1 cannot use the bus for this stream");
  }

  @Test
  void theApplyResultNamesTheReapplyValueItAnswers() {
    MiteDelivery.Finished finished = new MiteDelivery.Finished("sha256:b1", CommandResult.newBuilder()
        .setOutcome(CommandResult.Outcome.SUCCEEDED).setFinishedAtEpochMillis(1_767_225_600_000L).build(), "wave-3");

    ControllerStatus.ApplyResult apply = MiteObservations.of(Optional.of(route(false)), Optional.of(finished), null)
        .lastApply().orElseThrow();

    assertThat(apply.trigger).isEqualTo("wave-3");
    assertThat(apply.succeeded).isTrue();
    assertThat(apply.bundleDigest).isEqualTo("sha256:b1");
  }
}
