package dev.varroa.mite;

import java.io.IOException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

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

  /**
   * POST safeRestart (Jenkins#doSafeRestart, Overall/Manage): Jenkins quiets down, a thread of its own waits until
   * no build runs, answers 503 while it restarts, and restarts in place; the POST answers at once with a redirect.
   * The restart itself shows as jenkins_up_since moving. A cancelQuietDown before the builds end abandons it.
   */
  CommandOutcome safeRestart(Instant deadline) throws InterruptedException, NotListening {
    Exchange exchange = exchange(JenkinsClient.SAFE_RESTART, deadline);
    if (exchange.failure() != null) {
      return exchange.failure();
    }
    JenkinsAnswer answer = exchange.answer();
    if (answer.redirect()) {
      return CommandOutcome.succeeded("Jenkins accepted the safe restart: it quiets down, waits for running builds "
          + "to finish, then restarts", answer.status());
    }
    String said = JenkinsErrorText.of(answer);
    String message = switch (answer.status()) {
      case 401 -> "Jenkins refused the mite's token (HTTP 401) for POST /safeRestart: " + said;
      case 403 -> refusedAccess(answer, said);
      // Stapler turns the RestartNotSupportedException of Lifecycle#verifyRestartable into its error page
      case 500 -> "Jenkins cannot restart itself as it runs now (HTTP 500 to POST /safeRestart; Jenkins#doSafeRestart "
          + "fails so when its lifecycle refuses a restart, see hudson.lifecycle.Lifecycle and the Jenkins log under "
          + "the logging id): " + said;
      case 503 -> "Jenkins is not serving (HTTP 503: booting, restarting or failed to boot), so it cannot take a safe "
          + "restart now: " + said;
      default -> "POST /safeRestart answered HTTP " + answer.status() + ": " + said;
    };
    return CommandOutcome.failed(message, answer.status());
  }

  // 403: a missing permission (AccessDeniedException3 names it in headers) or a missing crumb (no verified bearer)
  private String refusedAccess(JenkinsAnswer answer, String said) {
    List<String> required = answer.header("X-Required-Permission");
    String noToken = jenkins.holdsToken() ? "" : " (the mite holds no Jenkins token yet: it comes with a desired state)";
    if (required.isEmpty()) {
      return "Jenkins refused POST /safeRestart (HTTP 403)" + noToken + ": " + said;
    }
    String who = answer.header("X-You-Are-Authenticated-As").stream().findFirst().orElse("the mite");
    return "Jenkins refused POST /safeRestart (HTTP 403): " + who + " lacks " + String.join(", ", required)
        + " (a safe restart needs hudson.model.Hudson.Manage or Administer)" + noToken + ": " + said;
  }

  private CommandOutcome post(String path, Instant deadline, String success)
      throws InterruptedException, NotListening {
    Exchange exchange = exchange(path, deadline);
    if (exchange.failure() != null) {
      return exchange.failure();
    }
    JenkinsAnswer answer = exchange.answer();
    if (answer.redirect() || (answer.ok() && !JenkinsErrorText.isCascErrorPage(answer))) {
      return CommandOutcome.succeeded(success, answer.status());
    }
    return CommandOutcome.failed(JenkinsErrorText.of(answer), answer.status());
  }

  /** Jenkins' answer to a POST, or the outcome when there was none. */
  private record Exchange(JenkinsAnswer answer, CommandOutcome failure) {
  }

  private Exchange exchange(String path, Instant deadline) throws InterruptedException, NotListening {
    Duration left = Duration.between(clock.instant(), deadline);
    try {
      return new Exchange(jenkins.post(path, left), null);
    } catch (HttpConnectTimeoutException e) {
      return new Exchange(null, CommandOutcome.failed("Jenkins did not accept a connection within "
          + JenkinsClient.CONNECT_TIMEOUT.toSeconds() + " s at " + jenkins.base(), 0));
    } catch (HttpTimeoutException e) {
      return new Exchange(null, CommandOutcome.deadlineExceeded("Jenkins did not answer POST /" + path
          + " before the command deadline " + deadline));
    } catch (IOException e) {
      if (JenkinsClient.notListening(e)) {
        throw new NotListening();
      }
      return new Exchange(null, CommandOutcome.failed("POST /" + path + " failed: " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage()), 0));
    }
  }

  /** Nothing listens at Jenkins' address: it has not started yet, or it is gone. */
  static final class NotListening extends Exception {
    NotListening() {
      super("Jenkins is not listening", null, false, false);
    }
  }
}
