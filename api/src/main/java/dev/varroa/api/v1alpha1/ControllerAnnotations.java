package dev.varroa.api.v1alpha1;

/** Annotations a user sets on a Controller to ask for a one-off action; each is acted on once per value. */
public final class ControllerAnnotations {
  /** Any new value takes an on-demand backup (docs/backups.md); a timestamp is a good value. */
  public static final String BACKUP_NOW = "varroa.dev/backup-now";
  /**
   * Confirms a move of JENKINS_HOME to another storage class: its value must be the target
   * persistence.storageClassName (docs/storage-moves.md). Removing it before the swap aborts the move.
   */
  public static final String CONFIRM_HOME_MOVE = "varroa.dev/confirm-home-move";
  /** Any new value wakes a Hibernated controller (docs/hibernation.md). */
  public static final String WAKE = "varroa.dev/wake";
  /**
   * Any new value parks a Connected controller now, as its inactivity policy would once idle: only with no running
   * or queued build, and only when spec.hibernation.idleMinutes is set (docs/hibernation.md).
   */
  public static final String HIBERNATE_NOW = "varroa.dev/hibernate-now";
  /**
   * Any new value pushes the current desired state to Jenkins again, applied or not; status.lastApplyResult.trigger
   * names the value once Jenkins answered (docs/controllers.md).
   */
  public static final String REAPPLY = "varroa.dev/reapply";

  private ControllerAnnotations() {}
}
