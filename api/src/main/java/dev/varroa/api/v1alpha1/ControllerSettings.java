package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/**
 * The settings a Controller shares with ControllerClass and ProvisioningDefaults. The operator
 * resolves each field from ProvisioningDefaults, then the ControllerClass, then the Controller:
 * the most specific object that sets a field wins. An omitted field inherits.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class ControllerSettings {
  @JsonPropertyDescription(
      "ComposedBundle (same namespace) that supplies the Jenkins configuration. Omitted: the built-in varroa-starter bundle.")
  public ObjectRef composedBundleRef;

  @JsonPropertyDescription(
      "JenkinsVersionProfile (cluster-scoped) that pins Jenkins and its compatible plugins. Overrides the bundle's own profile.")
  public ObjectRef versionProfileRef;

  @JsonPropertyDescription("The Jenkins container.")
  public JenkinsSpec jenkins;

  @JsonPropertyDescription("The volume that holds JENKINS_HOME (jobs, nodes, secrets) across restarts.")
  public PersistenceSpec persistence;

  @JsonPropertyDescription("Scheduled and on-demand CSI VolumeSnapshots of JENKINS_HOME.")
  public BackupSpec backup;

  @JsonPropertyDescription("The inactivity policy that parks an unused controller (phase Hibernated).")
  public HibernationSpec hibernation;

  @JsonPropertyDescription("An optional Ingress in front of the Jenkins web UI.")
  public IngressSpec ingress;

  @JsonPropertyDescription("Where and how Kubernetes build agents run.")
  public AgentsSpec agents;

  @JsonPropertyDescription("The mite sidecar. Changing image, pull policy or resources rolls the pod.")
  public MiteSpec miteSpec;

  @JsonPropertyDescription("How the operator reconciles and drains this controller.")
  public ReconciliationSpec reconciliation;

  @JsonPropertyDescription("Labels, annotations and a pod-spec merge applied to the Jenkins pod.")
  public PodCustomization podTemplate;

  @Size(max = 128)
  @JsonPropertyDescription(
      "Kubernetes Secret keys made available to JCasC as ${NAME}; values are delivered as files, never stored in a ConfigMap. Names must be unique (checked in status).")
  public List<SecretVariable> secrets;
}
