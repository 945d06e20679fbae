package dev.varroa.operator.render;

import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;

/** Security contexts of the Jenkins pod; podTemplate.spec may override any field. */
final class JenkinsPodSecurity {
  /** The jenkins user of the official images; numeric so runAsNonRoot can be verified. */
  static final long JENKINS_UID = 1000L;
  /** Group that owns JENKINS_HOME, so the jenkins user can write the volume. */
  static final long JENKINS_GID = 1000L;

  private JenkinsPodSecurity() {}

  static PodSecurityContext pod() {
    return new PodSecurityContextBuilder()
        .withRunAsUser(JENKINS_UID)
        .withRunAsGroup(JENKINS_GID)
        .withRunAsNonRoot(true)
        .withFsGroup(JENKINS_GID)
        // a large JENKINS_HOME is chowned only when its root is wrong, not on every start
        .withFsGroupChangePolicy("OnRootMismatch")
        .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
        .build();
  }

  static SecurityContext container() {
    return new SecurityContextBuilder()
        .withAllowPrivilegeEscalation(false)
        .withNewCapabilities().withDrop("ALL").endCapabilities()
        .build();
  }
}
