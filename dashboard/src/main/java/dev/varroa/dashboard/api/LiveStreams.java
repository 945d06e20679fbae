package dev.varroa.dashboard.api;

import dev.varroa.dashboard.access.Grants;
import dev.varroa.dashboard.access.Permission;
import dev.varroa.dashboard.activity.ActivityDelivery;
import dev.varroa.dashboard.activity.BusFanout;
import dev.varroa.dashboard.activity.FanoutSubscription;
import dev.varroa.dashboard.identity.Authenticated;
import dev.varroa.dashboard.identity.Caller;
import dev.varroa.dashboard.logs.ConsoleLogs;
import dev.varroa.dashboard.reads.DashboardReads;
import dev.varroa.dashboard.reads.Parameters;
import dev.varroa.dashboard.reads.ReadRefused;
import dev.varroa.dashboard.reads.RecordReads;
import dev.varroa.dashboard.records.InvalidParameterException;
import dev.varroa.dashboard.records.RecordLookup;
import dev.varroa.protocol.bus.v1.AccessPolicy;
import dev.varroa.recorder.logs.LogStoreException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live activity (GET /activity/stream) and console logs by byte range and live (GET /runs/{id}/log, /log/stream), as
 * Server-Sent Events: an event's id is where a client resumes with Last-Event-ID, the activity stream's sequence or
 * the log's byte offset. An open stream is checked again every {@link #RECHECK}: it ends, with an {@code end} event
 * naming why, once the caller's session or token ends or their VarroaRoleBindings no longer allow it.
 */
