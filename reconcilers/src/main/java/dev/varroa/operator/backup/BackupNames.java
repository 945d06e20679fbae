package dev.varroa.operator.backup;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Names and labels of backup snapshots. Pure. */
public final class BackupNames {
  /** On every backup snapshot: the StatefulSet whose JENKINS_HOME it holds (unique per Controller incarnation). */
  public static final String BACKUP_OF = "varroa.dev/backup-of";
  /** schedule or on-demand. */
  public static final String TRIGGER = "varroa.dev/backup-trigger";
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
  /** VolumeSnapshot names are DNS subdomains: 253 characters. */
  private static final int MAX_NAME = 253;

  private BackupNames() {}

  /** {@code <statefulset>-backup-<yyyyMMdd-HHmmss>}: from the start time, so a retried create finds the same object. */
  public static String snapshot(String statefulSet, Instant startedAt) {
    String suffix = "-backup-" + STAMP.format(startedAt);
    String base = statefulSet.length() + suffix.length() > MAX_NAME
        ? statefulSet.substring(0, MAX_NAME - suffix.length()) : statefulSet;
    return base + suffix;
  }

  /** The claim that holds JENKINS_HOME: the StatefulSet controller's name for pod 0's jenkins-home claim. */
  public static String homeClaim(String statefulSet) {
    return "jenkins-home-" + statefulSet + "-0";
  }
}
