package dev.varroa.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.recorder.logs.BlobStoreSettings;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GatewaySettingsTest {

  private static final Map<String, String> MINIMAL = Map.of(
      "VARROA_GATEWAY_ID", "gateway-0",
      "VARROA_NATS_URL", "nats://nats.varroa-system:4222",
      "VARROA_CA_CERT_FILE", "/etc/varroa/ca/tls.crt",
      "VARROA_CA_KEY_FILE", "/etc/varroa/ca/tls.key");

  @Test
  void listensOnTcp9090WithTheDocumentedTimingsByDefault() {
    GatewaySettings settings = GatewaySettings.fromEnv(MINIMAL);

    assertThat(settings.listenHost()).isEqualTo("0.0.0.0");
    assertThat(settings.listenPort()).isEqualTo(9090);
    assertThat(settings.heartbeatInterval()).isEqualTo(Duration.ofSeconds(15));
    assertThat(settings.queuedCommandAckWait()).isEqualTo(Duration.ofSeconds(60));
    assertThat(settings.ackProgressInterval()).isEqualTo(Duration.ofSeconds(15));
    assertThat(settings.natsUserFile()).isNull();
    assertThat(settings.tlsCertFile()).isNull();
    assertThat(settings.tlsDnsNames()).contains("localhost");
    assertThat(settings.clusterName()).isEqualTo("local");
    assertThat(settings.eventPublishWait()).isEqualTo(Duration.ofSeconds(10));
    assertThat(settings.claimLedgerWait()).isEqualTo(Duration.ofSeconds(4));
  }

  @Test
  void readsTheBuildDataPlaneVariablesAsSecondsOrIso8601() {
    Map<String, String> env = new java.util.HashMap<>(MINIMAL);
    env.put("VARROA_CLUSTER_NAME", "eu-west_1");
    env.put("VARROA_EVENT_PUBLISH_WAIT", "2.5");
    env.put("VARROA_CLAIM_LEDGER_WAIT", "PT0.75S");

    GatewaySettings settings = GatewaySettings.fromEnv(env);

    assertThat(settings.clusterName()).isEqualTo("eu-west_1");
    assertThat(settings.eventPublishWait()).isEqualTo(Duration.ofMillis(2500));
    assertThat(settings.claimLedgerWait()).isEqualTo(Duration.ofMillis(750));
    assertThat(GatewaySettings.fromEnv(Map.of("VARROA_GATEWAY_ID", "g", "VARROA_NATS_URL", "nats://n:4222",
        "VARROA_CA_CERT_FILE", "/ca.crt", "VARROA_CA_KEY_FILE", "/ca.key", "VARROA_EVENT_PUBLISH_WAIT", "30",
        "VARROA_CLAIM_LEDGER_WAIT", "pt1m")).eventPublishWait()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void namesTheVariableAndTheFormatOfABadWait() {
    Map<String, String> env = new java.util.HashMap<>(MINIMAL);
    env.put("VARROA_EVENT_PUBLISH_WAIT", "10 seconds");

    assertThatThrownBy(() -> GatewaySettings.fromEnv(env))
        .hasMessageContaining("VARROA_EVENT_PUBLISH_WAIT='10 seconds' is not a duration")
        .hasMessageContaining("2.5")
        .hasMessageContaining("PT10S");

    env.put("VARROA_EVENT_PUBLISH_WAIT", "10");
    env.put("VARROA_CLAIM_LEDGER_WAIT", "0");
    assertThatThrownBy(() -> GatewaySettings.fromEnv(env))
        .hasMessageContaining("VARROA_CLAIM_LEDGER_WAIT='0' must be longer than zero");

    env.put("VARROA_CLAIM_LEDGER_WAIT", "PT-4S");
    assertThatThrownBy(() -> GatewaySettings.fromEnv(env)).hasMessageContaining("VARROA_CLAIM_LEDGER_WAIT");
  }

  @Test
  void refusesAClusterNameThatIsNoSubjectToken() {
    Map<String, String> env = new java.util.HashMap<>(MINIMAL);
    env.put("VARROA_CLUSTER_NAME", "eu.west");

    assertThatThrownBy(() -> GatewaySettings.fromEnv(env))
        .hasMessageContaining("VARROA_CLUSTER_NAME='eu.west'")
        .hasMessageContaining("letters, digits");
  }

  @Test
  void readsEveryVariable() {
    Map<String, String> env = new java.util.HashMap<>(MINIMAL);
    env.put("VARROA_GATEWAY_LISTEN", "[::]:19090");
    env.put("VARROA_NATS_USER_FILE", "/var/run/nats/user");
    env.put("VARROA_NATS_PASSWORD_FILE", "/var/run/nats/password");
    env.put("VARROA_TLS_CERT_FILE", "/etc/varroa/tls/tls.crt");
    env.put("VARROA_TLS_KEY_FILE", "/etc/varroa/tls/tls.key");
    env.put("VARROA_TLS_DNS_NAMES", "varroa-gateway.varroa-system.svc, varroa-gateway");

    GatewaySettings settings = GatewaySettings.fromEnv(env);

    assertThat(settings.gatewayId()).isEqualTo("gateway-0");
    assertThat(settings.listenHost()).isEqualTo("::");
    assertThat(settings.listenPort()).isEqualTo(19090);
    assertThat(settings.natsPasswordFile()).isEqualTo(Path.of("/var/run/nats/password"));
    assertThat(settings.tlsKeyFile()).isEqualTo(Path.of("/etc/varroa/tls/tls.key"));
    assertThat(settings.tlsDnsNames()).containsExactly("varroa-gateway.varroa-system.svc", "varroa-gateway");
  }

  @Test
  void takesTheUserAsAValueAndTheNatsCaAsAFileAsTheChartSetsThem() {
    Map<String, String> env = new java.util.HashMap<>(MINIMAL);
    env.put("VARROA_NATS_USER", "gateway");
    env.put("VARROA_NATS_PASSWORD_FILE", "/var/run/varroa/nats/gateway-password");
    env.put("VARROA_NATS_CA_FILE", "/var/run/varroa/nats/ca.crt");

    GatewaySettings settings = GatewaySettings.fromEnv(env);

    assertThat(settings.natsUser()).isEqualTo("gateway");
    assertThat(settings.natsUserFile()).isNull();
    assertThat(settings.natsCaFile()).isEqualTo(Path.of("/var/run/varroa/nats/ca.crt"));
  }

  @Test
  void namesTheMissingVariable() {
    Map<String, String> env = new java.util.HashMap<>(MINIMAL);
    env.remove("VARROA_NATS_URL");

    assertThatThrownBy(() -> GatewaySettings.fromEnv(env)).hasMessageContaining("VARROA_NATS_URL");
  }

  @Test
  void wantsBothTlsFilesOrNeither() {
    Map<String, String> env = new java.util.HashMap<>(MINIMAL);
    env.put("VARROA_TLS_CERT_FILE", "/etc/varroa/tls/tls.crt");

    assertThatThrownBy(() -> GatewaySettings.fromEnv(env)).hasMessageContaining("VARROA_TLS_KEY_FILE");
  }

  @Test
  void refusesAProgressIntervalThatWouldLetTheAckWaitLapse() {
    GatewaySettings settings = GatewaySettings.fromEnv(MINIMAL);

    assertThatThrownBy(() -> settings.withQueuedCommandTiming(Duration.ofSeconds(2), Duration.ofSeconds(2)))
        .hasMessageContaining("shorter than the ack wait");
    assertThat(settings.withQueuedCommandTiming(Duration.ofSeconds(2), Duration.ofMillis(500)).ackProgressInterval())
        .isEqualTo(Duration.ofMillis(500));
    assertThat(settings.withTlsNames(List.of("localhost"), List.of()).tlsIpAddresses()).isEmpty();
  }

  @Test
  void readsTheBlobStoreFromVarroaBlobVariablesOnlyAndKeepsNoLogsWithoutThem() {
    assertThat(GatewaySettings.fromEnv(MINIMAL).blobStore().mode())
        .isEqualTo(dev.varroa.recorder.logs.BlobStoreSettings.Mode.NONE);

    Map<String, String> s3 = new java.util.HashMap<>(MINIMAL);
    s3.put("VARROA_BLOB_MODE", "s3");
    s3.put("VARROA_BLOB_S3_URL", "https://s3.example.com/varroa-records");
    assertThat(GatewaySettings.fromEnv(s3).blobStore().s3Bucket()).isEqualTo("varroa-records");

    // The gateway's postgres tier is the Secret varroa-recordstore-gateway, never the recorder's own database.
    Map<String, String> postgres = new java.util.HashMap<>(MINIMAL);
    postgres.put("VARROA_BLOB_MODE", "postgres");
    postgres.put("VARROA_RECORDER_DSN", "jdbc:postgresql://records:5432/varroa");
    assertThatThrownBy(() -> GatewaySettings.fromEnv(postgres)).hasMessageContaining("VARROA_BLOB_POSTGRES_DSN");
    postgres.put("VARROA_BLOB_POSTGRES_DSN", "jdbc:postgresql://records:5432/varroa");
    postgres.put("VARROA_BLOB_POSTGRES_USER", "varroa_gateway");
    postgres.put("VARROA_BLOB_POSTGRES_PASSWORD_FILE", "/var/run/varroa/recordstore/password");
    assertThat(GatewaySettings.fromEnv(postgres).blobStore().describe())
        .isEqualTo("tier=postgres dsn=jdbc:postgresql://records:5432/varroa user=varroa_gateway");
  }

  @Test
  void eachCopyChangesOnlyTheSettingsItNames() throws Exception {
    GatewaySettings base = GatewaySettings.fromEnv(MINIMAL);
    Map<String, GatewaySettings> copies = new LinkedHashMap<>();
    copies.put("listenHost listenPort", base.withListen("127.0.0.1", 0));
    copies.put("natsUserFile natsPasswordFile",
        base.withNatsCredentialFiles(Path.of("/run/user"), Path.of("/run/password")));
    copies.put("natsPasswordFile natsUser", base.withNatsUser("gateway", Path.of("/run/password")));
    copies.put("natsCaFile", base.withNatsCaFile(Path.of("/run/nats-ca.crt")));
    copies.put("tlsCertFile tlsKeyFile", base.withTlsFiles(Path.of("/run/tls.crt"), Path.of("/run/tls.key")));
    copies.put("tlsDnsNames tlsIpAddresses", base.withTlsNames(List.of("gw.example"), List.of("10.0.0.1")));
    copies.put("heartbeatInterval", base.withHeartbeatInterval(Duration.ofSeconds(1)));
    copies.put("queuedCommandAckWait ackProgressInterval",
        base.withQueuedCommandTiming(Duration.ofSeconds(4), Duration.ofSeconds(1)));
    copies.put("clusterName", base.withClusterName("eu-1"));
    copies.put("eventPublishWait", base.withEventPublishWait(Duration.ofSeconds(2)));
    copies.put("blobStore", base.withBlobStore(BlobStoreSettings.postgresWithPassword("jdbc:postgresql://db/x", "u",
        "p")));
    copies.put("claimLedgerWait", base.withClaimLedgerWait(Duration.ofSeconds(1)));

    for (Map.Entry<String, GatewaySettings> copy : copies.entrySet()) {
      List<String> named = List.of(copy.getKey().split(" "));
      for (RecordComponent component : GatewaySettings.class.getRecordComponents()) {
        Object before = component.getAccessor().invoke(base);
        Object after = component.getAccessor().invoke(copy.getValue());
        if (named.contains(component.getName())) {
          assertThat(after).as(copy.getKey() + " sets " + component.getName()).isNotEqualTo(before);
        } else {
          assertThat(after).as(copy.getKey() + " keeps " + component.getName()).isEqualTo(before);
        }
      }
    }
  }

  @Test
  void theTestDefaultsAreTheEnvironmentsDefaults() {
    GatewaySettings fromEnv = GatewaySettings.fromEnv(MINIMAL);

    assertThat(GatewaySettings.of("gateway-0", "nats://nats.varroa-system:4222", Path.of("/etc/varroa/ca/tls.crt"),
        Path.of("/etc/varroa/ca/tls.key"))).isEqualTo(fromEnv);
  }
}
