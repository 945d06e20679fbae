package dev.varroa.plugin.activity;

import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Remembers when Jenkins was last used: the newest request by anyone but the mite, kubelet probes and agents
 * connecting, truncated to the minute so the mite's observed state does not change on every poll. The inactivity
 * policy (hibernation) reads it through {@code GET /varroa/activity} as {@code {"lastUserRequestEpochMillis": N}};
 * 0 means no use since Jenkins started. Thread-safe: every request thread calls {@link #seen(InboundRequest)}.
 */
public final class UserRequestClock {

  /** The kubelet's probes send {@code User-Agent: kube-probe/<major>.<minor>}. */
  public static final String KUBE_PROBE_USER_AGENT_PREFIX = "kube-probe/";
  /** The clock's resolution: use within the same minute does not move it. */
  public static final long RESOLUTION_MILLIS = 60_000;

  private static final String BEARER_SCHEME = "bearer ";
  // jenkins.agents.WebSocketAgents, hudson.TcpSlaveAgentListener, hudson.model.Slave.JnlpJar (/jnlpJars/agent.jar)
  private static final List<String> AGENT_PATH_PREFIXES = List.of("/wsagents", "/tcpSlaveAgentListener", "/jnlpJars/");
  // SlaveComputer's JNLP file, current and legacy name
  private static final List<String> AGENT_PATH_SUFFIXES = List.of("/jenkins-agent.jnlp", "/slave-agent.jnlp");

  private final Clock clock;
  private final AtomicLong newest = new AtomicLong();

  public UserRequestClock(Clock clock) {
    this.clock = clock;
  }

  /** Classifies the request and, when it is use, moves the clock to its minute; returns the classification. */
  public RequestSource seen(InboundRequest request) {
    RequestSource source = sourceOf(request);
    if (source.isUse()) {
      long millis = clock.millis();
      long minute = millis - Math.floorMod(millis, RESOLUTION_MILLIS);
      // never backwards, should the wall clock step back
      newest.accumulateAndGet(minute, Math::max);
    }
    return source;
  }

  /** The newest use, truncated to the minute, in epoch milliseconds; 0 when there was none since start. */
  public long lastUserRequestEpochMillis() {
    return newest.get();
  }

  /** The body of {@code GET /varroa/activity}. */
  public String toJson() {
    return "{\"lastUserRequestEpochMillis\":" + lastUserRequestEpochMillis() + "}";
  }

  /** Who sent the request: the mite (loopback with a bearer token), a kubelet probe, an agent connecting, or a user. */
  public static RequestSource sourceOf(InboundRequest request) {
    String userAgent = request.userAgent();
    if (userAgent != null && userAgent.startsWith(KUBE_PROBE_USER_AGENT_PREFIX)) {
      return RequestSource.KUBELET_PROBE;
    }
    if (isLoopback(request.remoteAddress()) && hasBearer(request.authorization())) {
      return RequestSource.MITE;
    }
    String path = request.path() == null ? "" : request.path();
    if (AGENT_PATH_PREFIXES.stream().anyMatch(path::startsWith) || AGENT_PATH_SUFFIXES.stream().anyMatch(path::endsWith)) {
      return RequestSource.AGENT_CONNECTION;
    }
    return RequestSource.USER;
  }

  // The mite shares the pod's network namespace: it always calls Jenkins on 127.0.0.1 (or ::1).
  static boolean isLoopback(String address) {
    if (address == null) {
      return false;
    }
    String a = address.strip().toLowerCase(Locale.ROOT);
    if (a.startsWith("[") && a.endsWith("]")) {
      a = a.substring(1, a.length() - 1);
    }
    return a.startsWith("127.") || a.startsWith("::ffff:127.") || a.equals("::1") || a.equals("0:0:0:0:0:0:0:1");
  }

  private static boolean hasBearer(String authorization) {
    return authorization != null
        && authorization.strip().regionMatches(true, 0, BEARER_SCHEME, 0, BEARER_SCHEME.length());
  }
}
