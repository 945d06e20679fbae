package dev.varroa.mite;

import java.time.Clock;
import java.time.temporal.ChronoUnit;

/**
 * ObservedState.jenkins_up_since: the instant, to the second, the mite saw Jenkins serve after it did not (not
 * listening, or 503 while it restarts or boots), or its first serving answer since the mite started; 0 until then.
 * A new X-Jenkins-Session also counts as coming back: a restart between two polls changes Jenkins.SESSION_HASH even
 * when no poll saw Jenkins down. While Jenkins keeps serving the value stays put, so the observed state does not
 * change on every poll.
 */
final class JenkinsUptime {

  private final Clock clock;
  private boolean serving;
  private String session = "";
  private long upSinceEpochMillis;

  JenkinsUptime(Clock clock) {
    this.clock = clock;
  }

  /** Jenkins served a request; {@code jenkinsSession} is its X-Jenkins-Session, empty when it sent none. */
  synchronized long serving(String jenkinsSession) {
    boolean restartedBetweenPolls = !jenkinsSession.isEmpty() && !session.isEmpty() && !jenkinsSession.equals(session);
    if (!serving || restartedBetweenPolls) {
      upSinceEpochMillis = clock.instant().truncatedTo(ChronoUnit.SECONDS).toEpochMilli();
    }
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
