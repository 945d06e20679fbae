package dev.varroa.operator.home;

import dev.varroa.operator.render.naming.ControllerLabels;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The Job of a home move that copies (or checks) JENKINS_HOME from the old claim to the target claim with
 * {@link HomeCopyScript}. Pure: owner references are the caller's.
 */
public final class HomeCopyJobRenderer {
  /** Where the old home is mounted, read only. */
  public static final String FROM_PATH = "/varroa-home/from";
  /** Where the target claim is mounted. */
  public static final String TO_PATH = "/varroa-home/to";
  public static final String CONTAINER = "home-copy";
  public static final String TERMINATION_LOG = "/dev/termination-log";
  /** Which operation a Job belongs to; its value is the command (copy, verify). */
  public static final String COMMAND_LABEL = "varroa.dev/home-copy";
  /**
   * Root with only what rsync needs to write numeric owners, modes, set-id bits and file capabilities the old home
   * has: all within the baseline Pod Security Standard, none of the restricted one (which forbids root).
   */
  public static final List<String> CAPABILITIES = List.of("CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "SETFCAP");
  static final long ROOT = 0L;
  private static final String FROM_VOLUME = "from";
  private static final String TO_VOLUME = "to";

  /**
   * One Job.
   *
   * @param namespace the Controller's namespace
   * @param name the Job's name (at most 63 characters)
   * @param controllerName the Controller, for its labels
   * @param command copy or verify
   * @param sourceClaim the old home
   * @param targetClaim the new home
   * @param image an image with sh, rsync and coreutils or busybox
   */
  public record HomeCopyJob(String namespace, String name, String controllerName, HomeCopyScript.Command command,
      String sourceClaim, String targetClaim, String image) {}

  private HomeCopyJobRenderer() {}

  public static Job render(HomeCopyJob job) {
    SortedMap<String, String> labels = new TreeMap<>(ControllerLabels.of(job.controllerName()));
    // the pods must not carry the Jenkins pod's selector labels: the Service would route to them
    labels.remove(ControllerLabels.NAME);
    labels.remove(ControllerLabels.INSTANCE);
    labels.put(COMMAND_LABEL, job.command().argument());
    return new JobBuilder()
        .withNewMetadata().withName(job.name()).withNamespace(job.namespace()).withLabels(labels).endMetadata()
        .withNewSpec()
        // a failed copy or check is reported, never retried behind the user's back
        .withBackoffLimit(0)
        .withNewTemplate()
        .withNewMetadata().withLabels(labels).endMetadata()
        .withNewSpec()
        .withRestartPolicy("Never")
        .withAutomountServiceAccountToken(false)
        .withEnableServiceLinks(false)
        .withNewSecurityContext().withRunAsUser(ROOT).withRunAsGroup(ROOT).withRunAsNonRoot(false)
        .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile().endSecurityContext()
        .addNewContainer()
        .withName(CONTAINER)
        .withImage(job.image())
        .withCommand("sh", "-c", HomeCopyScript.text(), HomeCopyScript.RESOURCE, job.command().argument())
        .withEnv(new EnvVar(HomeCopyScript.ENV_FROM, FROM_PATH, null), new EnvVar(HomeCopyScript.ENV_TO, TO_PATH, null),
            new EnvVar(HomeCopyScript.ENV_TERMINATION_LOG, TERMINATION_LOG, null))
        .withTerminationMessagePath(TERMINATION_LOG)
        // rsync's own error is the message when the script could not write its report
        .withTerminationMessagePolicy("FallbackToLogsOnError")
        .withNewResources().withRequests(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("128Mi")))
        .endResources()
        .withNewSecurityContext().withAllowPrivilegeEscalation(false).withPrivileged(false)
        .withNewCapabilities().withDrop("ALL").withAdd(CAPABILITIES).endCapabilities().endSecurityContext()
        .addNewVolumeMount().withName(FROM_VOLUME).withMountPath(FROM_PATH).withReadOnly(true).endVolumeMount()
        .addNewVolumeMount().withName(TO_VOLUME).withMountPath(TO_PATH)
        .withReadOnly(job.command() == HomeCopyScript.Command.VERIFY).endVolumeMount()
        .endContainer()
        .addNewVolume().withName(FROM_VOLUME).withNewPersistentVolumeClaim(job.sourceClaim(), true).endVolume()
        .addNewVolume().withName(TO_VOLUME).withNewPersistentVolumeClaim(job.targetClaim(),
            job.command() == HomeCopyScript.Command.VERIFY).endVolume()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }
}