public class LiveStreams implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LiveStreams.class);

  /** A comment on every open stream this often finds clients that went away and keeps proxies from timing out. */
  public static final Duration KEEPALIVE = Duration.ofSeconds(15);
  /** How stale the Controller labels behind label-scoped rules may be for a live stream. */
  static final Duration LABELS_MAX_AGE = Duration.ofSeconds(5);
  /** How soon an open stream notices a logout, an expired token or a removed binding. */
  public static final Duration RECHECK = Duration.ofSeconds(1);

  /** Why an open stream must end now, or empty while it may go on. */
  @FunctionalInterface
  private interface StillAllowed {
    Optional<String> endReason();
  }

  private final DashboardReads reads;
  private final Optional<BusFanout> fanout;
  private final Optional<ConsoleLogs> logs;
  private final Set<ServerSentEvents> open = ConcurrentHashMap.newKeySet();
  private final Map<ServerSentEvents, StillAllowed> checks = new ConcurrentHashMap<>();
  private final ScheduledExecutorService keepalive = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "varroa-sse-keepalive");
    thread.setDaemon(true);
    return thread;
  });
  private final ScheduledExecutorService recheck = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "varroa-sse-recheck");
    thread.setDaemon(true);
    return thread;
  });
  private volatile Labels labels = new Labels(Map.of(), 0);

  private record Labels(Map<DashboardReads.ControllerKey, Map<String, String>> byController, long readAtNanos) {}

  public LiveStreams(DashboardReads reads, Optional<BusFanout> fanout, Optional<ConsoleLogs> logs) {
    this.reads = reads;
    this.fanout = fanout;
    this.logs = logs;
    keepalive.scheduleWithFixedDelay(() -> open.forEach(s -> s.comment("keepalive")), KEEPALIVE.toMillis(),
        KEEPALIVE.toMillis(), TimeUnit.MILLISECONDS);
    recheck.scheduleWithFixedDelay(this::recheckAll, RECHECK.toMillis(), RECHECK.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Ends every stream whose caller lost the credential or the grant it was opened with. */
  private void recheckAll() {
    checks.forEach((stream, check) -> {
      Optional<String> reason;
      try {
        reason = check.endReason();
      } catch (RuntimeException e) {
        // a check that cannot decide ends the stream: it fails closed, the client reconnects and is asked again
        LOG.warn("event=stream_recheck_failed error=\"{}\"", e.toString());
        reason = Optional.of("the BFF could not check the stream's access again; reconnect");
      }
      reason.ifPresent(why -> {
        LOG.info("event=stream_ended reason=\"{}\"", why);
        stream.event("end", null, json(Map.of("reason", why)));
        stream.close();
      });
    });
  }


  public void activity(Authenticated authenticated, Parameters query, HttpServletRequest request,
      HttpServletResponse response) throws ReadRefused, IOException {
    Caller caller = authenticated.caller();
    Optional<String> cluster = query.cluster("cluster");
    Optional<String> namespace = query.namespace("namespace");
    Optional<String> controller = query.controller("controller");
    OptionalLong lastEventId = lastEventId(request, query, "activity stream sequence");
    Permission watch = Permission.of(Permission.WATCH, Permission.ACTIVITY);
    reads.requireAnywhere(caller, watch);
    if (fanout.isEmpty()) {
      throw ReadRefused.unavailable("live activity is not available: the BFF has no activity subscription");
    }
    ServerSentEvents stream = ServerSentEvents.open(request, response);
    GrantsOfCaller grants = new GrantsOfCaller(caller);
    track(stream, () -> authenticated.ended().reason().or(() -> grants.now().anywhere(watch) ? Optional.empty()
        : Optional.of(caller + " may no longer watch activity: no VarroaRoleBinding allows it now")));
    FanoutSubscription subscription = fanout.get().subscribe(lastEventId, scope ->
        cluster.map(scope.cluster()::equals).orElse(true)
            && namespace.map(scope.namespace()::equals).orElse(true)
            && controller.map(scope.controller()::equals).orElse(true)
            && DashboardReads.allowed(grants.now(), watch, labels()).test(
                new DashboardReads.ControllerKey(scope.cluster(), scope.namespace(), scope.controller())),
        new BusFanout.Listener() {
          @Override
          public void event(ActivityDelivery delivery) {
            String id = delivery.hasSequence() ? String.valueOf(delivery.sequence()) : null;
            stream.event("activity", id, json(delivery.event()));
          }

          @Override
          public void ended(String reason) {
            stream.event("end", null, json(Map.of("reason", reason)));
            stream.close();
          }
        });
    stream.onClose(subscription::close);
    stream.subscribed();
  }

  public void logRange(Caller caller, String runId, Parameters query, HttpServletResponse response)
      throws ReadRefused, IOException {
    long from = query.offset("from");
    int length = query.integer("length", ConsoleLogs.DEFAULT_LENGTH, 1, ConsoleLogs.MAX_LENGTH);
    reads.authorizedRun(caller, runId, Permission.of(Permission.GET, Permission.LOGS));
    ConsoleLogs store = store(runId);
    RecordLookup<ConsoleLogs.LogRange> found;
    try {
      found = store.read(runId, from, length, scope -> true);
    } catch (InvalidParameterException e) {
      throw ReadRefused.badParameter(e.parameter(), e.getMessage());
    } catch (SQLException | LogStoreException e) {
      throw ReadRefused.unavailable("the console log of run " + runId + " could not be read: " + e.getMessage());
    }
    if (!(found instanceof RecordLookup.Found<ConsoleLogs.LogRange> range)) {
      throw ReadRefused.notFound("run " + runId + " is not recorded");
    }
    response.setStatus(200);
    response.setContentType("text/plain; charset=utf-8");
    response.setHeader("Cache-Control", "no-store");
    response.setHeader("Varroa-Log-Size", String.valueOf(range.value().size()));
    response.setHeader("Varroa-Log-Next", String.valueOf(range.value().next()));
    response.setHeader("Varroa-Log-Complete", String.valueOf(range.value().complete()));
    response.getOutputStream().write(range.value().bytes());
  }

  public void logStream(Authenticated authenticated, String runId, Parameters query, HttpServletRequest request,
      HttpServletResponse response) throws ReadRefused, IOException {
    Caller caller = authenticated.caller();
    OptionalLong resume = lastEventId(request, query, "byte offset");
    long from = resume.isPresent() ? resume.getAsLong() : query.offset("from");
    Permission watch = Permission.of(Permission.WATCH, Permission.LOGS);
    RecordReads.RunView run = reads.authorizedRun(caller, runId, watch);
    DashboardReads.ControllerKey controller = run.controller();
    // a tenant watches a cell's run through its Team's folder: the same rule decides while the stream lasts
    DashboardReads.RunKey runKey = new DashboardReads.RunKey(controller, String.valueOf(run.body().getOrDefault("job",
        "")));
    ConsoleLogs store = store(runId);
    ServerSentEvents stream = ServerSentEvents.open(request, response);
    GrantsOfCaller grants = new GrantsOfCaller(caller);
    track(stream, () -> authenticated.ended().reason().or(() ->
        DashboardReads.allowedRuns(grants.now(), watch, labels()).test(runKey) ? Optional.empty()
            : Optional.of(caller + " may no longer watch the logs of controller " + controller.namespace() + "/"
                + controller.name() + " in cluster " + controller.cluster() + ": no VarroaRoleBinding allows it now")));
    RecordLookup<dev.varroa.recorder.logs.LogTail> tail;
    try {
      tail = store.follow(runId, from, scope -> true, new ConsoleLogs.Follower() {
        @Override
        public void chunk(long offset, String text, long next) {
          stream.event("chunk", String.valueOf(next), json(Map.of("offset", offset, "text", text)));
        }

        @Override
        public void end(long size) {
          stream.event("end", String.valueOf(size), json(Map.of("size", size)));
          stream.close();
        }
      });
    } catch (SQLException e) {
      stream.event("end", null, json(Map.of("reason", "the record store could not be read: " + e.getMessage())));
      stream.close();
      return;
    }
    if (tail instanceof RecordLookup.Found<dev.varroa.recorder.logs.LogTail> found) {
      stream.onClose(found.value()::close);
      stream.subscribed();
    } else {
      stream.event("end", null, json(Map.of("reason", "run " + runId + " is not recorded")));
      stream.close();
    }
  }

  private ConsoleLogs store(String runId) throws ReadRefused {
    return logs.orElseThrow(() -> ReadRefused.notFound("run " + runId + " has no console log here: the BFF has no "
        + "console log store (VARROA_BLOB_MODE, docs/build-logs.md)"));
  }

  private void track(ServerSentEvents stream, StillAllowed check) {
    open.add(stream);
    checks.put(stream, check);
    stream.onClose(() -> {
      open.remove(stream);
      checks.remove(stream);
    });
  }

  /** The Controller labels a label-scoped rule decides on, re-read when older than {@link #LABELS_MAX_AGE}. */
  private Map<DashboardReads.ControllerKey, Map<String, String>> labels() {
    Labels current = labels;
    if (System.nanoTime() - current.readAtNanos() > LABELS_MAX_AGE.toNanos()) {
      try {
        current = new Labels(reads.labels(reads.controllerList()), System.nanoTime());
        labels = current;
      } catch (ReadRefused e) {
        // keep the last labels: a cluster that does not answer keeps its Controllers' last known labels
      }
    }
    return current.byController();
  }

  /** The caller's grants, rebuilt when the access policy changes so an open stream follows new bindings. */
  private final class GrantsOfCaller {
    private final Caller caller;
    private AccessPolicy policy;
    private Grants grants;

    GrantsOfCaller(Caller caller) {
      this.caller = caller;
    }

    synchronized Grants now() {
      AccessPolicy current = reads.policy();
      if (current != policy) {
        policy = current;
        grants = Grants.of(caller, current);
      }
      return grants;
    }
  }

  private static OptionalLong lastEventId(HttpServletRequest request, Parameters query, String what)
      throws ReadRefused {
    String header = request.getHeader("Last-Event-ID");
    String value = header != null ? header.trim() : query.text("lastEventId").orElse(null);
    if (value == null || value.isEmpty()) {
      return OptionalLong.empty();
    }
    try {
      long id = Long.parseLong(value);
      if (id < 0) {
        throw new NumberFormatException();
      }
      return OptionalLong.of(id);
    } catch (NumberFormatException e) {
      throw ReadRefused.badParameter("Last-Event-ID", "Last-Event-ID must be the id of an event this stream sent (a "
          + what + "), not '" + value + "'");
    }
  }

  private static String json(Object value) {
    try {
      return JsonResponses.JSON.writeValueAsString(value);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    keepalive.shutdownNow();
    recheck.shutdownNow();
    open.forEach(ServerSentEvents::close);
  }

  /** No live activity and no console logs: what a BFF without a bus subscription or stores serves. */
  public static LiveStreams without(DashboardReads reads) {
    return new LiveStreams(reads, Optional.empty(), Optional.empty());
  }
}
