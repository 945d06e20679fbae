package dev.varroa.operator.hibernation;

import dev.varroa.api.v1alpha1.Controller;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which Controller a request to the waker is for, from its Host header: the host of the Controller's URL (its Ingress
 * host, or its Service's name), or any DNS name of its Service: {@code <service>.<namespace>.svc} with or without the
 * cluster domain, {@code <service>.<namespace>}, or {@code <service>} alone when only one namespace has it.
 */
final class ControllerHosts {
  private ControllerHosts() {}

  /** The one Controller the host names; empty when none or several do. */
  static Optional<Controller> find(String hostHeader, List<Controller> controllers) {
    if (hostHeader == null || hostHeader.isBlank()) {
      return Optional.empty();
    }
    String host = withoutPort(hostHeader.strip().toLowerCase(Locale.ROOT));
    List<Controller> byUrl = controllers.stream().filter(c -> urlHost(c).filter(host::equals).isPresent()).toList();
    if (byUrl.size() == 1) {
      return Optional.of(byUrl.get(0));
    }
    List<Controller> byService = controllers.stream().filter(c -> servedAs(c, host)).toList();
    return byService.size() == 1 ? Optional.of(byService.get(0)) : Optional.empty();
  }

  private static boolean servedAs(Controller controller, String host) {
    String service = WakeRequests.statefulSet(controller).toLowerCase(Locale.ROOT);
    String namespace = controller.getMetadata().getNamespace().toLowerCase(Locale.ROOT);
    String qualified = service + "." + namespace;
    return host.equals(service) || host.equals(qualified) || host.equals(qualified + ".svc")
        || host.startsWith(qualified + ".svc.");
  }

  private static Optional<String> urlHost(Controller controller) {
    if (controller.getStatus() == null || controller.getStatus().url == null) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(URI.create(controller.getStatus().url).getHost()).map(h -> h.toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** host[:port] or [v6]:port without the port. */
  static String withoutPort(String host) {
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      return end > 0 ? host.substring(0, end + 1) : host;
    }
    int colon = host.lastIndexOf(':');
    return colon >= 0 ? host.substring(0, colon) : host;
  }
}
