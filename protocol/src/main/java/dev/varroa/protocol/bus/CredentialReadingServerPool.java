package dev.varroa.protocol.bus;

import io.nats.client.Options;
import io.nats.client.ServerPool;
import io.nats.client.support.NatsUri;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * jnats builds its CONNECT from the user info of the server URI it is about to try. This pool hands
 * out the configured servers with the credential read from its files at that moment, so every
 * reconnect authenticates with the current password. Discovered cluster URLs are ignored: the
 * configured URL (a Kubernetes Service) already spreads connections.
 */
public final class CredentialReadingServerPool implements ServerPool {

  private final List<NatsUri> servers;
  private final BusCredentialSource credentials;
  private final AtomicInteger position = new AtomicInteger();

  public CredentialReadingServerPool(List<String> urls, BusCredentialSource credentials) {
    if (urls.isEmpty()) {
      throw new IllegalArgumentException("no NATS server URL: set VARROA_NATS_URL");
    }
    this.servers = urls.stream().map(CredentialReadingServerPool::parse).toList();
    this.credentials = credentials;
  }

  @Override
  public void initialize(Options options) {
    // The servers are fixed at construction; options carry the same list for jnats' own checks.
  }

  @Override
  public boolean acceptDiscoveredUrls(List<String> discoveredServers) {
    return false;
  }

  @Override
  public NatsUri peekNextServer() {
    return withCurrentCredential(servers.get(Math.floorMod(position.get(), servers.size())));
  }

  @Override
  public NatsUri nextServer() {
    return withCurrentCredential(servers.get(Math.floorMod(position.getAndIncrement(), servers.size())));
  }

  @Override
  public List<String> resolveHostToIps(String host) {
    // null: connect to the host name as given and let the resolver pick.
    return null;
  }

  @Override
  public void connectSucceeded(NatsUri nuri) {
    // Nothing to remember: the list never shrinks, the gateway reconnects forever.
  }

  @Override
  public void connectFailed(NatsUri nuri) {
    // Same: a failed server stays in the rotation.
  }

  @Override
  public List<String> getServerList() {
    // Plain URLs: jnats puts this list into exception messages.
    return servers.stream().map(NatsUri::toString).toList();
  }

  @Override
  public boolean hasSecureServer() {
    return servers.stream().anyMatch(NatsUri::isSecure);
  }

  private NatsUri withCurrentCredential(NatsUri server) {
    Optional<BusCredential> credential = credentials.read();
    if (credential.isEmpty()) {
      return server;
    }
    String userInfo = percentEncode(credential.get().user()) + ":" + percentEncode(credential.get().password());
    String host = server.getHost().contains(":") ? "[" + server.getHost() + "]" : server.getHost();
    try {
      return new NatsUri(server.getScheme() + "://" + userInfo + "@" + host + ":" + server.getPort());
    } catch (URISyntaxException e) {
      // Percent-encoding leaves nothing to reject; never echo the input, it holds the password.
      throw new IllegalStateException("cannot build a NATS URI with credentials for " + server);
    }
  }

  private static NatsUri parse(String url) {
    try {
      NatsUri uri = new NatsUri(url.strip());
      if (uri.getUserInfo() != null) {
        throw new IllegalArgumentException("VARROA_NATS_URL must not carry credentials: give them apart, "
            + "as VARROA_NATS_USER(_FILE) and VARROA_NATS_PASSWORD_FILE (or the installation's varroa-nats-creds)");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("not a NATS URL: '" + Redaction.withoutUserInfo(url) + "'");
    }
  }

  // Every byte outside the unreserved set is escaped; jnats decodes the user info before CONNECT.
  static String percentEncode(String value) {
    StringBuilder out = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~".indexOf(c) >= 0) {
        out.append(c);
      } else {
        out.append('%').append(String.format("%02X", b & 0xff));
      }
    }
    return out.toString();
  }
}
