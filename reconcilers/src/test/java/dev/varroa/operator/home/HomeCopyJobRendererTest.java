package dev.varroa.operator.home;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import org.junit.jupiter.api.Test;

class HomeCopyJobRendererTest {
  private static Job render(HomeCopyScript.Command command) {
    return HomeCopyJobRenderer.render(new HomeCopyJobRenderer.HomeCopyJob("ci", "team-a-1b4e28ba-home-copy", "team-a",
        command, "jenkins-home-team-a-1b4e28ba-0", "jenkins-home-team-a-1b4e28ba-0-next", "example.com/rsync:1"));
  }

  @Test
  void mountsTheOldHomeReadOnlyAndRunsTheScriptWithItsSubcommand() {
    Job job = render(HomeCopyScript.Command.COPY);
    Container copy = job.getSpec().getTemplate().getSpec().getContainers().get(0);

    assertThat(copy.getImage()).isEqualTo("example.com/rsync:1");
    assertThat(copy.getCommand()).containsExactly("sh", "-c", HomeCopyScript.text(), "home-copy.sh", "copy");
    assertThat(HomeCopyScript.text()).contains("rsync -aHAX --numeric-ids --delete");
    assertThat(copy.getEnv()).extracting(e -> e.getName() + "=" + e.getValue()).containsExactly(
        "VARROA_HOME_FROM=/varroa-home/from", "VARROA_HOME_TO=/varroa-home/to",
        "VARROA_TERMINATION_LOG=/dev/termination-log");
    assertThat(copy.getTerminationMessagePath()).isEqualTo("/dev/termination-log");
    assertThat(copy.getVolumeMounts()).extracting(m -> m.getMountPath() + ":" + m.getReadOnly())
        .containsExactly("/varroa-home/from:true", "/varroa-home/to:false");
    assertThat(job.getSpec().getTemplate().getSpec().getVolumes()).extracting(Volume::getPersistentVolumeClaim)
        .extracting(c -> c.getClaimName() + ":" + c.getReadOnly())
        .containsExactly("jenkins-home-team-a-1b4e28ba-0:true", "jenkins-home-team-a-1b4e28ba-0-next:false");
  }

  @Test
  void theCheckReadsBothHomesOnly() {
    Container check = render(HomeCopyScript.Command.VERIFY).getSpec().getTemplate().getSpec().getContainers().get(0);

    assertThat(check.getCommand()).endsWith("verify");
    assertThat(check.getVolumeMounts()).allSatisfy(m -> assertThat(m.getReadOnly()).isTrue());
  }

  @Test
  void runsAsRootWithOnlyTheCapabilitiesThatKeepOwnersAndModes() {
    Job job = render(HomeCopyScript.Command.COPY);
    var pod = job.getSpec().getTemplate().getSpec();
    var container = pod.getContainers().get(0).getSecurityContext();

    assertThat(pod.getSecurityContext().getRunAsUser()).isZero();
    assertThat(pod.getSecurityContext().getFsGroup()).as("no fsGroup: it would chown the new home").isNull();
    assertThat(container.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(container.getCapabilities().getAdd()).containsExactlyInAnyOrder("CHOWN", "DAC_OVERRIDE", "FOWNER",
        "FSETID", "SETFCAP");
    assertThat(container.getAllowPrivilegeEscalation()).isFalse();
    assertThat(pod.getAutomountServiceAccountToken()).isFalse();
  }

  @Test
  void neverRetriesAndKeepsThePodOutOfTheJenkinsService() {
    Job job = render(HomeCopyScript.Command.COPY);

    assertThat(job.getSpec().getBackoffLimit()).isZero();
    assertThat(job.getSpec().getTemplate().getSpec().getRestartPolicy()).isEqualTo("Never");
    assertThat(job.getSpec().getTemplate().getMetadata().getLabels())
        .containsEntry("varroa.dev/controller", "team-a").containsEntry(HomeCopyJobRenderer.COMMAND_LABEL, "copy")
        .doesNotContainKeys("app.kubernetes.io/name", "app.kubernetes.io/instance");
    assertThat(job.getMetadata().getName()).hasSizeLessThanOrEqualTo(63);
  }

  @Test
  void jobNamesFitTheJobNameLabelForTheLongestStatefulSetName() {
    HomeNames names = new HomeNames("a".repeat(52));

    assertThat(names.copyJob()).hasSizeLessThanOrEqualTo(63);
    assertThat(names.checkJob()).hasSizeLessThanOrEqualTo(63);
    assertThat(names.claim()).isEqualTo("jenkins-home-" + "a".repeat(52) + "-0");
  }

  @Test
  void theImageComesFromTheEnvironmentOrTheDefault() {
    assertThat(HomeCopySettings.fromEnv(java.util.Map.of()).image()).isEqualTo(HomeCopySettings.DEFAULT_IMAGE);
    assertThat(HomeCopySettings.fromEnv(java.util.Map.of(HomeCopySettings.ENV_IMAGE, " registry.local/rsync:3 ")).image())
        .isEqualTo("registry.local/rsync:3");
  }
}
