package dev.varroa.mite;

import java.time.Clock;
import java.time.temporal.ChronoUnit;

/**
 * ObservedState.jenkins_up_since: the instant, to the second, the mite saw Jenkins serve after it did not (not
 * listening, or 503 while it restarts or boots), or its first serving answer since the mite started; 0 until then.
 * X-Jenkins-Session (Jenkins.SESSION_HASH, new with every Jenkins start) decides when both answers carry it: a new
 * one is a restart even when no poll saw Jenkins down, and the same one after a spell without answers (a poll that
 * timed out on a busy Jenkins) is the same Jenkins, not a restart. While Jenkins keeps serving the value stays put,
 * so the observed state does not change on every poll.
 */
final class JenkinsUptime {

  private final Clock clock;
  private boolean everServed;
  private boolean serving;
  private String session = "";
  private long upSinceEpochMillis;

  JenkinsUptime(Clock clock) {
    this.clock = clock;
  }

  /** Jenkins served a request; {@code jenkinsSession} is its X-Jenkins-Session, empty when it sent none. */
  synchronized long serving(String jenkinsSession) {
    boolean sessionsKnown = !jenkinsSession.isEmpty() && !session.isEmpty();
    boolean cameBack = sessionsKnown ? !jenkinsSession.equals(session) : !serving;
    if (!everServed || cameBack) {
      upSinceEpochMillis = clock.instant().truncatedTo(ChronoUnit.SECONDS).toEpochMilli();
    }
    everServed = true;
    serving = true;
    if (!jenkinsSession.isEmpty()) {
      session = jenkinsSession;
    }
    return upSinceEpochMillis;
  }

  /** Jenkins did not serve: nothing listened, or it answered 503. The last up-since stays until it serves again. */
  synchronized long notServing() {
    serving = false;
    return upSinceEpochMillis;
  }
}
