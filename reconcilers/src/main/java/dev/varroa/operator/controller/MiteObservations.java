package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.protocol.bus.v1.MiteRoute;
import java.time.Instant;
import java.util.Optional;

/** Turns a gateway's route and the last push result into what the status aggregator reads. */
final class MiteObservations {
  private MiteObservations() {}

  static ControllerStatusAggregator.MiteObservation of(Optional<MiteRoute> route,
      Optional<MiteDelivery.Finished> lastPush, ControllerStatus.MiteStatus previous) {
    ControllerStatus.MiteStatus status = new ControllerStatus.MiteStatus();
    if (route.isPresent()) {
      MiteRoute r = route.get();
      status.connected = true;
      status.gateway = r.getGatewayId();
      status.connectedAt = Instant.ofEpochMilli(r.getConnectedAtEpochMillis()).toString();
      status.miteVersion = emptyToNull(r.getMiteVersion());
      status.jenkinsVersion = emptyToNull(r.getObserved().getJenkinsVersion());
      status.certificateNotAfter = r.getCertificateNotAfterEpochMillis() == 0 ? null
          : Instant.ofEpochMilli(r.getCertificateNotAfterEpochMillis()).toString();
    } else {
      // keep what was last seen for diagnosis; only "connected" changes
      if (previous != null) {
        status.gateway = previous.gateway;
        status.connectedAt = previous.connectedAt;
        status.miteVersion = previous.miteVersion;
        status.jenkinsVersion = previous.jenkinsVersion;
        status.certificateNotAfter = previous.certificateNotAfter;
      }
      status.connected = false;
    }
    Optional<String> degraded = route.filter(MiteRoute::getStreamDegraded)
        .map(r -> r.getDegradedReason().isEmpty() ? "gateway " + r.getGatewayId() + " cannot use the bus for this stream"
            : r.getDegradedReason());
    Optional<ControllerStatus.ApplyResult> apply = lastPush.map(p -> {
      ControllerStatus.ApplyResult result = new ControllerStatus.ApplyResult();
      result.succeeded = p.succeeded();
      result.message = p.succeeded() ? "applied" : p.result().getOutcome() + ": " + p.result().getMessage();
      result.bundleDigest = p.bundleDigest();
      result.appliedAt = p.finishedAt().toString();
      result.trigger = p.trigger();
      return result;
    });
    return new ControllerStatusAggregator.MiteObservation(status, degraded, apply);
  }

  private static String emptyToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }
}
