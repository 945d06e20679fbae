package dev.varroa.operator.channel;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The operator's record of the Controllers that exist (bucket varroa_controllers, key
 * &lt;cluster&gt;.&lt;namespace&gt;.&lt;name&gt;, value the UID). A gateway opens a mite stream only for the UID
 * recorded here, so a certificate stops working when its Controller is deleted (docs/security.md).
 */
public final class LiveControllers {

  private final KeyValue bucket;
  private final String cluster;
  // What this replica wrote, so a reconcile pass writes only when the UID is new to it.
  private final Map<String, String> written = new ConcurrentHashMap<>();

  public LiveControllers(KeyValue bucket, String cluster) {
    this.bucket = bucket;
    this.cluster = cluster;
  }

  /** Records that the Controller exists with this UID (a put when this replica has not written it yet). */
  public void record(ControllerIdentity controller) throws IOException, JetStreamApiException {
    String key = BusNames.liveControllerKey(cluster, controller);
    if (controller.uid().equals(written.get(key))) {
      return;
    }
    bucket.put(key, controller.uid().getBytes(StandardCharsets.UTF_8));
    written.put(key, controller.uid());
  }

  /**
   * Removes the record of a deleted Controller; a record of a newer Controller of the same name (another UID) stays.
   * The delete is compare-and-set on the revision read, so it never removes a record written meanwhile.
   */
  public void forget(ControllerIdentity controller) throws IOException, JetStreamApiException {
    String key = BusNames.liveControllerKey(cluster, controller);
    written.remove(key, controller.uid());
    KeyValueEntry entry = bucket.get(key);
    if (entry == null || entry.getOperation() != KeyValueOperation.PUT
        || !controller.uid().equals(new String(entry.getValue(), StandardCharsets.UTF_8))) {
      return;
    }
    bucket.delete(key, entry.getRevision());
  }
}
