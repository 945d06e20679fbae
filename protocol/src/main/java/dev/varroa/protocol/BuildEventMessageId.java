package dev.varroa.protocol;

import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.JobScheduleInventory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The Nats-Msg-Id of a build event group on varroa_builds: the same controller and the same events
 * always give the same id, so a gateway that publishes a group again (a mite replay after a lost
 * acknowledgement) has JetStream store it once within the dedupe window.
 */
public final class BuildEventMessageId {

  private BuildEventMessageId() {
  }

  public static String of(ControllerIdentity controller, List<BuildEvent> events) {
    MessageDigest digest = sha256();
    for (BuildEvent event : events) {
      digest.update(event.getRunId().getBytes(StandardCharsets.UTF_8));
      digest.update((byte) 0);
      digest.update(Long.toUnsignedString(event.getSequence()).getBytes(StandardCharsets.US_ASCII));
      digest.update((byte) '\n');
    }
    return controller.uid() + ":events:" + HexFormat.of().formatHex(digest.digest());
  }

  /** The inventory without its observation time: an unchanged inventory is stored once per window. */
  public static String of(ControllerIdentity controller, JobScheduleInventory inventory) {
    byte[] content = inventory.toBuilder().clearObservedAtEpochMillis().build().toByteArray();
    return controller.uid() + ":schedules:" + HexFormat.of().formatHex(sha256().digest(content));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }
}
