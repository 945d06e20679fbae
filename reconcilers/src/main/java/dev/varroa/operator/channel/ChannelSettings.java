package dev.varroa.operator.channel;

import dev.varroa.operator.render.ChannelEndpoint;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.BusCredential;
import dev.varroa.protocol.bus.BusCredentialSource;
import dev.varroa.protocol.bus.BusTrust;
import dev.varroa.protocol.bus.CredentialReadingServerPool;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the operator reaches the control channel, from its environment (an installation made by the chart builds it
 * with InstalledChannelSettings, in the install package). Without VARROA_NATS_URL it runs without one: workloads
 * are rendered, but no token is minted and no desired state is pushed.
 *
 * @param natsCredential asked before every connect attempt, so a rotated password needs no restart
 * @param natsCaPem the CA a tls:// NATS server is verified with; empty trusts the JVM's default CAs
 */
public record ChannelSettings(String natsUrl, BusCredentialSource natsCredential,
    Supplier<Optional<String>> natsCaPem, String gatewayEndpoint, String caCertificatePem,
    JenkinsTokenIssuer jenkinsTokens) {
  public static final String ENV_NATS_URL = "VARROA_NATS_URL";
  public static final String ENV_NATS_USER = "VARROA_NATS_USER";
  public static final String ENV_NATS_PASSWORD_FILE = "VARROA_NATS_PASSWORD_FILE";
  public static final String ENV_NATS_CA_FILE = "VARROA_NATS_CA_FILE";
  public static final String ENV_NATS_CREDS_SECRET = "VARROA_NATS_CREDS_SECRET";
  public static final String ENV_GATEWAY_ENDPOINT = "VARROA_GATEWAY_ENDPOINT";
  public static final String ENV_CA_CERT_FILE = "VARROA_CA_CERT_FILE";
  public static final String ENV_JWT_SIGNING_KEY_FILE = "VARROA_JWT_SIGNING_KEY_FILE";
  /** The NATS user the chart gives the operator. */
  public static final String DEFAULT_NATS_USER = "operator";
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration CA_WAIT = Duration.ofSeconds(10);
  private static final Logger LOG = LoggerFactory.getLogger(ChannelSettings.class);

  /** A local run: the CA certificate, the signing key and the NATS password are files. */
  public static Optional<ChannelSettings> fromEnv(Map<String, String> env) throws IOException {
    String url = env.get(ENV_NATS_URL);
    if (url == null || url.isBlank()) {
      return Optional.empty();
    }
    Optional<String> user = Optional.ofNullable(env.get(ENV_NATS_USER));
    Optional<Path> passwordFile = Optional.ofNullable(env.get(ENV_NATS_PASSWORD_FILE)).map(Path::of);
    // Read before every attempt; an unreadable file makes that attempt fail auth, the next one reads again.
    BusCredentialSource credential = () -> user.flatMap(u -> passwordFile.flatMap(f -> {
      try {
        return Optional.of(new BusCredential(u, Files.readString(f, StandardCharsets.UTF_8).strip()));
      } catch (IOException e) {
        LOG.warn("event=nats_credential_unreadable file={} error=\"{}\"", f, e.getMessage());
        return Optional.empty();
      }
    }));
    Optional<String> natsCa = Optional.ofNullable(env.get(ENV_NATS_CA_FILE)).map(Path::of).map(ChannelSettings::read);
    Path caFile = Path.of(required(env, ENV_CA_CERT_FILE, "the Varroa CA certificate (PEM) the mites trust the gateway by"));
    Path keyFile = Path.of(required(env, ENV_JWT_SIGNING_KEY_FILE,
        "the P-256 private key (PEM) Jenkins tokens are signed with"));
    return Optional.of(new ChannelSettings(url, credential, () -> natsCa,
        env.getOrDefault(ENV_GATEWAY_ENDPOINT, ChannelEndpoint.DEFAULT_GATEWAY_ENDPOINT), read(caFile),
        JenkinsTokenIssuer.fromPemFile(keyFile)));
  }

  private static String required(Map<String, String> env, String name, String what) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " is not set; with " + ENV_NATS_URL + " set the operator needs "
          + what + "; fix: set " + name + " to its file");
    }
    return value;
  }

  /**
   * Connects, waiting for NATS as long as it takes (a first install starts NATS after the operator).
   *
   * @param cluster this installation's cluster name: the control subjects the channel serves and sends on
   */
  public ControlChannel open(String cluster, Clock clock) throws IOException, InterruptedException, JetStreamApiException {
    List<String> urls = Arrays.stream(natsUrl.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    Options.Builder options = Options.builder().servers(urls.toArray(String[]::new))
        .serverPool(new CredentialReadingServerPool(urls, natsCredential)).connectionName("varroa-operator")
        .inboxPrefix(BusNames.operatorInboxPrefix(cluster))
        .connectionTimeout(CONNECT_TIMEOUT).maxReconnects(-1);
    if (urls.stream().anyMatch(u -> u.startsWith("tls://"))) {
      options.sslContext(BusTrust.trusting(awaitNatsCa(), "the NATS CA (ca.crt)"));
    }
    Connection nats = Nats.connectReconnectOnConnect(options.build());
    return new ControlChannel(nats, cluster, gatewayEndpoint, caCertificatePem, jenkinsTokens, clock);
  }

  private String awaitNatsCa() throws InterruptedException {
    Optional<String> ca = natsCaPem.get();
    while (ca.isEmpty()) {
      LOG.warn("event=nats_ca_missing retry_in={}s", CA_WAIT.toSeconds());
      Thread.sleep(CA_WAIT.toMillis());
      ca = natsCaPem.get();
    }
    return ca.get();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
