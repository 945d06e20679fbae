package dev.varroa.operator.hibernation;

/** A timer spec line Jenkins' cron syntax does not allow; the message names the job, the line and what is wrong. */
public final class CronSyntaxException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  CronSyntaxException(String message) {
    super(message);
  }
}
