package dev.varroa.gateway;

import dev.varroa.recorder.logs.BlobStoreSettings;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * How a gateway runs. Production reads it from the environment ({@link #fromEnv()}); tests build it
 * with {@link #of} and the {@code with...} copies.
 *
 * @param natsUrl one URL or several, comma-separated; never with credentials in it
 * @param natsUser the NATS user as a value (VARROA_NATS_USER); null to read it from natsUserFile
 * @param natsUserFile file holding the NATS user, read again at every (re)connect; null for none
 * @param natsPasswordFile file holding the NATS password, read again at every (re)connect; null for none
 * @param natsCaFile CA certificate (PEM) a tls:// NATS server is trusted by; null trusts the JVM's default CAs
 * @param tlsCertFile the gateway's server certificate chain (PEM); null to have the CA issue one at start
 * @param tlsDnsNames names a self-issued server certificate carries (when tlsCertFile is null)
 * @param tlsIpAddresses addresses a self-issued server certificate carries (when tlsCertFile is null)
 * @param clusterName the installation's cluster name, stamped on every build event group and ledger claim
 * @param eventPublishWait how long one event group may wait for room on varroa_builds before the stream ends
 * @param claimLedgerWait how long a claim waits for the ledger's decision before it is answered UNAVAILABLE
 * @param blobStore where console log chunks are written (VARROA_BLOB_*); {@link BlobStoreSettings#NONE} keeps none
 */
public record GatewaySettings(
    String gatewayId,
    String listenHost,
    int listenPort,
    String natsUrl,
    String natsUser,
    Path natsUserFile,
    Path natsPasswordFile,
    Path natsCaFile,
    Path caCertFile,
    Path caKeyFile,
    Path tlsCertFile,
    Path tlsKeyFile,
    List<String> tlsDnsNames,
    List<String> tlsIpAddresses,
    Duration heartbeatInterval,
    Duration queuedCommandAckWait,
    Duration ackProgressInterval,
    String clusterName,
    Duration eventPublishWait,
    Duration claimLedgerWait,
    BlobStoreSettings blobStore) {

  /** "Gateway reachability on TCP 9090" */
  public static final int DEFAULT_PORT = 9090;
  public static final String DEFAULT_LISTEN_HOST = "0.0.0.0";
  /** "The mite sends a heartbeat every 15 seconds." */
  public static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(15);
  /** "the 60-second ack wait of a running one-shot command" */
  public static final Duration QUEUED_COMMAND_ACK_WAIT = Duration.ofSeconds(60);
  /** "The gateway extends the 60-second ack wait ... every 15 seconds" */
  public static final Duration ACK_PROGRESS_INTERVAL = Duration.ofSeconds(15);
  /** VARROA_CLUSTER_NAME when unset: a single-cluster installation. */
  public static final String DEFAULT_CLUSTER_NAME = "local";
  /** "VARROA_EVENT_PUBLISH_WAIT (default 10 s) bounds the wait for queue room" */
  public static final Duration EVENT_PUBLISH_WAIT = Duration.ofSeconds(10);
  /** "Gateway request to the recorder: 4 s" (the last hop of the claim budget) */
  public static final Duration CLAIM_LEDGER_WAIT = Duration.ofSeconds(4);
  // The cluster name is a NATS subject token elsewhere (activity.<cluster>...), so no dots, wildcards or spaces.
  private static final Pattern CLUSTER_NAME = Pattern.compile("[A-Za-z0-9_-]+");
  private static final Pattern SECONDS = Pattern.compile("[0-9]+(\\.[0-9]+)?");

  public GatewaySettings {
    requireText(gatewayId, "gatewayId (VARROA_GATEWAY_ID)");
    requireText(listenHost, "listenHost (VARROA_GATEWAY_LISTEN)");
    requireText(natsUrl, "natsUrl (VARROA_NATS_URL)");
    Objects.requireNonNull(caCertFile, "caCertFile (VARROA_CA_CERT_FILE) is required");
    Objects.requireNonNull(caKeyFile, "caKeyFile (VARROA_CA_KEY_FILE) is required");
    if (listenPort < 0 || listenPort > 65535) {
      throw new IllegalArgumentException("listen port " + listenPort + " is not a TCP port (0 picks a free one)");
    }
    if ((tlsCertFile == null) != (tlsKeyFile == null)) {
      throw new IllegalArgumentException("set both VARROA_TLS_CERT_FILE and VARROA_TLS_KEY_FILE, or neither "
          + "(the CA then issues the gateway's server certificate)");
    }
    tlsDnsNames = List.copyOf(tlsDnsNames);
    tlsIpAddresses = List.copyOf(tlsIpAddresses);
    if (tlsCertFile == null && tlsDnsNames.isEmpty() && tlsIpAddresses.isEmpty()) {
      throw new IllegalArgumentException("a self-issued server certificate needs a DNS name or IP address: set "
          + "VARROA_TLS_DNS_NAMES");
    }
    requirePositive(heartbeatInterval, "heartbeatInterval");
    requirePositive(queuedCommandAckWait, "queuedCommandAckWait");
    requirePositive(ackProgressInterval, "ackProgressInterval");
    if (clusterName == null || !CLUSTER_NAME.matcher(clusterName).matches()) {
      throw new IllegalArgumentException("VARROA_CLUSTER_NAME='" + clusterName + "' is not a cluster name: use "
          + "letters, digits, '-' and '_' only (it is a NATS subject token), or leave it unset for '"
          + DEFAULT_CLUSTER_NAME + "'");
    }
    requirePositive(eventPublishWait, "eventPublishWait (VARROA_EVENT_PUBLISH_WAIT)");
    requirePositive(claimLedgerWait, "claimLedgerWait (VARROA_CLAIM_LEDGER_WAIT)");
    Objects.requireNonNull(blobStore, "blobStore (VARROA_BLOB_MODE): use BlobStoreSettings.NONE for no console logs");
    if (ackProgressInterval.compareTo(queuedCommandAckWait) >= 0) {
      throw new IllegalArgumentException("the ack progress interval (" + ackProgressInterval + ") must be shorter "
          + "than the ack wait (" + queuedCommandAckWait + ") or a slow command is redelivered");
    }
  }

  /** Defaults for everything but the gateway id, NATS and the CA; the server certificate is self-issued. */
  public static GatewaySettings of(String gatewayId, String natsUrl, Path caCertFile, Path caKeyFile) {
    Change draft = Change.defaults();
    draft.gatewayId = gatewayId;
    draft.natsUrl = natsUrl;
    draft.caCertFile = caCertFile;
    draft.caKeyFile = caKeyFile;
    return draft.build();
  }

  public GatewaySettings withListen(String host, int port) {
    return change(c -> {
      c.listenHost = host;
      c.listenPort = port;
    });
  }

  public GatewaySettings withNatsCredentialFiles(Path userFile, Path passwordFile) {
    return change(c -> {
      c.natsUser = null;
      c.natsUserFile = userFile;
      c.natsPasswordFile = passwordFile;
    });
  }

  /** The user as a value and the password from a file, as the chart mounts them. */
  public GatewaySettings withNatsUser(String user, Path passwordFile) {
    return change(c -> {
      c.natsUser = user;
      c.natsUserFile = null;
      c.natsPasswordFile = passwordFile;
    });
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }

  public GatewaySettings withNatsCaFile(Path caFile) {
    return change(c -> c.natsCaFile = caFile);
  }

  public GatewaySettings withTlsFiles(Path certFile, Path keyFile) {
    return change(c -> {
      c.tlsCertFile = certFile;
      c.tlsKeyFile = keyFile;
    });
  }

  public GatewaySettings withTlsNames(List<String> dnsNames, List<String> ipAddresses) {
    return change(c -> {
      c.tlsDnsNames = dnsNames;
      c.tlsIpAddresses = ipAddresses;
    });
  }

  public GatewaySettings withHeartbeatInterval(Duration interval) {
    return change(c -> c.heartbeatInterval = interval);
  }

  public GatewaySettings withQueuedCommandTiming(Duration ackWait, Duration progressInterval) {
    return change(c -> {
      c.queuedCommandAckWait = ackWait;
      c.ackProgressInterval = progressInterval;
    });
  }

  public GatewaySettings withClusterName(String name) {
    return change(c -> c.clusterName = name);
  }

  public GatewaySettings withEventPublishWait(Duration wait) {
    return change(c -> c.eventPublishWait = wait);
  }

  public GatewaySettings withBlobStore(BlobStoreSettings store) {
    return change(c -> c.blobStore = store);
  }

  public GatewaySettings withClaimLedgerWait(Duration wait) {
    return change(c -> c.claimLedgerWait = wait);
  }

  /** Reads the process environment; see {@link #fromEnv(Map)} for the variables. */
  public static GatewaySettings fromEnv() {
    return fromEnv(System.getenv());
  }

  /**
   * VARROA_GATEWAY_ID (default: host name), VARROA_GATEWAY_LISTEN (default 0.0.0.0:9090),
   * VARROA_NATS_URL (required), VARROA_NATS_USER or VARROA_NATS_USER_FILE, VARROA_NATS_PASSWORD_FILE, VARROA_NATS_CA_FILE,
   * VARROA_CA_CERT_FILE and VARROA_CA_KEY_FILE (required), VARROA_TLS_CERT_FILE and VARROA_TLS_KEY_FILE
   * (optional pair), VARROA_TLS_DNS_NAMES and VARROA_TLS_IP_ADDRESSES (comma lists for a self-issued
   * server certificate; default: host name and localhost, 127.0.0.1), VARROA_CLUSTER_NAME (default local),
   * VARROA_EVENT_PUBLISH_WAIT (default 10 s) and VARROA_CLAIM_LEDGER_WAIT (default 4 s), durations given as
   * seconds ({@code 2.5}) or ISO-8601 ({@code PT2.5S}); the console log store from VARROA_BLOB_MODE and, for the
   * postgres tier, VARROA_BLOB_POSTGRES_* only (see {@link BlobStoreSettings#fromEnv(Map)}).
   */
  public static GatewaySettings fromEnv(Map<String, String> env) {
    String gatewayId = env.getOrDefault("VARROA_GATEWAY_ID", hostName());
    String listen = env.getOrDefault("VARROA_GATEWAY_LISTEN", DEFAULT_LISTEN_HOST + ":" + DEFAULT_PORT);
    int colon = listen.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("VARROA_GATEWAY_LISTEN must be host:port, got '" + listen + "'");
    }
    String host = listen.substring(0, colon).replace("[", "").replace("]", "");
    int port;
    try {
      port = Integer.parseInt(listen.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("VARROA_GATEWAY_LISTEN must be host:port, got '" + listen + "'");
    }
    String natsUrl = required(env, "VARROA_NATS_URL");
    List<String> dnsNames = list(env.get("VARROA_TLS_DNS_NAMES"));
    List<String> ips = list(env.get("VARROA_TLS_IP_ADDRESSES"));
    Change draft = new Change();
    draft.gatewayId = gatewayId;
    draft.listenHost = host;
    draft.listenPort = port;
    draft.natsUrl = natsUrl;
    draft.natsUser = blankToNull(env.get("VARROA_NATS_USER"));
    draft.natsUserFile = path(env, "VARROA_NATS_USER_FILE");
    draft.natsPasswordFile = path(env, "VARROA_NATS_PASSWORD_FILE");
    draft.natsCaFile = path(env, "VARROA_NATS_CA_FILE");
    draft.caCertFile = Path.of(required(env, "VARROA_CA_CERT_FILE"));
    draft.caKeyFile = Path.of(required(env, "VARROA_CA_KEY_FILE"));
    draft.tlsCertFile = path(env, "VARROA_TLS_CERT_FILE");
    draft.tlsKeyFile = path(env, "VARROA_TLS_KEY_FILE");
    draft.tlsDnsNames = dnsNames.isEmpty() ? defaultDnsNames() : dnsNames;
    draft.tlsIpAddresses = ips.isEmpty() && dnsNames.isEmpty() ? List.of("127.0.0.1") : ips;
    draft.heartbeatInterval = HEARTBEAT_INTERVAL;
    draft.queuedCommandAckWait = QUEUED_COMMAND_ACK_WAIT;
    draft.ackProgressInterval = ACK_PROGRESS_INTERVAL;
    draft.clusterName = env.getOrDefault("VARROA_CLUSTER_NAME", "").isBlank() ? DEFAULT_CLUSTER_NAME
        : env.get("VARROA_CLUSTER_NAME").strip();
    draft.eventPublishWait = duration(env, "VARROA_EVENT_PUBLISH_WAIT", EVENT_PUBLISH_WAIT);
    draft.claimLedgerWait = duration(env, "VARROA_CLAIM_LEDGER_WAIT", CLAIM_LEDGER_WAIT);
    draft.blobStore = BlobStoreSettings.fromEnv(env);
    return draft.build();
  }

  /** Seconds ({@code 10}, {@code 2.5}) or ISO-8601 ({@code PT10S}); unset or blank gives the fallback. */
  static Duration duration(Map<String, String> env, String name, Duration fallback) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    String text = value.strip();
    Duration parsed;
    try {
      if (SECONDS.matcher(text).matches()) {
        parsed = Duration.ofNanos(new BigDecimal(text).movePointRight(9).longValueExact());
      } else if (text.startsWith("P") || text.startsWith("p")) {
        parsed = Duration.parse(text.toUpperCase(Locale.ROOT));
      } else {
        parsed = null;
      }
    } catch (DateTimeParseException | ArithmeticException e) {
      parsed = null;
    }
    String byDefault = fallback.toString().substring(2).toLowerCase(Locale.ROOT);
    if (parsed == null) {
      throw new IllegalArgumentException(name + "='" + value + "' is not a duration: give seconds (e.g. 10 or 2.5) "
          + "or ISO-8601 (e.g. PT10S); unset it for the default " + byDefault);
    }
    if (parsed.isZero() || parsed.isNegative()) {
      throw new IllegalArgumentException(name + "='" + value + "' must be longer than zero; unset it for the default "
          + byDefault);
    }
    return parsed;
  }

  private static String required(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " is not set: the gateway needs it to start");
    }
    return value.strip();
  }

  private static Path path(Map<String, String> env, String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? null : Path.of(value.strip());
  }

  private static List<String> list(String commaSeparated) {
    if (commaSeparated == null) {
      return List.of();
    }
    return Arrays.stream(commaSeparated.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
  }

  private static List<String> defaultDnsNames() {
    List<String> names = new ArrayList<>();
    names.add("localhost");
    String host = hostName();
    if (!names.contains(host)) {
      names.add(host);
    }
    return names;
  }

  private static String hostName() {
    String fromEnv = System.getenv("HOSTNAME");
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv.strip();
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "varroa-gateway";
    }
  }

  private static void requireText(String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(what + " is required");
    }
  }

  private static void requirePositive(Duration value, String what) {
    if (value == null || value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(what + " must be a positive duration, got " + value);
    }
  }

  /** A copy in which {@code change} sets only the fields it names; the record's checks run on the result. */
  private GatewaySettings change(Consumer<Change> change) {
    Change draft = new Change(this);
    change.accept(draft);
    return draft.build();
  }

  /**
   * Settings being changed: every field once, so a with-copy or the environment names only what it sets (a new
   * setting is a record component, a field here, a line in the copy constructor, in defaults and in build).
   */
  private static final class Change {
    private String gatewayId;
    private String listenHost;
    private int listenPort;
    private String natsUrl;
    private String natsUser;
    private Path natsUserFile;
    private Path natsPasswordFile;
    private Path natsCaFile;
    private Path caCertFile;
    private Path caKeyFile;
    private Path tlsCertFile;
    private Path tlsKeyFile;
    private List<String> tlsDnsNames;
    private List<String> tlsIpAddresses;
    private Duration heartbeatInterval;
    private Duration queuedCommandAckWait;
    private Duration ackProgressInterval;
    private String clusterName;
    private Duration eventPublishWait;
    private Duration claimLedgerWait;
    private BlobStoreSettings blobStore;

    private Change() {}

    /** The defaults of {@link #of}; the id, NATS URL and CA files are still to be set. */
    private static Change defaults() {
      Change draft = new Change();
      draft.listenHost = DEFAULT_LISTEN_HOST;
      draft.listenPort = DEFAULT_PORT;
      draft.tlsDnsNames = defaultDnsNames();
      draft.tlsIpAddresses = List.of("127.0.0.1");
      draft.heartbeatInterval = HEARTBEAT_INTERVAL;
      draft.queuedCommandAckWait = QUEUED_COMMAND_ACK_WAIT;
      draft.ackProgressInterval = ACK_PROGRESS_INTERVAL;
      draft.clusterName = DEFAULT_CLUSTER_NAME;
      draft.eventPublishWait = EVENT_PUBLISH_WAIT;
      draft.claimLedgerWait = CLAIM_LEDGER_WAIT;
      draft.blobStore = BlobStoreSettings.NONE;
      return draft;
    }

    private Change(GatewaySettings from) {
      gatewayId = from.gatewayId;
      listenHost = from.listenHost;
      listenPort = from.listenPort;
      natsUrl = from.natsUrl;
      natsUser = from.natsUser;
      natsUserFile = from.natsUserFile;
      natsPasswordFile = from.natsPasswordFile;
      natsCaFile = from.natsCaFile;
      caCertFile = from.caCertFile;
      caKeyFile = from.caKeyFile;
      tlsCertFile = from.tlsCertFile;
      tlsKeyFile = from.tlsKeyFile;
      tlsDnsNames = from.tlsDnsNames;
      tlsIpAddresses = from.tlsIpAddresses;
      heartbeatInterval = from.heartbeatInterval;
      queuedCommandAckWait = from.queuedCommandAckWait;
      ackProgressInterval = from.ackProgressInterval;
      clusterName = from.clusterName;
      eventPublishWait = from.eventPublishWait;
      claimLedgerWait = from.claimLedgerWait;
      blobStore = from.blobStore;
    }

    private GatewaySettings build() {
      return new GatewaySettings(gatewayId, listenHost, listenPort, natsUrl, natsUser, natsUserFile, natsPasswordFile,
          natsCaFile, caCertFile, caKeyFile, tlsCertFile, tlsKeyFile, tlsDnsNames, tlsIpAddresses, heartbeatInterval,
          queuedCommandAckWait, ackProgressInterval, clusterName, eventPublishWait, claimLedgerWait, blobStore);
    }
  }
}
