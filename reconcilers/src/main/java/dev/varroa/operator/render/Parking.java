package dev.varroa.operator.render;

/**
 * What the inactivity policy (docs/hibernation.md) asks of the rendered workload.
 *
 * @param parked the Controller is Hibernated: its StatefulSet has no replica (JENKINS_HOME is kept)
 * @param serviceToWaker its Service has no selector, so the waker's EndpointSlice receives Jenkins' HTTP traffic:
 *     while it is parked and until the woken pod is ready
 */
public record Parking(boolean parked, boolean serviceToWaker) {
  /** Neither parked nor waking: the Service selects the Jenkins pod. */
  public static final Parking AWAKE = new Parking(false, false);
}
