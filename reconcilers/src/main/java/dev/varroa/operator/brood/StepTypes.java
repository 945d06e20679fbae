package dev.varroa.operator.brood;

import java.util.List;

/** The fixed step vocabulary of spec.steps[].type (docs/brood-operations.md says why there is no free-form script). */
public final class StepTypes {
  public static final String BACKUP = "backup";
  public static final String QUIET_DOWN = "quietDown";
  public static final String CANCEL_QUIET_DOWN = "cancelQuietDown";
  public static final String SAFE_RESTART = "safeRestart";
  public static final String REPROVISION = "reprovision";
  public static final String REAPPLY_CONFIGURATION = "reapplyConfiguration";
  public static final String WAKE = "wake";
  public static final String HIBERNATE = "hibernate";
  public static final String WAIT_FOR_IDLE = "waitForIdle";
  public static final String PAUSE = "pause";
  public static final List<String> ALL = List.of(BACKUP, QUIET_DOWN, CANCEL_QUIET_DOWN, SAFE_RESTART, REPROVISION,
      REAPPLY_CONFIGURATION, WAKE, HIBERNATE, WAIT_FOR_IDLE, PAUSE);

  private StepTypes() {}
}
