package dev.varroa.mite;

import dev.varroa.protocol.ControllerIdentity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Everything the mite reads from its environment. The operator renders these variables into the
 * mite container; {@link #fromEnv(Map)} names the variable and the fix for every bad value.
 */
public record MiteSettings(
    ControllerIdentity controller,
    String podName,
    List<GatewayEndpoint> gatewayEndpoints,
    Path bootstrapTokenFile,
    Path caFile,
    Path identityDir,
    URI jenkinsUrl,
    Path cascDir,
    Path cascSeedDir,
    Path secretsDir,
    Path loopbackDir,
    Duration drainTimeout,
    Duration startupWait,
    int healthPort,
    int loopbackPort,
    long eventRetainBytes,
    Duration claimReplyWait,
    Duration schedulePollInterval,
    Duration logAppendWait) {

  public static final String ENV_CONTROLLER_NAMESPACE = "VARROA_CONTROLLER_NAMESPACE";
  public static final String ENV_CONTROLLER_NAME = "VARROA_CONTROLLER_NAME";
  public static final String ENV_CONTROLLER_UID = "VARROA_CONTROLLER_UID";
  public static final String ENV_POD_NAME = "VARROA_POD_NAME";
  /** Kubernetes sets the hostname to the pod name; used when VARROA_POD_NAME is not rendered. */
  public static final String ENV_HOSTNAME = "HOSTNAME";
  public static final String ENV_GATEWAY_ENDPOINT = "VARROA_GATEWAY_ENDPOINT";
  public static final String ENV_BOOTSTRAP_TOKEN_FILE = "VARROA_BOOTSTRAP_TOKEN_FILE";
  public static final String ENV_CA_FILE = "VARROA_CA_FILE";
  public static final String ENV_IDENTITY_DIR = "VARROA_IDENTITY_DIR";
  public static final String ENV_JENKINS_URL = "VARROA_JENKINS_URL";
  public static final String ENV_CASC_DIR = "VARROA_CASC_DIR";
  public static final String ENV_CASC_SEED_DIR = "VARROA_CASC_SEED_DIR";
  public static final String ENV_SECRETS_DIR = "VARROA_SECRETS_DIR";
  public static final String ENV_LOOPBACK_DIR = "VARROA_LOOPBACK_DIR";
  public static final String ENV_DRAIN_TIMEOUT_SECONDS = "VARROA_DRAIN_TIMEOUT_SECONDS";
  public static final String ENV_STARTUP_WAIT_SECONDS = "VARROA_STARTUP_WAIT_SECONDS";
  public static final String ENV_HEALTH_PORT = "VARROA_HEALTH_PORT";
  public static final String ENV_LOOPBACK_PORT = "VARROA_LOOPBACK_PORT";
  public static final String ENV_EVENT_RETAIN_BYTES = "VARROA_EVENT_RETAIN_BYTES";
  public static final String ENV_CLAIM_REPLY_WAIT = "VARROA_CLAIM_REPLY_WAIT";
  public static final String ENV_SCHEDULE_POLL_INTERVAL = "VARROA_SCHEDULE_POLL_INTERVAL";
  public static final String ENV_LOG_APPEND_WAIT = "VARROA_LOG_APPEND_WAIT";

  public static final Path DEFAULT_BOOTSTRAP_TOKEN_FILE = Path.of("/var/run/varroa-bootstrap/token");
  public static final Path DEFAULT_CA_FILE = Path.of("/var/run/varroa-bootstrap/ca.crt");
  /** An in-memory volume only the mite mounts: the key survives a container restart, never a pod restart. */
  public static final Path DEFAULT_IDENTITY_DIR = Path.of("/var/run/varroa-mite");
  public static final URI DEFAULT_JENKINS_URL = URI.create("http://127.0.0.1:8080/");
  public static final Path DEFAULT_CASC_DIR = Path.of("/var/varroa/casc");
  public static final Path DEFAULT_CASC_SEED_DIR = Path.of("/var/varroa/casc-rendered");
  public static final Path DEFAULT_SECRETS_DIR = Path.of("/run/secrets");
  /** Seed 000: the loopback token lives at /var/run/varroa/loopback-token. */
  public static final Path DEFAULT_LOOPBACK_DIR = Path.of("/var/run/varroa");
  /** Seed 000: "The default drain timeout is 900 seconds." */
  public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(900);
  /** The bounded wait for the first desired state before the mite lets Jenkins start anyway. */
  public static final Duration DEFAULT_STARTUP_WAIT = Duration.ofSeconds(600);
  public static final int DEFAULT_HEALTH_PORT = 9096;
  /** Seed 000: the plugin's listener, on 127.0.0.1 only. */
  public static final int DEFAULT_LOOPBACK_PORT = 9095;
  /** Seed 000: the mite retains at most 16 MiB of unacknowledged events (serialized size). */
  public static final long DEFAULT_EVENT_RETAIN_BYTES = 16L * 1024 * 1024;
  /** Seed 000: the mite waits 4.5 s for a claim reply, inside the plugin's 5 s read budget. */
  public static final Duration DEFAULT_CLAIM_REPLY_WAIT = Duration.ofMillis(4500);
  /** How often the mite reads the plugin's job-schedule inventory. */
  public static final Duration DEFAULT_SCHEDULE_POLL_INTERVAL = Duration.ofSeconds(60);
  /** Issue 12: how long POST /v1/logs waits for the gateway's log_append_answer before it answers 504. */
  public static final Duration DEFAULT_LOG_APPEND_WAIT = Duration.ofSeconds(10);

  // The forms ControllerIdentity accepts in its URI; checked here so a typo fails at start, not at registration.
  private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9-]+");
  private static final Pattern NAME = Pattern.compile("[a-z0-9.-]+");
  private static final Pattern UID = Pattern.compile("[A-Za-z0-9-]+");
  private static final Pattern BYTES = Pattern.compile("([0-9]{1,18})(Ki|Mi|Gi)?");

  public MiteSettings {
    Objects.requireNonNull(controller, "controller");
    Objects.requireNonNull(podName, "podName");
    gatewayEndpoints = List.copyOf(gatewayEndpoints);
    if (gatewayEndpoints.isEmpty()) {
      throw new IllegalArgumentException("at least one gateway endpoint is needed");
    }
    Objects.requireNonNull(bootstrapTokenFile, "bootstrapTokenFile");
    Objects.requireNonNull(caFile, "caFile");
    Objects.requireNonNull(identityDir, "identityDir");
    Objects.requireNonNull(jenkinsUrl, "jenkinsUrl");
    Objects.requireNonNull(cascDir, "cascDir");
    Objects.requireNonNull(cascSeedDir, "cascSeedDir");
    Objects.requireNonNull(secretsDir, "secretsDir");
    Objects.requireNonNull(loopbackDir, "loopbackDir");
    Objects.requireNonNull(drainTimeout, "drainTimeout");
    Objects.requireNonNull(startupWait, "startupWait");
    Objects.requireNonNull(claimReplyWait, "claimReplyWait");
    Objects.requireNonNull(schedulePollInterval, "schedulePollInterval");
    Objects.requireNonNull(logAppendWait, "logAppendWait");
    if (eventRetainBytes <= 0 || claimReplyWait.isNegative() || claimReplyWait.isZero()
        || schedulePollInterval.isNegative() || schedulePollInterval.isZero()
        || logAppendWait.isNegative() || logAppendWait.isZero()) {
      throw new IllegalArgumentException(
          "eventRetainBytes, claimReplyWait, schedulePollInterval and logAppendWait must be positive");
    }
  }

  /** The settings before console logs, with the default {@link #DEFAULT_LOG_APPEND_WAIT}. */
  public MiteSettings(ControllerIdentity controller, String podName, List<GatewayEndpoint> gatewayEndpoints,
      Path bootstrapTokenFile, Path caFile, Path identityDir, URI jenkinsUrl, Path cascDir, Path cascSeedDir,
      Path secretsDir, Path loopbackDir, Duration drainTimeout, Duration startupWait, int healthPort, int loopbackPort,
      long eventRetainBytes, Duration claimReplyWait, Duration schedulePollInterval) {
    this(controller, podName, gatewayEndpoints, bootstrapTokenFile, caFile, identityDir, jenkinsUrl, cascDir,
        cascSeedDir, secretsDir, loopbackDir, drainTimeout, startupWait, healthPort, loopbackPort, eventRetainBytes,
        claimReplyWait, schedulePollInterval, DEFAULT_LOG_APPEND_WAIT);
  }

  /** The same settings with another log append wait (tests shorten it). */
  public MiteSettings withLogAppendWait(Duration wait) {
    return new MiteSettings(controller, podName, gatewayEndpoints, bootstrapTokenFile, caFile, identityDir, jenkinsUrl,
        cascDir, cascSeedDir, secretsDir, loopbackDir, drainTimeout, startupWait, healthPort, loopbackPort,
        eventRetainBytes, claimReplyWait, schedulePollInterval, wait);
  }

  /** Reads the process environment. */
  public static MiteSettings fromEnv() {
    return fromEnv(System.getenv());
  }

  /** Reads the given environment; throws {@link SettingsException} listing every bad or missing variable. */
  public static MiteSettings fromEnv(Map<String, String> env) {
    Reader r = new Reader(env);
    String namespace = r.matching(ENV_CONTROLLER_NAMESPACE, NAMESPACE,
        "the controller's namespace (lowercase letters, digits, '-')");
    String name = r.matching(ENV_CONTROLLER_NAME, NAME,
        "the controller's name (lowercase letters, digits, '.', '-')");
    String uid = r.matching(ENV_CONTROLLER_UID, UID, "the controller's metadata.uid");
    String podName = r.podName();
    List<GatewayEndpoint> endpoints = r.endpoints();
    Path tokenFile = r.path(ENV_BOOTSTRAP_TOKEN_FILE, DEFAULT_BOOTSTRAP_TOKEN_FILE);
    Path caFile = r.path(ENV_CA_FILE, DEFAULT_CA_FILE);
    Path identityDir = r.path(ENV_IDENTITY_DIR, DEFAULT_IDENTITY_DIR);
    URI jenkinsUrl = r.jenkinsUrl();
    Path cascDir = r.path(ENV_CASC_DIR, DEFAULT_CASC_DIR);
    Path cascSeedDir = r.path(ENV_CASC_SEED_DIR, DEFAULT_CASC_SEED_DIR);
    Path secretsDir = r.path(ENV_SECRETS_DIR, DEFAULT_SECRETS_DIR);
    Path loopbackDir = r.path(ENV_LOOPBACK_DIR, DEFAULT_LOOPBACK_DIR);
    Duration drainTimeout = r.seconds(ENV_DRAIN_TIMEOUT_SECONDS, DEFAULT_DRAIN_TIMEOUT);
    Duration startupWait = r.seconds(ENV_STARTUP_WAIT_SECONDS, DEFAULT_STARTUP_WAIT);
    int healthPort = r.port(ENV_HEALTH_PORT, DEFAULT_HEALTH_PORT);
    int loopbackPort = r.port(ENV_LOOPBACK_PORT, DEFAULT_LOOPBACK_PORT);
    long retainBytes = r.bytes(ENV_EVENT_RETAIN_BYTES, DEFAULT_EVENT_RETAIN_BYTES);
    Duration claimReplyWait = r.duration(ENV_CLAIM_REPLY_WAIT, DEFAULT_CLAIM_REPLY_WAIT, "4.5 or PT4.5S");
    Duration pollInterval = r.duration(ENV_SCHEDULE_POLL_INTERVAL, DEFAULT_SCHEDULE_POLL_INTERVAL, "60 or PT1M");
    Duration logAppendWait = r.duration(ENV_LOG_APPEND_WAIT, DEFAULT_LOG_APPEND_WAIT, "10 or PT10S");
    if (!r.problems.isEmpty()) {
      throw new SettingsException(r.problems);
    }
    return new MiteSettings(new ControllerIdentity(namespace, name, uid), podName, endpoints, tokenFile, caFile,
        identityDir, jenkinsUrl, cascDir, cascSeedDir, secretsDir, loopbackDir, drainTimeout, startupWait,
        healthPort, loopbackPort, retainBytes, claimReplyWait, pollInterval, logAppendWait);
  }

  /** Collects every problem instead of stopping at the first, so one restart fixes them all. */
  private static final class Reader {
    private final Map<String, String> env;
    private final List<String> problems = new ArrayList<>();

    Reader(Map<String, String> env) {
      this.env = env;
    }

    private String value(String variable) {
      String v = env.get(variable);
      return v == null || v.isBlank() ? null : v.trim();
    }

    String matching(String variable, Pattern pattern, String what) {
      String v = value(variable);
      if (v == null) {
        problems.add(variable + " is not set: set it to " + what);
        return "";
      }
      if (!pattern.matcher(v).matches()) {
        problems.add(variable + "='" + v + "' is not valid: set it to " + what);
        return "";
      }
      return v;
    }

    String podName() {
      String v = value(ENV_POD_NAME);
      if (v == null) {
        v = value(ENV_HOSTNAME);
      }
      if (v == null) {
        problems.add(ENV_POD_NAME + " is not set: render it from the downward API (fieldRef metadata.name)");
        return "";
      }
      return v;
    }

    List<GatewayEndpoint> endpoints() {
      String v = value(ENV_GATEWAY_ENDPOINT);
      if (v == null) {
        problems.add(ENV_GATEWAY_ENDPOINT + " is not set: set it to the gateway's host:port, "
            + "several separated by commas (e.g. varroa-gateway.varroa-system.svc:9090)");
        return List.of();
      }
      List<GatewayEndpoint> endpoints = new ArrayList<>();
      for (String part : v.split(",")) {
        if (part.isBlank()) {
          continue;
        }
        try {
          endpoints.add(GatewayEndpoint.parse(part.trim()));
        } catch (IllegalArgumentException e) {
          problems.add(ENV_GATEWAY_ENDPOINT + ": " + e.getMessage());
        }
      }
      if (endpoints.isEmpty() && problems.stream().noneMatch(p -> p.startsWith(ENV_GATEWAY_ENDPOINT))) {
        problems.add(ENV_GATEWAY_ENDPOINT + "='" + v + "' lists no endpoint: set it to host:port[,host:port...]");
      }
      return endpoints;
    }

    Path path(String variable, Path fallback) {
      String v = value(variable);
      if (v == null) {
        return fallback;
      }
      Path p = Path.of(v);
      if (!p.isAbsolute()) {
        problems.add(variable + "='" + v + "' is not an absolute path: set it to an absolute path or unset it "
            + "for " + fallback);
      }
      return p;
    }

    URI jenkinsUrl() {
      String v = value(ENV_JENKINS_URL);
      if (v == null) {
        return DEFAULT_JENKINS_URL;
      }
      try {
        URI uri = URI.create(v.endsWith("/") ? v : v + "/");
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
          throw new IllegalArgumentException("needs http(s)://host[:port]/");
        }
        return uri;
      } catch (IllegalArgumentException e) {
        problems.add(ENV_JENKINS_URL + "='" + v + "' is not an http(s) URL: set it to Jenkins over localhost, "
            + "e.g. " + DEFAULT_JENKINS_URL);
        return DEFAULT_JENKINS_URL;
      }
    }

    Duration seconds(String variable, Duration fallback) {
      String v = value(variable);
      if (v == null) {
        return fallback;
      }
      try {
        long s = Long.parseLong(v);
        if (s < 0) {
          throw new NumberFormatException();
        }
        return Duration.ofSeconds(s);
      } catch (NumberFormatException e) {
        problems.add(variable + "='" + v + "' is not a whole number of seconds >= 0: set it like "
            + fallback.toSeconds() + " or unset it for that default");
        return fallback;
      }
    }

    /** Bytes, plain or with a binary suffix (Ki, Mi, Gi) as Kubernetes quantities write them; at least 1. */
    long bytes(String variable, long fallback) {
      String v = value(variable);
      if (v == null) {
        return fallback;
      }
      Matcher m = BYTES.matcher(v);
      try {
        if (!m.matches()) {
          throw new NumberFormatException();
        }
        long unit = switch (m.group(2) == null ? "" : m.group(2)) {
          case "Ki" -> 1024L;
          case "Mi" -> 1024L * 1024;
          case "Gi" -> 1024L * 1024 * 1024;
          default -> 1L;
        };
        long n = Math.multiplyExact(Long.parseLong(m.group(1)), unit);
        if (n < 1) {
          throw new NumberFormatException();
        }
        return n;
      } catch (NumberFormatException | ArithmeticException e) {
        problems.add(variable + "='" + v + "' is not a size in bytes > 0: set it like 16Mi or " + fallback
            + " (bytes), or unset it for that default");
        return fallback;
      }
    }

    /** A positive duration: seconds (decimals allowed, e.g. 4.5) or ISO-8601 (e.g. PT4.5S). */
    Duration duration(String variable, Duration fallback, String example) {
      String v = value(variable);
      if (v == null) {
        return fallback;
      }
      try {
        Duration d = v.startsWith("P") || v.startsWith("p") ? Duration.parse(v)
            : Duration.ofNanos(new BigDecimal(v).movePointRight(9).setScale(0, RoundingMode.HALF_UP).longValueExact());
        if (d.isNegative() || d.isZero()) {
          throw new NumberFormatException();
        }
        return d;
      } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
        problems.add(variable + "='" + v + "' is not a duration > 0: set it in seconds or ISO-8601, like " + example
            + ", or unset it for " + fallback.toMillis() / 1000.0 + " s");
        return fallback;
      }
    }

    int port(String variable, int fallback) {
      String v = value(variable);
      if (v == null) {
        return fallback;
      }
      try {
        int port = Integer.parseInt(v);
        if (port < 0 || port > 65535) {
          throw new NumberFormatException();
        }
        return port;
      } catch (NumberFormatException e) {
        problems.add(variable + "='" + v + "' is not a TCP port (0-65535, 0 picks a free one): set it like "
            + fallback + " or unset it for that default");
        return fallback;
      }
    }
  }
}
