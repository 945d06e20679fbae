package dev.varroa.testfixtures.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * The cluster objects a Controller with no settings of its own needs: a JenkinsVersionProfile
 * {@code lts} that lists the built-in starter bundle's plugins, and the ProvisioningDefaults
 * {@code default} that names it.
 */
public final class StarterProfile {
  public static final String PROFILE_YAML = """
      apiVersion: varroa.dev/v1alpha1
      kind: JenkinsVersionProfile
      metadata: {name: lts}
      spec:
        jenkinsVersion: "2.555.2"
        image: jenkins/jenkins:2.555.2-lts-jdk21
        plugins:
          - {id: configuration-as-code, version: "2006.v001a_2ca_6b_574"}
          - {id: kubernetes, version: "4384.v1b_6367f393d9"}
          - {id: workflow-aggregator, version: "608.v67378e9d3db_1"}
          - {id: git, version: "5.8.0"}
          - {id: credentials, version: "1453.v9b_a_29777a_b_fd"}
      """;

  /** A profile {@code lts} that pins only git 5.8.0: what a bundle test whose repositories list git needs. */
  public static final String GIT_ONLY_PROFILE_YAML = """
      apiVersion: varroa.dev/v1alpha1
      kind: JenkinsVersionProfile
      metadata: {name: lts}
      spec:
        jenkinsVersion: "2.555.2"
        image: jenkins/jenkins:2.555.2-lts-jdk21
        plugins:
          - {id: git, version: "5.8.0"}
      """;

  private StarterProfile() {}

  /** Creates the git-only profile {@code lts}, with no ProvisioningDefaults. */
  public static void installGitOnly(KubernetesClient client) {
    client.resource(new KubernetesSerialization().unmarshal(GIT_ONLY_PROFILE_YAML, GenericKubernetesResource.class))
        .create();
  }

  /**
   * Creates the profile and the ProvisioningDefaults.
   *
   * @param agentsNamespace the defaults' agents namespace; null keeps the operator's default
   */
  public static void install(KubernetesClient client, String agentsNamespace) {
    KubernetesSerialization yaml = new KubernetesSerialization();
    client.resource(yaml.unmarshal(PROFILE_YAML, GenericKubernetesResource.class)).create();
    String agents = agentsNamespace == null ? "" : ", agents: {namespace: " + agentsNamespace + "}";
    client.resource(yaml.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: ProvisioningDefaults
        metadata: {name: default}
        spec: {versionProfileRef: {name: lts}%s}
        """.formatted(agents), GenericKubernetesResource.class)).create();
  }
}
