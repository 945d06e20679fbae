package dev.varroa.mite;

import java.io.IOException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** The POSTs a command makes to Jenkins, each turned into a command outcome within the command's deadline. */
final class JenkinsActions {

  private final JenkinsClient jenkins;
  private final Clock clock;

  JenkinsActions(JenkinsClient jenkins, Clock clock) {
    this.jenkins = jenkins;
    this.clock = clock;
  }

  /**
   * POST configuration-as-code/reload. Success is the redirect doReload sends; a ConfiguratorException
   * answers 200 with the "Error loading configuration" page, which is a failure with Jenkins' message.
   */
  CommandOutcome reloadConfiguration(Instant deadline) throws InterruptedException, NotListening {
    return post(JenkinsClient.CASC_RELOAD, deadline, "configuration reloaded");
  }

  CommandOutcome quietDown(Instant deadline) throws InterruptedException, NotListening {
    return post(JenkinsClient.QUIET_DOWN, deadline, "Jenkins is quieting down");
  }

  CommandOutcome cancelQuietDown(Instant deadline) throws InterruptedException, NotListening {
    return post(JenkinsClient.CANCEL_QUIET_DOWN, deadline, "quiet-down cancelled");
  }

  private CommandOutcome post(String path, Instant deadline, String success)
      throws InterruptedException, NotListening {
    Duration left = Duration.between(clock.instant(), deadline);
    JenkinsAnswer answer;
    try {
      answer = jenkins.post(path, left);
    } catch (HttpConnectTimeoutException e) {
      return CommandOutcome.failed("Jenkins did not accept a connection within "
          + JenkinsClient.CONNECT_TIMEOUT.toSeconds() + " s at " + jenkins.base(), 0);
    } catch (HttpTimeoutException e) {
      return CommandOutcome.deadlineExceeded("Jenkins did not answer POST /" + path + " before the command deadline "
          + deadline);
    } catch (IOException e) {
      if (JenkinsClient.notListening(e)) {
        throw new NotListening();
      }
      return CommandOutcome.failed("POST /" + path + " failed: " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage()), 0);
    }
    if (answer.redirect() || (answer.ok() && !JenkinsErrorText.isCascErrorPage(answer))) {
      return CommandOutcome.succeeded(success, answer.status());
    }
    return CommandOutcome.failed(JenkinsErrorText.of(answer), answer.status());
  }

  /** Nothing listens at Jenkins' address: it has not started yet, or it is gone. */
  static final class NotListening extends Exception {
    NotListening() {
      super("Jenkins is not listening", null, false, false);
    }
  }
}
