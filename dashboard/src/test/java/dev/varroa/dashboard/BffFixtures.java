package dev.varroa.dashboard;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.api.v1alpha1.VarroaRoleBinding;
import dev.varroa.testfixtures.oidc.OidcProvider;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.util.Map;
import java.util.stream.Collectors;

/** What the BFF's tests put in the API server and the provider: namespaces, Controllers, roles, bindings, users. */
public final class BffFixtures {

  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private BffFixtures() {}

  /** A free port, for a BFF whose redirect URI the provider must know before either starts. */
  public static int port() {
    try {
      return BffStack.freePort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port", e);
    }
  }

  /** A provider user whose ID, username and password derive from the name (password: name-password). */
  public static OidcProvider.User user(String name) {
    return new OidcProvider.User(name, name, password(name), name + "@example.com");
  }

  public static String password(String name) {
    return name + "-password";
  }

  public static void namespaces(KubernetesClient client, String... names) {
    for (String name : names) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
          .create();
    }
  }

  public static void controller(KubernetesClient client, String namespace, String name, Map<String, String> labels) {
    String labelYaml = labels.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
        .collect(Collectors.joining(", ", "{", "}"));
    create(client, "apiVersion: varroa.dev/v1alpha1\nkind: Controller\nmetadata: {name: " + name + ", namespace: "
        + namespace + ", labels: " + labelYaml + "}\nspec: {}\n", Controller.class);
  }

  /** The VarroaRole reader: list, get and watch on every resource. */
  public static void readerRole(KubernetesClient client) {
    create(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: reader}
        spec:
          rules:
            - verbs: [list, get, watch]
              resources: ["*"]
        """, VarroaRole.class);
  }

  /** @param namespace the only namespace the binding applies in; null for every namespace */
  public static void binding(KubernetesClient client, String name, String role, String kind, String subject,
      String namespace) {
    create(client, "apiVersion: varroa.dev/v1alpha1\nkind: VarroaRoleBinding\nmetadata: {name: " + name + "}\nspec:\n"
        + "  roleRef: {name: " + role + "}\n  subjects: [{kind: " + kind + ", name: " + subject + "}]\n"
        + (namespace == null ? "" : "  namespaces: [" + namespace + "]\n"), VarroaRoleBinding.class);
  }

  public static <T extends HasMetadata> void create(KubernetesClient client, String yaml, Class<T> type) {
    client.resource(YAML.unmarshal(yaml, type)).create();
  }
}
