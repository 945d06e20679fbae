package dev.varroa.operator.hibernation;

import dev.varroa.operator.render.JenkinsContainer;
import dev.varroa.operator.render.naming.ControllerLabels;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The EndpointSlices that send a parked Controller's Service to the waker: the ready endpoints of the chart's
 * varroa-waker Service, on the Service's http port, one slice per address family. The Service selects no pod
 * meanwhile, so Kubernetes' own EndpointSlice controller leaves its traffic to these. Pure.
 */
final class WakerRoute {
  /** Standard label: the Service a slice serves. */
  static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";
  /** Standard label: who manages a slice; Kubernetes' controller leaves slices managed by others alone. */
  static final String MANAGED_BY_LABEL = "endpointslice.kubernetes.io/managed-by";
  static final String MANAGED_BY = "waker.varroa.dev";
  /** The slice Kubernetes' EndpointSlice controller made for the Service while it selected the pod. */
  static final String KUBERNETES_MANAGER = "endpointslice-controller.k8s.io";
  /** The port name of the waker's Service in the chart. */
  static final String WAKER_PORT_NAME = "waker";
  static final String IPV4 = "IPv4";
  static final String IPV6 = "IPv6";

  private WakerRoute() {}

  /**
   * Where the waker listens, from the varroa-waker Service's EndpointSlices.
   *
   * @param addresses ready addresses by address family
   * @param port the waker's port; 0 when no slice names one yet
   */
  record WakerEndpoints(Map<String, List<String>> addresses, int port) {
    static WakerEndpoints of(List<EndpointSlice> slices) {
      Map<String, TreeSet<String>> byFamily = new TreeMap<>();
      int port = 0;
      for (EndpointSlice slice : slices) {
        if (slice.getPorts() != null) {
          for (EndpointPort p : slice.getPorts()) {
            if (p.getPort() != null && (port == 0 || WAKER_PORT_NAME.equals(p.getName()))) {
              port = p.getPort();
            }
          }
        }
        if (slice.getEndpoints() == null || (!IPV4.equals(slice.getAddressType())
            && !IPV6.equals(slice.getAddressType()))) {
          continue;
        }
        for (Endpoint endpoint : slice.getEndpoints()) {
          boolean ready = endpoint.getConditions() == null || endpoint.getConditions().getReady() == null
              || endpoint.getConditions().getReady();
          if (ready && endpoint.getAddresses() != null) {
            byFamily.computeIfAbsent(slice.getAddressType(), k -> new TreeSet<>()).addAll(endpoint.getAddresses());
          }
        }
      }
      Map<String, List<String>> addresses = new TreeMap<>();
      byFamily.forEach((family, set) -> addresses.put(family, List.copyOf(set)));
      return new WakerEndpoints(addresses, port);
    }

    int count() {
      return addresses.values().stream().mapToInt(List::size).sum();
    }
  }

  /** The slice names of a Service: one per family, IPv4 always (possibly empty, so the Service has a slice). */
  static String sliceName(String service, String family) {
    return service + (IPV4.equals(family) ? "-waker" : "-waker-v6");
  }

  static List<EndpointSlice> render(String controllerName, String namespace, String service, WakerEndpoints waker) {
    List<EndpointSlice> slices = new ArrayList<>();
    for (String family : List.of(IPV4, IPV6)) {
      List<String> addresses = waker.addresses().getOrDefault(family, List.of());
      if (IPV6.equals(family) && addresses.isEmpty()) {
        continue;
      }
      Map<String, String> labels = new TreeMap<>(ControllerLabels.of(controllerName));
      labels.put(SERVICE_NAME_LABEL, service);
      labels.put(MANAGED_BY_LABEL, MANAGED_BY);
      EndpointSliceBuilder slice = new EndpointSliceBuilder()
          .withNewMetadata().withName(sliceName(service, family)).withNamespace(namespace).withLabels(labels)
          .endMetadata()
          .withAddressType(family);
      for (String address : addresses) {
        slice.addToEndpoints(new EndpointBuilder().withAddresses(address).withNewConditions().withReady(true)
            .withServing(true).withTerminating(false).endConditions().build());
      }
      if (waker.port() > 0) {
        // named as the Service's port: kube-proxy pairs the Service's http port with this one by name
        slice.addNewPort().withName(JenkinsContainer.HTTP_PORT_NAME).withPort(waker.port()).withProtocol("TCP")
            .endPort();
      }
      slices.add(slice.build());
    }
    return slices;
  }
}
