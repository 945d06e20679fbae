package dev.varroa.plugin;

import dev.varroa.plugin.activity.UserRequestClock;
import dev.varroa.plugin.claims.ClaimGate;
import dev.varroa.plugin.claims.ExecutorTaskScheduler;
import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.plugin.events.BuildEventEmitter;
import dev.varroa.plugin.events.EventSender;
import dev.varroa.plugin.events.EventSpool;
import dev.varroa.plugin.logs.LogCopies;
import dev.varroa.plugin.logs.LogCopy;
import dev.varroa.plugin.logs.LogShipper;
import dev.varroa.plugin.calls.Pause;
import dev.varroa.plugin.calls.PipelineCallLoopback;
import dev.varroa.plugin.calls.PipelineCaller;
import dev.varroa.plugin.loopback.LoopbackClient;
import dev.varroa.plugin.loopback.LoopbackToken;
import dev.varroa.protocol.builds.v1.PipelineCallAnswer;
import dev.varroa.protocol.builds.v1.PipelineCallRequest;
import dev.varroa.plugin.schedules.ScheduleInventory;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.logging.Logger;

/**
 * Everything the Jenkins glue hands over to, started once when Jenkins starts and closed when it stops: the spool
 * and its sender, the emitter, the console log copies and their shipper, the loopback client, the claim gate, the
 * schedule inventory and the user request clock.
 */
public final class PluginCore implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(PluginCore.class.getName());

  private final PluginSettings settings;
  private final EventSpool spool;
  private final LoopbackClient client;
  private final EventSender sender;
  private final BuildEventEmitter emitter;
  private final ExecutorTaskScheduler claimScheduler;
  private final ClaimGate gate;
  private final ScheduleInventory schedules;
  private final UserRequestClock activity;
  private final LogCopies logs;
  private final LogShipper logShipper;
  private final PipelineCaller pipelineCalls;

  private PluginCore(PluginSettings settings, Path jenkinsHome, Clock clock) throws IOException {
    this.settings = settings;
    this.spool = EventSpool.open(EventSpool.directoryOf(jenkinsHome), settings.spoolBytes(), clock);
    this.client = new LoopbackClient(settings, new LoopbackToken(settings.tokenFile(), clock));
    this.sender = new EventSender(spool, client::sendEvents, EventSender.BACKOFF_MINIMUM, EventSender.BACKOFF_MAXIMUM);
    this.emitter = new BuildEventEmitter(spool, clock);
    this.claimScheduler = new ExecutorTaskScheduler();
    this.gate = new ClaimGate(settings.claimGate(), client::claim, claimScheduler);
    this.schedules = new ScheduleInventory(clock);
    this.activity = new UserRequestClock(clock);
    this.logs = LogCopies.open(LogCopies.directoryOf(jenkinsHome), settings.logSpoolBytes());
    this.logShipper = new LogShipper(logs, client::sendLogs, clock);
    this.pipelineCalls = new PipelineCaller(new PipelineCallLoopback() {
      @Override
      public PipelineCallAnswer call(PipelineCallRequest call) {
        return client.callPipeline(call);
      }

      @Override
      public PipelineCallAnswer status(String callId) {
        return client.pipelineCallStatus(callId);
      }
    }, clock, Pause.SLEEP);
  }

  /**
   * Opens the spool under {@code $JENKINS_HOME/varroa/spool} and the log copies under {@code $JENKINS_HOME/varroa/logs}
   * and starts sending what they hold.
   */
  public static PluginCore start(PluginSettings settings, Path jenkinsHome, Clock clock) throws IOException {
    PluginCore core = new PluginCore(settings, jenkinsHome, clock);
    core.sender.start();
    core.logShipper.start();
    LOG.info(() -> "event=varroa_plugin_started loopback=" + settings.loopbackUrl() + " spool=" + core.spool.directory()
        + " spool_cap_bytes=" + settings.spoolBytes() + " pending=" + core.spool.status().pendingEvents()
        + " claim_gate=" + settings.claimGate() + " logs=" + core.logs.directory() + " log_cap_bytes="
        + settings.logSpoolBytes() + " log_copies=" + core.logs.status().runs());
    return core;
  }

  public PluginSettings settings() {
    return settings;
  }

  public BuildEventEmitter events() {
    return emitter;
  }

  public EventSpool spool() {
    return spool;
  }

  /** The varroaRunPipeline step's core. */
  public PipelineCaller pipelineCalls() {
    return pipelineCalls;
  }

  public ClaimGate claimGate() {
    return gate;
  }

  public ScheduleInventory schedules() {
    return schedules;
  }

  /** When Jenkins was last used (the activity filter feeds it; {@code GET /varroa/activity} reads it). */
  public UserRequestClock activity() {
    return activity;
  }

  /**
   * The run's console log copy, made on its first call and the same one after a restart; the glue wraps the run's
   * console stream with {@code log(runId, job).sink(stream)}.
   */
  public LogCopy log(String runId, String job) throws IOException {
    return logs.copy(runId, job);
  }

  /** The run's log is closed (Jenkins finalized it): its last chunk goes, then the copy is deleted. */
  public void runFinished(String runId) {
    logs.finished(runId);
  }

  public LogCopies logs() {
    return logs;
  }

  @Override
  public void close() throws IOException, InterruptedException {
    claimScheduler.close();
    sender.close();
    logShipper.close();
    client.close();
    spool.close();
    logs.close();
  }
}
