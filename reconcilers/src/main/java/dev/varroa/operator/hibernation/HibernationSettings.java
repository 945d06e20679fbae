package dev.varroa.operator.hibernation;

import java.util.Map;
import java.util.Optional;

/**
 * The operator's hibernation settings from its environment.
 *
 * @param wakerPort the port the waker listens on ({@value #ENV_WAKER_PORT})
 * @param wakerService the Service whose EndpointSlices list the waker's addresses (the chart's varroa-waker in the
 *     operator's namespace); empty: parked Services are given no waker endpoint
 * @param keptBytesCap the most bytes the deliveries the waker keeps may hold in the whole cluster
 *     ({@value #ENV_KEPT_BYTES})
 * @param keptPerSourcePerMinute deliveries kept per source address and minute, on each replica
 *     ({@value #ENV_KEPT_PER_SOURCE_PER_MINUTE})
 */
public record HibernationSettings(int wakerPort, Optional<WakerService> wakerService, long keptBytesCap,
    int keptPerSourcePerMinute) {
  public static final String ENV_WAKER_PORT = "VARROA_WAKER_PORT";
  /** namespace/name of the Service that selects the operator pods on the waker port. */
  public static final String ENV_WAKER_SERVICE = "VARROA_WAKER_SERVICE";
  /** The chart's Service for the waker. */
  public static final String DEFAULT_WAKER_SERVICE = "varroa-waker";
  public static final String ENV_KEPT_BYTES = "VARROA_WAKER_KEPT_BYTES";
  /** Cluster-wide bytes of kept deliveries: 128 of the largest, thousands of usual pushes; a sliver of etcd's 2 GiB. */
  public static final long DEFAULT_KEPT_BYTES = 64L * 1024 * 1024;
  public static final String ENV_KEPT_PER_SOURCE_PER_MINUTE = "VARROA_WAKER_KEPT_PER_SOURCE_PER_MINUTE";
  /** One a second on average per source, in bursts of a minute's worth: more than an SCM sends one cluster. */
  public static final int DEFAULT_KEPT_PER_SOURCE_PER_MINUTE = 60;

  /** The Service in front of every operator replica's waker. */
  public record WakerService(String namespace, String name) {}

  /** With the default limits of kept deliveries. */
  public HibernationSettings(int wakerPort, Optional<WakerService> wakerService) {
    this(wakerPort, wakerService, DEFAULT_KEPT_BYTES, DEFAULT_KEPT_PER_SOURCE_PER_MINUTE);
  }

  /** Without a waker Service: tests and runs outside a cluster. */
  public static HibernationSettings withoutWakerService() {
    return new HibernationSettings(WakerServer.DEFAULT_PORT, Optional.empty());
  }

  /**
   * @param operatorNamespace where the operator runs (POD_NAMESPACE): the waker Service's namespace unless
   *     {@value #ENV_WAKER_SERVICE} names another
   */
  public static HibernationSettings fromEnv(Map<String, String> env, Optional<String> operatorNamespace) {
    String port = env.getOrDefault(ENV_WAKER_PORT, String.valueOf(WakerServer.DEFAULT_PORT)).strip();
    int parsed;
    try {
      parsed = Integer.parseInt(port);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(ENV_WAKER_PORT + "='" + port + "' is not a port number; fix: set it to a port"
          + " such as " + WakerServer.DEFAULT_PORT + " (chart value waker.port), or leave it unset", e);
    }
    if (parsed < 0 || parsed > 65535) {
      throw new IllegalArgumentException(ENV_WAKER_PORT + "=" + parsed + " is outside 0-65535; fix: set a port such as "
          + WakerServer.DEFAULT_PORT);
    }
    String service = env.getOrDefault(ENV_WAKER_SERVICE, "").strip();
    Optional<WakerService> waker;
    if (service.contains("/")) {
      String[] parts = service.split("/", 2);
      if (parts[0].isBlank() || parts[1].isBlank()) {
        throw new IllegalArgumentException(ENV_WAKER_SERVICE + "='" + service + "' is not namespace/name; fix: e.g. "
            + "varroa-system/" + DEFAULT_WAKER_SERVICE);
      }
      waker = Optional.of(new WakerService(parts[0], parts[1]));
    } else {
      String name = service.isEmpty() ? DEFAULT_WAKER_SERVICE : service;
      waker = operatorNamespace.filter(ns -> !ns.isBlank()).map(ns -> new WakerService(ns, name));
    }
    return new HibernationSettings(parsed, waker, keptBytes(env), keptPerSourcePerMinute(env));
  }

  /** Bytes, or a number with Ki, Mi or Gi as Kubernetes quantities write them; at least one largest delivery. */
  private static long keptBytes(Map<String, String> env) {
    String value = env.getOrDefault(ENV_KEPT_BYTES, "").strip();
    if (value.isEmpty()) {
      return DEFAULT_KEPT_BYTES;
    }
    long unit = 1;
    String number = value;
    for (Map.Entry<String, Long> suffix : Map.of("Ki", 1024L, "Mi", 1024L * 1024, "Gi", 1024L * 1024 * 1024)
        .entrySet()) {
      if (value.endsWith(suffix.getKey())) {
        unit = suffix.getValue();
        number = value.substring(0, value.length() - 2).strip();
      }
    }
    long bytes;
    try {
      bytes = Math.multiplyExact(Long.parseLong(number), unit);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException(ENV_KEPT_BYTES + "='" + value + "' is not a size; fix: bytes or a number with"
          + " Ki, Mi or Gi, e.g. 64Mi (chart value waker.keptBytes), or leave it unset for "
          + DEFAULT_KEPT_BYTES / (1024 * 1024) + "Mi", e);
    }
    if (bytes < WakerServer.MAX_DELIVERY_BYTES) {
      throw new IllegalArgumentException(ENV_KEPT_BYTES + "='" + value + "' is below one delivery of "
          + WakerServer.MAX_DELIVERY_BYTES / 1024 + " KiB; fix: set at least 512Ki, e.g. 64Mi");
    }
    return bytes;
  }

  private static int keptPerSourcePerMinute(Map<String, String> env) {
    String value = env.getOrDefault(ENV_KEPT_PER_SOURCE_PER_MINUTE, "").strip();
    if (value.isEmpty()) {
      return DEFAULT_KEPT_PER_SOURCE_PER_MINUTE;
    }
    int rate;
    try {
      rate = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      rate = 0;
    }
    if (rate < 1) {
      throw new IllegalArgumentException(ENV_KEPT_PER_SOURCE_PER_MINUTE + "='" + value + "' is not a whole number of"
          + " deliveries per minute of at least 1; fix: e.g. " + DEFAULT_KEPT_PER_SOURCE_PER_MINUTE
          + " (chart value waker.keptPerSourcePerMinute), or leave it unset");
    }
    return rate;
  }
}
