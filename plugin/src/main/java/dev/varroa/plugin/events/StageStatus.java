package dev.varroa.plugin.events;

/**
 * A stage's status as StageEnded carries it, from what the Pipeline graph says about the stage's end: an error, a
 * warning's result (e.g. {@code unstable()}), or Declarative's {@code STAGE_STATUS} tag
 * ({@code SKIPPED_FOR_CONDITIONAL}, {@code SKIPPED_FOR_FAILURE}, ...).
 */
public final class StageStatus {

  private StageStatus() {
  }

  /**
   * @param errorResult the result of the end node's error ({@code FAILURE}, or {@code ABORTED} for an interruption);
   *     null without error
   * @param warningResult the result of a warning on the stage; null without one
   * @param stageStatusTag Declarative's STAGE_STATUS tag; null without one
   */
  public static String of(String errorResult, String warningResult, String stageStatusTag) {
    if (stageStatusTag != null && stageStatusTag.startsWith("SKIPPED")) {
      return "SKIPPED";
    }
    if (errorResult != null) {
      return errorResult.isEmpty() ? "FAILURE" : errorResult;
    }
    if (warningResult != null && !warningResult.isEmpty()) {
      return warningResult;
    }
    return "SUCCESS";
  }
}
