package dev.varroa.operator.hibernation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.render.ResolvedController;
import dev.varroa.operator.render.ControllerSettingsResolver;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Where the waker is, how a parked Service reaches it, which Controller a Host names, and the settings. */
class WakerRouteTest {
  private static EndpointSlice wakerSlice(String family, int port, Boolean ready, String... addresses) {
    EndpointSliceBuilder slice = new EndpointSliceBuilder().withNewMetadata().withName("varroa-waker-" + family)
        .endMetadata().withAddressType(family)
        .addNewPort().withName("waker").withPort(port).withProtocol("TCP").endPort();
    for (String address : addresses) {
      slice.addNewEndpoint().withAddresses(address).withNewConditions().withReady(ready).endConditions().endEndpoint();
    }
    return slice.build();
  }

  @Test
  void listsTheWakersReadyEndpointsOnTheServicesHttpPortPerFamily() {
    WakerRoute.WakerEndpoints waker = WakerRoute.WakerEndpoints.of(List.of(
        wakerSlice("IPv4", 8083, true, "10.0.0.7", "10.0.0.5"), wakerSlice("IPv4", 8083, false, "10.0.0.9"),
        wakerSlice("IPv6", 8083, null, "fd00::5")));

    List<EndpointSlice> slices = WakerRoute.render("nightly", "ci", "nightly-1b4e28ba", waker);

    assertThat(slices).extracting(s -> s.getMetadata().getName())
        .containsExactly("nightly-1b4e28ba-waker", "nightly-1b4e28ba-waker-v6");
    EndpointSlice v4 = slices.get(0);
    assertThat(v4.getMetadata().getLabels()).containsEntry("kubernetes.io/service-name", "nightly-1b4e28ba")
        .containsEntry("endpointslice.kubernetes.io/managed-by", "waker.varroa.dev");
    assertThat(v4.getEndpoints()).flatExtracting(e -> e.getAddresses()).containsExactly("10.0.0.5", "10.0.0.7");
    assertThat(v4.getPorts()).singleElement().satisfies(p -> {
      assertThat(p.getName()).isEqualTo("http");
      assertThat(p.getPort()).isEqualTo(8083);
    });
    assertThat(slices.get(1).getEndpoints()).flatExtracting(e -> e.getAddresses()).containsExactly("fd00::5");
  }

  @Test
  void stillGivesTheServiceAnEmptySliceWhenNoWakerIsReady() {
    List<EndpointSlice> slices = WakerRoute.render("nightly", "ci", "nightly-1b4e28ba",
        WakerRoute.WakerEndpoints.of(List.of()));

    assertThat(slices).singleElement().satisfies(s -> {
      assertThat(s.getEndpoints()).isNullOrEmpty();
      assertThat(s.getPorts()).isNullOrEmpty();
    });
  }

  @Test
  void findsNoControllerWhenTwoShareAHost() {
    Controller a = controller("a", "one", "https://ci.example.com/");
    Controller b = controller("b", "two", "https://ci.example.com/");

    assertThat(ControllerHosts.find("ci.example.com", List.of(a, b))).isEmpty();
    assertThat(ControllerHosts.find("ci.example.com:443", List.of(a))).contains(a);
    assertThat(ControllerHosts.find("", List.of(a))).isEmpty();
    assertThat(ControllerHosts.withoutPort("[fd00::1]:8080")).isEqualTo("[fd00::1]");
  }

  @Test
  void readsJenkinsZoneFromJavaOptsThenTzElseUtc() {
    assertThat(JenkinsZone.of(resolved("jenkins: {javaOpts: \"-Xmx2g -Duser.timezone=Europe/Paris\"}")))
        .isEqualTo(ZoneId.of("Europe/Paris"));
    assertThat(JenkinsZone.of(resolved("jenkins: {env: [{name: TZ, value: America/New_York}]}")))
        .isEqualTo(ZoneId.of("America/New_York"));
    assertThat(JenkinsZone.of(resolved("jenkins: {env: [{name: TZ, value: Nowhere/Else}]}")))
        .isEqualTo(ZoneOffset.UTC);
    assertThat(JenkinsZone.of(resolved(""))).isEqualTo(ZoneOffset.UTC);
  }

  @Test
  void readsItsSettingsFromTheEnvironmentAndNamesTheFix() {
    assertThat(HibernationSettings.fromEnv(Map.of(), Optional.of("varroa-system"))).isEqualTo(new HibernationSettings(
        8083, Optional.of(new HibernationSettings.WakerService("varroa-system", "varroa-waker"))));
    assertThat(HibernationSettings.fromEnv(Map.of("VARROA_WAKER_SERVICE", "ops/waker", "VARROA_WAKER_PORT", "9000"),
        Optional.empty())).isEqualTo(new HibernationSettings(9000,
            Optional.of(new HibernationSettings.WakerService("ops", "waker"))));
    assertThat(HibernationSettings.fromEnv(Map.of(), Optional.empty()).wakerService()).isEmpty();
    assertThatThrownBy(() -> HibernationSettings.fromEnv(Map.of("VARROA_WAKER_PORT", "eighty"), Optional.empty()))
        .hasMessageContaining("VARROA_WAKER_PORT='eighty' is not a port number; fix:");
    assertThatThrownBy(() -> HibernationSettings.fromEnv(Map.of("VARROA_WAKER_SERVICE", "/waker"), Optional.empty()))
        .hasMessageContaining("is not namespace/name");
  }

  private static ResolvedController resolved(String spec) {
    Controller controller = new KubernetesSerialization().unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: nightly, namespace: ci, uid: 1b4e28ba-2fa1-11d2-883f-0016d3cca427}
        spec: {%s}
        """.formatted(spec), Controller.class);
    ControllerSettingsResolver.Resolution resolution = ControllerSettingsResolver.resolve(controller, Optional.empty(),
        Optional.empty());
    assertThat(resolution.problems()).isEmpty();
    return resolution.controller();
  }

  private static Controller controller(String name, String namespace, String url) {
    Controller controller = new Controller();
    controller.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace)
        .withUid("1b4e28ba-2fa1-11d2-883f-0016d3cca427").build());
    controller.setStatus(new ControllerStatus());
    controller.getStatus().url = url;
    return controller;
  }
}
