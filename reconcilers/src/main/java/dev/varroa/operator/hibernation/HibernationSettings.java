package dev.varroa.operator.hibernation;

import java.util.Map;
import java.util.Optional;

/**
 * The operator's hibernation settings from its environment.
 *
 * @param wakerPort the port the waker listens on ({@value #ENV_WAKER_PORT})
 * @param wakerService the Service whose EndpointSlices list the waker's addresses (the chart's varroa-waker in the
 *     operator's namespace); empty: parked Services are given no waker endpoint
 */
public record HibernationSettings(int wakerPort, Optional<WakerService> wakerService) {
  public static final String ENV_WAKER_PORT = "VARROA_WAKER_PORT";
  /** namespace/name of the Service that selects the operator pods on the waker port. */
  public static final String ENV_WAKER_SERVICE = "VARROA_WAKER_SERVICE";
  /** The chart's Service for the waker. */
  public static final String DEFAULT_WAKER_SERVICE = "varroa-waker";

  /** The Service in front of every operator replica's waker. */
  public record WakerService(String namespace, String name) {}

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
    return new HibernationSettings(parsed, waker);
  }
}
