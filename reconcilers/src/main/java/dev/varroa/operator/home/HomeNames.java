package dev.varroa.operator.home;

import dev.varroa.operator.render.PodVolumes;

/**
 * Names of what a restore or a move of JENKINS_HOME creates for the StatefulSet {@code sts}. Job names stay within
 * 63 characters (the job-name label) since a StatefulSet name has at most 52.
 */
public record HomeNames(String statefulSet) {
  /** The claim pod 0 mounts, as the StatefulSet controller names it from the volumeClaimTemplate. */
  public String claim() {
    return PodVolumes.JENKINS_HOME_VOLUME + "-" + statefulSet + "-0";
  }

  /** The claim that receives the next home before the swap. */
  public String targetClaim() {
    return claim() + "-next";
  }

  /** The snapshot of the old home a move takes when both storage classes share a CSI driver. */
  public String moveSnapshot() {
    return claim() + "-move";
  }

  public String copyJob() {
    return statefulSet + "-home-copy";
  }

  public String checkJob() {
    return statefulSet + "-home-check";
  }

  public String pod() {
    return statefulSet + "-0";
  }
}
