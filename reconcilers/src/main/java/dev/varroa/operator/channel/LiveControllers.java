package dev.varroa.operator.channel;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The operator's record of the Controllers that exist (bucket varroa_controllers, key
 * &lt;cluster&gt;.&lt;namespace&gt;.&lt;name&gt;, value the UID). A gateway opens a mite stream only for the UID
 * recorded here, so a certificate stops working when its Controller is deleted (docs/security.md).
 */
public final class LiveControllers {

  /** How long a record this replica wrote is trusted before a pass writes it again (a NATS store lost meanwhile). */
  static final Duration REWRITE_AFTER = Duration.ofMinutes(10);

  private final KeyValue bucket;
  private final String cluster;
  private final Clock clock;
  // What this replica wrote and when, so a reconcile pass writes only when the UID is new to it or the write is old.
  private final Map<String, Written> written = new ConcurrentHashMap<>();

  private record Written(String uid, Instant at) {
  }

  public LiveControllers(KeyValue bucket, String cluster, Clock clock) {
    this.bucket = bucket;
    this.cluster = cluster;
    this.clock = clock;
  }

  /** Records that the Controller exists with this UID (a put unless this replica wrote it in the last minutes). */
  public void record(ControllerIdentity controller) throws IOException, JetStreamApiException {
    String key = BusNames.liveControllerKey(cluster, controller);
    Instant now = clock.instant();
    Written last = written.get(key);
    if (last != null && last.uid().equals(controller.uid()) && now.isBefore(last.at().plus(REWRITE_AFTER))) {
      return;
    }
    bucket.put(key, controller.uid().getBytes(StandardCharsets.UTF_8));
    written.put(key, new Written(controller.uid(), now));
  }

  /**
   * Removes the record of a deleted Controller; a record of a newer Controller of the same name (another UID) stays.
   * The delete is compare-and-set on the revision read, so it never removes a record written meanwhile.
   */
  public void forget(ControllerIdentity controller) throws IOException, JetStreamApiException {
    String key = BusNames.liveControllerKey(cluster, controller);
    written.computeIfPresent(key, (k, last) -> last.uid().equals(controller.uid()) ? null : last);
    KeyValueEntry entry = bucket.get(key);
    if (entry == null || entry.getOperation() != KeyValueOperation.PUT
        || !controller.uid().equals(new String(entry.getValue(), StandardCharsets.UTF_8))) {
      return;
    }
    bucket.delete(key, entry.getRevision());
  }
}
