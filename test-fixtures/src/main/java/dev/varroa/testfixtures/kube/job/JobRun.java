package dev.varroa.testfixtures.kube.job;

import java.time.Instant;

/**
 * How one pod of a Job ended on this machine.
 *
 * @param podName the Pod object the stand-in created for the attempt
 * @param exitCode the command's exit code; 137 when killed, 128 when it could not start
 * @param reason the container's terminated reason: Completed, Error, DeadlineExceeded or StartError
 * @param terminationMessage the termination message file's content (or, with FallbackToLogsOnError, the log's tail)
 * @param output the command's standard output and error, interleaved
 */
public record JobRun(String podName, int exitCode, String reason, String terminationMessage, String output,
    Instant startedAt, Instant finishedAt) {
  public static final int KILLED_EXIT_CODE = 137;
  public static final int START_FAILED_EXIT_CODE = 128;

  public boolean succeeded() {
    return exitCode == 0;
  }
}
