package dev.varroa.operator.actions;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.bus.v1.ActionResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The cluster's action record, kept in one ConfigMap in the operator's namespace so it outlives the operator: the
 * drain state (a drain under way resumes after a restart) and the answer to every request id already executed (the
 * same id again is answered from here, never executed twice).
 */
public final class ActionLedger {

  /** The ConfigMap's name in the operator's namespace. */
  public static final String CONFIG_MAP = "varroa-cluster-actions";
  static final String DRAIN_STATE = "drain.state";
  static final String DRAIN_REQUESTED_BY = "drain.requestedBy";
  static final String DRAIN_CHANGED_AT = "drain.changedAt";
  private static final String REQUEST_PREFIX = "request.";
  /** How many answers were remembered so far: each answer is stored as "&lt;sequence&gt;:&lt;base64&gt;". */
  static final String REQUEST_SEQUENCE = "requests.sequence";
  /** Answers kept; the oldest go first, so a retry within the last 200 actions is still recognised. */
  static final int REMEMBERED_REQUESTS = 200;
  private static final int WRITE_ATTEMPTS = 5;

  /** The drain part of the record. */
  public record Drain(DrainState state, String requestedBy) {}

  private final KubernetesClient client;
  private final String namespace;
  private final Clock clock;

  public ActionLedger(KubernetesClient client, String namespace, Clock clock) {
    this.client = client;
    this.namespace = namespace;
    this.clock = clock;
  }

  public String namespace() {
    return namespace;
  }

  public Drain drain() {
    Map<String, String> data = data(current());
    return new Drain(DrainState.of(data.getOrDefault(DRAIN_STATE, "")), data.getOrDefault(DRAIN_REQUESTED_BY, ""));
  }

  /** The answer given to this request id before, if any. */
  public Optional<ActionResult> answered(String requestId) {
    String stored = data(current()).get(REQUEST_PREFIX + requestId);
    if (stored == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(ActionResult.parseFrom(Base64.getDecoder().decode(stored.substring(stored.indexOf(':') + 1))));
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      throw new IllegalStateException("ConfigMap " + namespace + "/" + CONFIG_MAP + " key " + REQUEST_PREFIX + requestId
          + " is not an ActionResult; delete the key to let the request run again", e);
    }
  }

  /** Sets the drain state (and who asked), keeping the rest of the record. */
  public void setDrain(DrainState state, String requestedBy) {
    change(data -> {
      data.put(DRAIN_STATE, state.value());
      data.put(DRAIN_REQUESTED_BY, requestedBy);
      data.put(DRAIN_CHANGED_AT, clock.instant().toString());
      return data;
    });
  }

  /** Remembers the answer to a request id; beyond {@link #REMEMBERED_REQUESTS} the oldest answer is forgotten. */
  public void remember(ActionResult result) {
    change(data -> {
      long sequence = Long.parseLong(data.getOrDefault(REQUEST_SEQUENCE, "0")) + 1;
      data.put(REQUEST_SEQUENCE, String.valueOf(sequence));
      data.put(REQUEST_PREFIX + result.getRequestId(), sequence + ":"
          + Base64.getEncoder().encodeToString(result.toByteArray()));
      data.keySet().stream().filter(k -> k.startsWith(REQUEST_PREFIX))
          .sorted(Comparator.comparingLong((String k) -> sequenceOf(data.get(k))).reversed())
          .skip(REMEMBERED_REQUESTS).toList().forEach(data::remove);
      return data;
    });
  }

  private static long sequenceOf(String stored) {
    int colon = stored.indexOf(':');
    try {
      return colon < 0 ? 0 : Long.parseLong(stored.substring(0, colon));
    } catch (NumberFormatException e) {
      // an entry someone edited by hand goes first
      return 0;
    }
  }

  private ConfigMap current() {
    return client.configMaps().inNamespace(namespace).withName(CONFIG_MAP).get();
  }

  private static Map<String, String> data(ConfigMap map) {
    return map == null || map.getData() == null ? new HashMap<>() : new HashMap<>(map.getData());
  }

  /** Read, change, write with the read's resourceVersion: a concurrent writer makes this one read again. */
  private void change(UnaryOperator<Map<String, String>> edit) {
    for (int attempt = 1; ; attempt++) {
      ConfigMap existing = current();
      try {
        if (existing == null) {
          client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata()
              .withName(CONFIG_MAP).withNamespace(namespace).addToLabels("app.kubernetes.io/managed-by", "varroa")
              .endMetadata().withData(edit.apply(new HashMap<>())).build()).create();
        } else {
          existing.setData(edit.apply(data(existing)));
          client.configMaps().inNamespace(namespace).resource(existing).update();
        }
        return;
      } catch (KubernetesClientException e) {
        if ((e.getCode() != 409) || attempt >= WRITE_ATTEMPTS) {
          throw e;
        }
      }
    }
  }
}
