package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.Controller;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** A Controller created on the API server from a spec written as YAML, as a user's manifest would be. */
public final class ControllerManifests {
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private ControllerManifests() {}

  /** @param specYaml the spec's fields, unindented ({@code "{}"} for an empty spec) */
  public static Controller create(KubernetesClient client, String namespace, String name, String specYaml) {
    return client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: %s}
        spec:
        %s
        """.formatted(name, namespace, specYaml.indent(2)), Controller.class)).create();
  }
}
