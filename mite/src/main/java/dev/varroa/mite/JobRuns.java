package dev.varroa.mite;

import dev.varroa.protocol.mite.v1.Parameter;
import dev.varroa.protocol.mite.v1.RunJob;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Queues one build of a job as "Build" / "Build with Parameters" would (ParameterizedJobMixIn#doBuild and
 * #doBuildWithParameters), with the mite's bearer token. A RunJob often arrives while its controller wakes from
 * hibernation, so while Jenkins is not answering yet (nothing listens, 503 while it boots, or the mite still waits for
 * its Jenkins token) it asks again with a short backoff until the command's deadline.
 */
final class JobRuns {

  /** The first wait after Jenkins did not answer; short, a starting Jenkins often serves a moment later. */
  static final Duration RETRY_INITIAL = Duration.ofMillis(500);
  /** The longest wait between two tries: a build is queued within seconds of Jenkins serving. */
  static final Duration RETRY_CAP = Duration.ofSeconds(5);
  static final String BUILD = "build";
  static final String BUILD_WITH_PARAMETERS = "buildWithParameters";

  private static final String NOT_ASKED = "not asked yet";
  private static final Logger LOG = LoggerFactory.getLogger(JobRuns.class);
  // Queue.Item#getUrl ("queue/item/<id>/") behind Jenkins' root URL, which may carry a context path
  private static final Pattern QUEUE_ITEM = Pattern.compile("/queue/item/(\\d+)/?$");

  private final JenkinsClient jenkins;
  private final Clock clock;

  JobRuns(JenkinsClient jenkins, Clock clock) {
    this.jenkins = jenkins;
    this.clock = clock;
  }

  CommandOutcome run(RunJob runJob, Instant deadline) throws InterruptedException {
    Optional<String> problem = problem(runJob);
    if (problem.isPresent()) {
      return CommandOutcome.rejected(problem.get());
    }
    String job = runJob.getJob();
    List<String> names = runJob.getParametersList().stream().map(Parameter::getName).toList();
    // names only: values may be long, and a careless user may have put a secret in one
    LOG.info("event=run_job_started job=\"{}\" parameters={} reason=\"{}\"", job, names,
        runJob.getReason().replace('"', '\''));
    List<Map.Entry<String, String>> fields = runJob.getParametersList().stream()
        .map(parameter -> Map.entry(parameter.getName(), parameter.getValue())).toList();
    String action = fields.isEmpty() ? BUILD : BUILD_WITH_PARAMETERS;
    Backoff backoff = new Backoff(RETRY_INITIAL, RETRY_CAP, () -> ThreadLocalRandom.current().nextDouble());
    String unanswered = NOT_ASKED;
    while (true) {
      Duration left = Duration.between(clock.instant(), deadline);
      if (left.isNegative() || left.isZero()) {
        return CommandOutcome.deadlineExceeded("Jenkins never answered POST /" + jobPath(job) + action
            + " before the command deadline " + deadline + " (last try: " + unanswered + ")");
      }
      JenkinsAnswer answer;
      // read before asking: a token that arrives while the request is out must not make its 403 look final
      boolean tokenHeld = jenkins.holdsToken();
      try {
        answer = fields.isEmpty() ? jenkins.post(jobPath(job) + action, left)
            : jenkins.postForm(jobPath(job) + action, fields, left);
      } catch (HttpConnectTimeoutException e) {
        unanswered = "no connection within " + JenkinsClient.CONNECT_TIMEOUT.toSeconds() + " s at " + jenkins.base();
        pause(backoff, deadline);
        continue;
      } catch (HttpTimeoutException e) {
        return CommandOutcome.deadlineExceeded("Jenkins never answered POST /" + jobPath(job) + action
            + " before the command deadline " + deadline + " (last try: " + (unanswered.equals(NOT_ASKED)
            ? "" : unanswered + "; then ") + "no answer in the time left)");
      } catch (IOException e) {
        if (!JenkinsClient.notListening(e)) {
          return CommandOutcome.failed("POST /" + jobPath(job) + action + " failed: " + e.getClass().getSimpleName()
              + (e.getMessage() == null ? "" : ": " + e.getMessage()), 0);
        }
        unanswered = "nothing listens at " + jenkins.base();
        pause(backoff, deadline);
        continue;
      }
      if (answer.status() == 503) {
        unanswered = "HTTP 503, Jenkins is starting or restarting: " + JenkinsErrorText.of(answer);
      } else if ((answer.status() == 401 || answer.status() == 403) && !tokenHeld) {
        unanswered = "HTTP " + answer.status() + " while the mite holds no Jenkins token yet (it comes from the operator"
            + " once the mite's stream is up)";
      } else if (answer.status() == 400 && action.equals(BUILD)) {
        // build of a parameterized job wants the UI's form; buildWithParameters takes each parameter's default
        LOG.info("event=run_job_parameterized job=\"{}\" message=\"build answered 400: asking buildWithParameters\"",
            job);
        action = BUILD_WITH_PARAMETERS;
        continue;
      } else {
        return outcome(job, action, answer);
      }
      pause(backoff, deadline);
    }
  }

  private CommandOutcome outcome(String job, String action, JenkinsAnswer answer) {
    String what = "POST /" + jobPath(job) + action;
    Optional<String> location = answer.headers().firstValue("Location");
    Matcher item = QUEUE_ITEM.matcher(location.orElse(""));
    if ((answer.ok() || answer.redirect()) && item.find()) {
      long queueId = Long.parseLong(item.group(1));
      LOG.info("event=run_job_queued job=\"{}\" queue_id={} jenkins_status={}", job, queueId, answer.status());
      String how = answer.status() == 303 ? "an item of the same job with the same parameters was already waiting: "
          + "Jenkins keeps that one, queue item " + queueId : "Jenkins queued a build of " + job + " as queue item "
          + queueId;
      return CommandOutcome.queued(how, answer.status(), queueId);
    }
    if (answer.ok() || answer.redirect()) {
      return CommandOutcome.failed("Jenkins answered HTTP " + answer.status() + " to " + what + " without a queue item"
          + location.map(at -> " (Location " + at + ")").orElse("") + ": it did not queue the build (a plugin's "
          + "QueueDecisionHandler may have refused it)", answer.status());
    }
    String said = JenkinsErrorText.of(answer);
    String message = switch (answer.status()) {
      case 404 -> "no job " + job + " on this controller (HTTP 404 to " + what + "): check the job's full name, folders "
          + "separated by '/', and that the job exists";
      case 409 -> "Jenkins will not build " + job + " (HTTP 409, it is disabled or not buildable): " + said;
      case 401 -> "Jenkins refused the mite's token (HTTP 401) for " + what + ": " + said;
      case 403 -> refusedAccess(answer, what, said);
      default -> what + " answered HTTP " + answer.status() + ": " + said;
    };
    LOG.info("event=run_job_failed job=\"{}\" jenkins_status={}", job, answer.status());
    return CommandOutcome.failed(message, answer.status());
  }

  // 403 with a token: a missing Job/Build permission (AccessDeniedException3 names it) or a missing crumb
  private static String refusedAccess(JenkinsAnswer answer, String what, String said) {
    List<String> required = answer.header("X-Required-Permission");
    if (required.isEmpty()) {
      return "Jenkins refused " + what + " (HTTP 403): " + said;
    }
    String who = answer.header("X-You-Are-Authenticated-As").stream().findFirst().orElse("the mite");
    return "Jenkins refused " + what + " (HTTP 403): " + who + " lacks " + String.join(", ", required)
        + " (a build needs hudson.model.Item.Build on the job): " + said;
  }

  private void pause(Backoff backoff, Instant deadline) throws InterruptedException {
    Duration left = Duration.between(clock.instant(), deadline);
    Duration wait = backoff.next();
    Thread.sleep(Math.max(0, Math.min(wait.toMillis(), left.toMillis())));
  }

  /** Why the command cannot be run as sent, naming the field; empty when it can. */
  static Optional<String> problem(RunJob runJob) {
    String job = runJob.getJob();
    if (job.isEmpty()) {
      return Optional.of("run_job.job is empty: send the job's full name, folders separated by '/', e.g. team-a/build");
    }
    for (String segment : job.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return Optional.of("run_job.job '" + job + "' has " + (segment.isEmpty() ? "an empty segment" : "a '"
            + segment + "' segment") + ": send the job's full name, folders separated by single '/', e.g. team-a/build");
      }
    }
    for (int i = 0; i < runJob.getParametersCount(); i++) {
      if (runJob.getParameters(i).getName().isEmpty()) {
        return Optional.of("run_job.parameters[" + i + "].name is empty: name each parameter as the job defines it");
      }
    }
    return Optional.empty();
  }

  /** {@code job/<a>/job/<b>/}, each segment URL-encoded as a path segment (a space is %20, never '+'). */
  static String jobPath(String job) {
    StringBuilder path = new StringBuilder();
    for (String segment : job.split("/")) {
      path.append("job/").append(URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20")).append('/');
    }
    return path.toString();
  }
}
