package dev.varroa.operator.channel;

import dev.varroa.operator.render.ChannelEndpoint;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * How the operator reaches the control channel, from its environment. Without VARROA_NATS_URL it runs
 * without one: workloads are rendered, but no token is minted and no desired state is pushed.
 */
public record ChannelSettings(String natsUrl, Optional<String> natsUser, Optional<Path> natsPasswordFile,
    String gatewayEndpoint, Path caCertificateFile, Path jwtSigningKeyFile) {
  public static final String ENV_NATS_URL = "VARROA_NATS_URL";
  public static final String ENV_NATS_USER = "VARROA_NATS_USER";
  public static final String ENV_NATS_PASSWORD_FILE = "VARROA_NATS_PASSWORD_FILE";
  public static final String ENV_GATEWAY_ENDPOINT = "VARROA_GATEWAY_ENDPOINT";
  public static final String ENV_CA_CERT_FILE = "VARROA_CA_CERT_FILE";
  public static final String ENV_JWT_SIGNING_KEY_FILE = "VARROA_JWT_SIGNING_KEY_FILE";
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  public static Optional<ChannelSettings> fromEnv(Map<String, String> env) {
    String url = env.get(ENV_NATS_URL);
    if (url == null || url.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(new ChannelSettings(url, Optional.ofNullable(env.get(ENV_NATS_USER)),
        Optional.ofNullable(env.get(ENV_NATS_PASSWORD_FILE)).map(Path::of),
        env.getOrDefault(ENV_GATEWAY_ENDPOINT, ChannelEndpoint.DEFAULT_GATEWAY_ENDPOINT),
        Path.of(required(env, ENV_CA_CERT_FILE, "the Varroa CA certificate (PEM) the mites trust the gateway by")),
        Path.of(required(env, ENV_JWT_SIGNING_KEY_FILE, "the P-256 private key (PEM) Jenkins tokens are signed with"))));
  }

  private static String required(Map<String, String> env, String name, String what) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " is not set; with " + ENV_NATS_URL + " set the operator needs "
          + what + "; fix: set " + name + " to its file");
    }
    return value;
  }

  public ControlChannel open(Clock clock) throws IOException, InterruptedException, JetStreamApiException {
    Options.Builder options = Options.builder().server(natsUrl).connectionName("varroa-operator")
        .connectionTimeout(CONNECT_TIMEOUT).maxReconnects(-1);
    if (natsUser.isPresent() && natsPasswordFile.isPresent()) {
      options.userInfo(natsUser.get(), Files.readString(natsPasswordFile.get(), StandardCharsets.UTF_8).strip());
    }
    Connection nats = Nats.connect(options.build());
    return new ControlChannel(nats, gatewayEndpoint, Files.readString(caCertificateFile, StandardCharsets.UTF_8),
        JenkinsTokenIssuer.fromPemFile(jwtSigningKeyFile), clock);
  }
}
