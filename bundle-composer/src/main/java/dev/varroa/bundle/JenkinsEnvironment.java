package dev.varroa.bundle;

import java.util.Set;

/** Variables the operator sets in every Jenkins container, so JCasC may use them as ${NAME}. */
public final class JenkinsEnvironment {
  /** Names defined for every controller; see docs/bundles.md. */
  public static final Set<String> VARIABLES = Set.of(
      "JENKINS_URL", "JENKINS_HOME", "CONTROLLER_NAME", "CONTROLLER_NAMESPACE", "AGENTS_NAMESPACE", "CASC_JENKINS_CONFIG");

  private JenkinsEnvironment() {}
}
