package dev.varroa.operator.profile;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.ConditionedStatus;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.JenkinsVersionProfileSpec;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.render.BundleRenderer;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.compose.VersionProfileConversion;
import dev.varroa.operator.status.Conditions;
import dev.varroa.operator.status.Kstatus;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Validates each JenkinsVersionProfile and says in status why one is unusable: duplicate plugin
 * ids, a JCasC overlay that does not parse, a plugin without a version.
 */
@ControllerConfiguration(name = "jenkinsversionprofile")
public final class JenkinsVersionProfileReconciler implements Reconciler<JenkinsVersionProfile> {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private final Clock clock;

  public JenkinsVersionProfileReconciler(Clock clock) {
    this.clock = clock;
  }

  @Override
  public UpdateControl<JenkinsVersionProfile> reconcile(JenkinsVersionProfile profile,
      Context<JenkinsVersionProfile> context) {
    ConditionedStatus previous = profile.getStatus() == null ? new ConditionedStatus() : profile.getStatus();
    long generation = profile.getMetadata().getGeneration() == null ? 0 : profile.getMetadata().getGeneration();
    List<String> problems = problems(profile);
    Conditions conditions = new Conditions(previous.conditions, generation, clock.instant().toString());
    if (problems.isEmpty()) {
      conditions.kstatus(Kstatus.READY, new Kstatus.Wording("Valid",
              "Jenkins " + profile.getSpec().jenkinsVersion + " with " + size(profile.getSpec()) + " plugins"),
          new Kstatus.Wording("Valid", "checked"), new Kstatus.Wording("Valid", "usable"));
    } else {
      Kstatus.Wording invalid = new Kstatus.Wording("Invalid", String.join("; ", problems));
      conditions.kstatus(Kstatus.STALLED, invalid, new Kstatus.Wording("Invalid", "checked"), invalid);
    }
    ConditionedStatus status = new ConditionedStatus();
    status.observedGeneration = generation;
    status.conditions = conditions.build();
    if (JSON.asJson(status).equals(JSON.asJson(previous))) {
      return UpdateControl.noUpdate();
    }
    profile.setStatus(status);
    return UpdateControl.patchStatus(profile);
  }

  private static List<String> problems(JenkinsVersionProfile profile) {
    List<String> problems = new ArrayList<>();
    JenkinsVersionProfileSpec spec = profile.getSpec();
    Set<String> seen = new HashSet<>();
    if (spec.plugins != null) {
      for (JenkinsVersionProfileSpec.PluginVersion plugin : spec.plugins) {
        if (!seen.add(plugin.id)) {
          problems.add("spec.plugins lists " + plugin.id + " more than once; keep one entry per plugin id");
        }
      }
    }
    if (problems.isEmpty()) {
      try {
        // A render with no input checks what the profile alone brings: its overlay and its plugin set.
        new BundleRenderer().render(new RenderRequest(profile.getMetadata().getName(), List.of(),
            VersionProfileConversion.of(profile), Set.of(), JenkinsEnvironment.VARIABLES));
      } catch (BundleException e) {
        e.problems().stream().limit(3).forEach(p -> problems.add(p.format()));
      }
    }
    return problems;
  }

  private static int size(JenkinsVersionProfileSpec spec) {
    return spec.plugins == null ? 0 : spec.plugins.size();
  }
}
