package dev.varroa.operator.hibernation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.render.resolve.ControllerSettingsResolver;
import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Duration;
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

  @Test
  void keepsOnlyTheScmWebhookRoutes() {
    assertThat(ReplayableRoutes.REPLAYABLE_PATHS).allSatisfy(path ->
        assertThat(ReplayableRoutes.replayable(path)).as(path).isTrue());
    assertThat(List.of("/github-webhook", "/generic-webhook-trigger/invoke/", "/git/notifyCommit",
        "/project/team/app", "/project/my%20group/app/"))
        .allSatisfy(path -> assertThat(ReplayableRoutes.replayable(path)).as(path).isTrue());
    assertThat(List.of("/", "/job/app/build", "/script", "/scriptText", "/j_spring_security_check", "/login",
        "/github-webhook/x", "/github-webhook/../script", "/project/", "/project/../script", "/project/a/../../script",
        "/project/%2e%2e/script", "/project/a%2Fb", "/project/a;x=1", "/project//a", "/createItem",
        "/GITHUB-WEBHOOK/", "/manage/"))
        .allSatisfy(path -> assertThat(ReplayableRoutes.replayable(path)).as(path).isFalse());
  }

  @Test
  void readsTheLimitsOfKeptDeliveriesAndNamesTheFix() {
    HibernationSettings defaults = HibernationSettings.fromEnv(Map.of(), Optional.empty());
    assertThat(defaults.keptBytesCap()).isEqualTo(64L * 1024 * 1024);
    assertThat(defaults.keptPerSourcePerMinute()).isEqualTo(60);
    HibernationSettings set = HibernationSettings.fromEnv(Map.of("VARROA_WAKER_KEPT_BYTES", "256Mi",
        "VARROA_WAKER_KEPT_PER_SOURCE_PER_MINUTE", "10"), Optional.empty());
    assertThat(set.keptBytesCap()).isEqualTo(256L * 1024 * 1024);
    assertThat(set.keptPerSourcePerMinute()).isEqualTo(10);
    assertThat(HibernationSettings.fromEnv(Map.of("VARROA_WAKER_KEPT_BYTES", "1048576"), Optional.empty())
        .keptBytesCap()).isEqualTo(1048576);
    assertThatThrownBy(() -> HibernationSettings.fromEnv(Map.of("VARROA_WAKER_KEPT_BYTES", "lots"), Optional.empty()))
        .hasMessageContaining("VARROA_WAKER_KEPT_BYTES='lots' is not a size; fix:");
    assertThatThrownBy(() -> HibernationSettings.fromEnv(Map.of("VARROA_WAKER_KEPT_BYTES", "1Ki"), Optional.empty()))
        .hasMessageContaining("below one delivery");
    assertThatThrownBy(() -> HibernationSettings.fromEnv(Map.of("VARROA_WAKER_KEPT_PER_SOURCE_PER_MINUTE", "0"),
        Optional.empty())).hasMessageContaining("VARROA_WAKER_KEPT_PER_SOURCE_PER_MINUTE='0'").hasMessageContaining("fix:");
  }

  @Test
  void admitsDeliveriesWithinTheControllerCountAndTheClusterCap() {
    KeptDeliveryLedger ledger = new KeptDeliveryLedger(new MovableClock());
    Controller a = controller("a", "one", "https://a.example.com/");
    long cap = 3 * 1024;

    assertThat(ledger.admit(delivery(a, "1", 1024), "uid-a", 2, cap))
        .isInstanceOf(KeptDeliveryLedger.Admission.Admitted.class);
    assertThat(ledger.admit(delivery(a, "2", 1024), "uid-b", 2, cap))
        .isInstanceOf(KeptDeliveryLedger.Admission.Admitted.class);
    KeptDeliveryLedger.Admission over = ledger.admit(delivery(a, "3", 1024), "uid-c", 2, cap);
    assertThat(over).isEqualTo(new KeptDeliveryLedger.Admission.OverCap(cap, ledger.keptBytes()));
    KeptDeliveryLedger.Admission admitted = ledger.admit(delivery(a, "4", 1), "uid-a", 2, cap);
    assertThat(admitted).isInstanceOf(KeptDeliveryLedger.Admission.Admitted.class);
    assertThat(ledger.admit(delivery(a, "5", 1), "uid-a", 2, cap))
        .isEqualTo(new KeptDeliveryLedger.Admission.ControllerFull(2));

    ledger.release(((KeptDeliveryLedger.Admission.Admitted) admitted).key());
    assertThat(ledger.admit(delivery(a, "6", 1), "uid-a", 2, cap))
        .isInstanceOf(KeptDeliveryLedger.Admission.Admitted.class);
  }

  @Test
  void refillsASourcesDeliveriesEvenlyOverAMinute() {
    MovableClock clock = new MovableClock();
    SourceRateLimit rate = new SourceRateLimit(6, clock);

    for (int i = 0; i < 6; i++) {
      assertThat(rate.take("10.0.0.1")).as("delivery " + i).isEmpty();
    }
    assertThat(rate.take("10.0.0.1")).get().satisfies(wait -> assertThat(wait).isBetween(Duration.ofSeconds(9),
        Duration.ofSeconds(10)));
    assertThat(rate.take("10.0.0.2")).as("another source has its own").isEmpty();
    clock.advance(Duration.ofSeconds(10));
    assertThat(rate.take("10.0.0.1")).isEmpty();
    assertThat(rate.take("10.0.0.1")).isPresent();
    assertThatThrownBy(() -> new SourceRateLimit(0, clock)).hasMessageContaining("fix:");
  }

  /** A delivery Secret whose body is {@code bytes} long (its path, method and headers add a few bytes). */
  private static io.fabric8.kubernetes.api.model.Secret delivery(Controller controller, String unique, int bytes) {
    return WakeRequests.delivery(controller, new KeptDelivery("POST", "/", List.of(), new byte[bytes],
        java.time.Instant.parse("2026-06-01T12:00:00Z")), unique);
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
