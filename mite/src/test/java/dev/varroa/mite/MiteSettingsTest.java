package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.protocol.ControllerIdentity;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MiteSettingsTest {

  private static Map<String, String> minimal() {
    Map<String, String> env = new HashMap<>();
    env.put("VARROA_CONTROLLER_NAMESPACE", "team-a");
    env.put("VARROA_CONTROLLER_NAME", "ci");
    env.put("VARROA_CONTROLLER_UID", "3f2a9c1e-0000-4000-8000-000000000001");
    env.put("VARROA_POD_NAME", "ci-3f2a9c1e-0");
    env.put("VARROA_GATEWAY_ENDPOINT", "varroa-gateway.varroa-system.svc:9090");
    return env;
  }

  @Test
  void appliesSeedDefaultsWhenOnlyTheIdentityIsSet() {
    MiteSettings settings = MiteSettings.fromEnv(minimal());

    assertThat(settings.controller())
        .isEqualTo(new ControllerIdentity("team-a", "ci", "3f2a9c1e-0000-4000-8000-000000000001"));
    assertThat(settings.podName()).isEqualTo("ci-3f2a9c1e-0");
    assertThat(settings.gatewayEndpoints())
        .containsExactly(new GatewayEndpoint("varroa-gateway.varroa-system.svc", 9090));
    assertThat(settings.bootstrapTokenFile()).isEqualTo(Path.of("/var/run/varroa-bootstrap/token"));
    assertThat(settings.caFile()).isEqualTo(Path.of("/var/run/varroa-bootstrap/ca.crt"));
    assertThat(settings.identityDir()).isEqualTo(Path.of("/var/run/varroa-mite"));
    assertThat(settings.jenkinsUrl()).isEqualTo(URI.create("http://127.0.0.1:8080/"));
    assertThat(settings.cascDir()).isEqualTo(Path.of("/var/varroa/casc"));
    assertThat(settings.cascSeedDir()).isEqualTo(Path.of("/var/varroa/casc-rendered"));
    assertThat(settings.secretsDir()).isEqualTo(Path.of("/run/secrets"));
    assertThat(settings.loopbackDir()).isEqualTo(Path.of("/var/run/varroa"));
    assertThat(settings.drainTimeout()).isEqualTo(Duration.ofSeconds(900));
    assertThat(settings.startupWait()).isEqualTo(Duration.ofSeconds(600));
    assertThat(settings.healthPort()).isEqualTo(9096);
    assertThat(settings.loopbackPort()).isEqualTo(9095);
    assertThat(settings.eventRetainBytes()).isEqualTo(16L * 1024 * 1024);
    assertThat(settings.claimReplyWait()).isEqualTo(Duration.ofMillis(4500));
    assertThat(settings.schedulePollInterval()).isEqualTo(Duration.ofSeconds(60));
    assertThat(settings.logAppendWait()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void readsTheLogAppendWaitInEitherFormAndRejectsABadOne() {
    Map<String, String> env = minimal();
    env.put("VARROA_LOG_APPEND_WAIT", "2.5");
    assertThat(MiteSettings.fromEnv(env).logAppendWait()).isEqualTo(Duration.ofMillis(2500));
    env.put("VARROA_LOG_APPEND_WAIT", "PT20S");
    assertThat(MiteSettings.fromEnv(env).logAppendWait()).isEqualTo(Duration.ofSeconds(20));

    for (String bad : List.of("0", "-1", "10s", "PT0S")) {
      env.put("VARROA_LOG_APPEND_WAIT", bad);
      assertThatThrownBy(() -> MiteSettings.fromEnv(env))
          .isInstanceOfSatisfying(SettingsException.class, e -> assertThat(e.problems()).singleElement()
              .satisfies(p -> assertThat(p).startsWith("VARROA_LOG_APPEND_WAIT='" + bad + "'")
                  .contains("PT10S", "10.0 s")));
    }
  }

  @Test
  void readsTheDataPlaneOverridesInEitherForm() {
    Map<String, String> env = minimal();
    env.put("VARROA_LOOPBACK_PORT", "0");
    env.put("VARROA_EVENT_RETAIN_BYTES", "8Mi");
    env.put("VARROA_CLAIM_REPLY_WAIT", "0.5");
    env.put("VARROA_SCHEDULE_POLL_INTERVAL", "PT2M");

    MiteSettings settings = MiteSettings.fromEnv(env);

    assertThat(settings.loopbackPort()).isZero();
    assertThat(settings.eventRetainBytes()).isEqualTo(8L * 1024 * 1024);
    assertThat(settings.claimReplyWait()).isEqualTo(Duration.ofMillis(500));
    assertThat(settings.schedulePollInterval()).isEqualTo(Duration.ofMinutes(2));

    env.put("VARROA_EVENT_RETAIN_BYTES", "65536");
    env.put("VARROA_CLAIM_REPLY_WAIT", "PT3S");
    env.put("VARROA_SCHEDULE_POLL_INTERVAL", "30");
    MiteSettings plain = MiteSettings.fromEnv(env);
    assertThat(plain.eventRetainBytes()).isEqualTo(65536);
    assertThat(plain.claimReplyWait()).isEqualTo(Duration.ofSeconds(3));
    assertThat(plain.schedulePollInterval()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void rejectsBadDataPlaneValuesNamingTheVariableAndTheFix() {
    Map<String, String> env = minimal();
    env.put("VARROA_LOOPBACK_PORT", "-1");
    env.put("VARROA_EVENT_RETAIN_BYTES", "16MB");
    env.put("VARROA_CLAIM_REPLY_WAIT", "0");
    env.put("VARROA_SCHEDULE_POLL_INTERVAL", "1m");

    assertThatThrownBy(() -> MiteSettings.fromEnv(env))
        .isInstanceOfSatisfying(SettingsException.class, e -> {
          assertThat(e.problems()).hasSize(4);
          assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("VARROA_LOOPBACK_PORT='-1'")
              .contains("9095"));
          assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("VARROA_EVENT_RETAIN_BYTES='16MB'")
              .contains("16Mi"));
          assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("VARROA_CLAIM_REPLY_WAIT='0'")
              .contains("4.5"));
          assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("VARROA_SCHEDULE_POLL_INTERVAL='1m'")
              .contains("PT1M"));
        });
    env.put("VARROA_LOOPBACK_PORT", "9095");
    env.put("VARROA_EVENT_RETAIN_BYTES", "0");
    env.put("VARROA_CLAIM_REPLY_WAIT", "-4.5");
    env.put("VARROA_SCHEDULE_POLL_INTERVAL", "PT0S");
    assertThatThrownBy(() -> MiteSettings.fromEnv(env))
        .isInstanceOfSatisfying(SettingsException.class, e -> assertThat(e.problems()).hasSize(3));
  }

  @Test
  void readsEveryOverride() {
    Map<String, String> env = minimal();
    env.put("VARROA_GATEWAY_ENDPOINT", "gw-0.gw:9090, gw-1.gw:9091,[::1]:9092");
    env.put("VARROA_BOOTSTRAP_TOKEN_FILE", "/b/token");
    env.put("VARROA_CA_FILE", "/b/ca.crt");
    env.put("VARROA_IDENTITY_DIR", "/id");
    env.put("VARROA_JENKINS_URL", "http://localhost:8081/jenkins");
    env.put("VARROA_CASC_DIR", "/c");
    env.put("VARROA_CASC_SEED_DIR", "/s");
    env.put("VARROA_SECRETS_DIR", "/sec");
    env.put("VARROA_LOOPBACK_DIR", "/l");
    env.put("VARROA_DRAIN_TIMEOUT_SECONDS", "30");
    env.put("VARROA_STARTUP_WAIT_SECONDS", "0");
    env.put("VARROA_HEALTH_PORT", "19096");

    MiteSettings settings = MiteSettings.fromEnv(env);

    assertThat(settings.gatewayEndpoints()).containsExactly(new GatewayEndpoint("gw-0.gw", 9090),
        new GatewayEndpoint("gw-1.gw", 9091), new GatewayEndpoint("::1", 9092));
    assertThat(settings.jenkinsUrl()).isEqualTo(URI.create("http://localhost:8081/jenkins/"));
    assertThat(settings.drainTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(settings.startupWait()).isZero();
    assertThat(settings.healthPort()).isEqualTo(19096);
    assertThat(List.of(settings.bootstrapTokenFile(), settings.caFile(), settings.identityDir(), settings.cascDir(),
        settings.cascSeedDir(), settings.secretsDir(), settings.loopbackDir()))
        .containsExactly(Path.of("/b/token"), Path.of("/b/ca.crt"), Path.of("/id"), Path.of("/c"), Path.of("/s"),
            Path.of("/sec"), Path.of("/l"));
  }

  @Test
  void namesEveryMissingVariableAndItsFix() {
    assertThatThrownBy(() -> MiteSettings.fromEnv(Map.of()))
        .isInstanceOfSatisfying(SettingsException.class, e -> {
          assertThat(e.problems()).hasSize(5);
          assertThat(e.getMessage()).contains("VARROA_CONTROLLER_NAMESPACE is not set", "VARROA_CONTROLLER_NAME is not set",
              "VARROA_CONTROLLER_UID is not set", "VARROA_POD_NAME is not set", "downward API",
              "VARROA_GATEWAY_ENDPOINT is not set", "host:port");
        });
  }

  @Test
  void rejectsBadValuesNamingTheVariable() {
    Map<String, String> env = minimal();
    env.put("VARROA_CONTROLLER_NAME", "CI_Upper");
    env.put("VARROA_GATEWAY_ENDPOINT", "gateway-without-port");
    env.put("VARROA_DRAIN_TIMEOUT_SECONDS", "15m");
    env.put("VARROA_STARTUP_WAIT_SECONDS", "-1");
    env.put("VARROA_HEALTH_PORT", "70000");
    env.put("VARROA_JENKINS_URL", "ftp://jenkins/");
    env.put("VARROA_CASC_DIR", "relative/casc");

    assertThatThrownBy(() -> MiteSettings.fromEnv(env))
        .isInstanceOfSatisfying(SettingsException.class, e -> {
          assertThat(e.problems()).hasSize(7);
          assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("VARROA_CONTROLLER_NAME='CI_Upper'"));
          assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("VARROA_GATEWAY_ENDPOINT")
              .contains("gateway-without-port", "host:port"));
          assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("VARROA_DRAIN_TIMEOUT_SECONDS='15m'")
              .contains("900"));
          assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("VARROA_STARTUP_WAIT_SECONDS='-1'"));
          assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("VARROA_HEALTH_PORT='70000'"));
          assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("VARROA_JENKINS_URL='ftp://jenkins/'"));
          assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("VARROA_CASC_DIR='relative/casc'")
              .contains("absolute"));
        });
  }

  @Test
  void fallsBackToTheHostnameForThePodName() {
    Map<String, String> env = minimal();
    env.remove("VARROA_POD_NAME");
    env.put("HOSTNAME", "ci-3f2a9c1e-0");

    assertThat(MiteSettings.fromEnv(env).podName()).isEqualTo("ci-3f2a9c1e-0");
  }

  @Test
  void rejectsAGatewayListWithABadPort() {
    Map<String, String> env = minimal();
    env.put("VARROA_GATEWAY_ENDPOINT", "gw:9090,gw:0");

    assertThatThrownBy(() -> MiteSettings.fromEnv(env))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("VARROA_GATEWAY_ENDPOINT");
  }
}
