package dev.varroa.benchmarks.latency;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What one commit went through, each mark taken where it can be observed from outside the operator.
 *
 * @param digest the bundle digest the commit rendered to
 * @param committed when the branch ref moved in the served repository
 * @param checkStarted ComposedBundle {@code status.artifact.lastUpdateTime}: the reconcile that found the commit started
 * @param bundleStored the bundle ConfigMap with the new digest reached a watch
 * @param controllerRendered the Controller's JCasC ConfigMap with the new digest reached a watch
 * @param commandSent the desired-state command crossed NATS to the gateway
 * @param filesWritten the mite's JCasC file that holds the change was written (its mtime)
 * @param jenkinsApplied the Jenkins fixture finished the configuration-as-code run that read it
 * @param statusShown {@code status.lastApplyResult.bundleDigest} of the Controller named the digest (a watch)
 */
public record CommitTimeline(String digest, Instant committed, Instant checkStarted, Instant bundleStored,
    Instant controllerRendered, Instant commandSent, Instant filesWritten, Instant jenkinsApplied,
    Instant statusShown) {

  /** The stretch between two consecutive marks. */
  public enum Segment {
    TRIGGER_TO_CHECK("trigger_to_check", "commit -> the operator starts checking the sources"),
    FETCH_RENDER_STORE("fetch_render_store", "ls-remote, fetch, render, bundle ConfigMap written"),
    CONTROLLER_RECONCILE("controller_reconcile", "bundle ConfigMap -> Controller's JCasC ConfigMap"),
    OPERATOR_TO_BUS("operator_to_bus", "JCasC ConfigMap -> desired state on NATS"),
    BUS_TO_MITE_FILES("bus_to_mite_files", "gateway, gRPC stream, mite writes the files"),
    JENKINS_RELOAD("jenkins_reload", "fsync, reload request, configuration-as-code run"),
    RESULT_TO_STATUS("result_to_status", "result back over the channel -> Controller status");

    private final String id;
    private final String description;

    Segment(String id, String description) {
      this.id = id;
      this.description = description;
    }

    public String id() {
      return id;
    }

    public String description() {
      return description;
    }
  }

  public Duration toJenkins() {
    return Duration.between(committed, jenkinsApplied);
  }

  public Duration toStatus() {
    return Duration.between(committed, statusShown);
  }

  /** Can be slightly negative when two marks come from different observers (a watch lags the write it reports). */
  public Duration segment(Segment segment) {
    List<Instant> marks = List.of(committed, checkStarted, bundleStored, controllerRendered, commandSent,
        filesWritten, jenkinsApplied, statusShown);
    return Duration.between(marks.get(segment.ordinal()), marks.get(segment.ordinal() + 1));
  }
}
