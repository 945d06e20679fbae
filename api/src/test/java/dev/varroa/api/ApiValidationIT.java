package dev.varroa.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The real API server rejects bad objects with an error that names the field. */
@WithKubeApiServer
class ApiValidationIT {
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  static Stream<Arguments> badObjects() {
    return Stream.of(
        bundleInput("two kinds in one input",
            "{git: {url: 'https://g/x.git', ref: {branch: main}}, oci: {url: 'oci://r/x', ref: {tag: '1'}}}",
            "spec.inputs[0]", "exactly one of git, oci, catalogItem or fluxSource"),
        bundleInput("no kind in an input", "{}",
            "spec.inputs[0]", "exactly one of git, oci, catalogItem or fluxSource"),
        bundleInput("two refs in one git ref", "{git: {url: 'https://g/x.git', ref: {branch: main, tag: v1}}}",
            "spec.inputs[0].git.ref", "exactly one of branch, tag, semver or commit"),
        bundleInput("two refs in one oci ref",
            "{oci: {url: 'oci://r/x', ref: {tag: '1', digest: 'sha256:" + "a".repeat(64) + "'}}}",
            "spec.inputs[0].oci.ref", "exactly one of tag, semver or digest"),
        bundleInput("git url with an unsupported scheme", "{git: {url: 'ftp://g/x.git', ref: {branch: main}}}",
            "spec.inputs[0].git.url", "should match"),
        bundleInput("git url that reads the operator's disk", "{git: {url: 'file:///var/cache/varroa/git', ref: {branch: main}}}",
            "spec.inputs[0].git.url", "should match"),
        bundleInput("git url that is a local path", "{git: {url: '/srv/git/team-a.git', ref: {branch: main}}}",
            "spec.inputs[0].git.url", "should match"),
        bundleInput("scp-like git address", "{git: {url: 'git@github.com:org/repo.git', ref: {branch: main}}}",
            "spec.inputs[0].git.url", "should match"),
        object("catalog source that reads the operator's disk", """
            apiVersion: varroa.dev/v1alpha1
            kind: CatalogSource
            metadata: {name: local, namespace: default}
            spec:
              git: {url: 'file:///srv/git/catalog.git', ref: {branch: main}}
            """, "spec.git.url", "should match"),
        bundleInput("commit that is not 40 hex digits", "{git: {url: 'https://g/x.git', ref: {commit: abc123}}}",
            "spec.inputs[0].git.ref.commit", "should match"),
        bundleInput("oci digest without sha256", "{oci: {url: 'oci://r/x', ref: {digest: 'md5:abc'}}}",
            "spec.inputs[0].oci.ref.digest", "should match"),
        bundleInput("unknown flux source kind", "{fluxSource: {kind: HelmRepository, name: x}}",
            "spec.inputs[0].fluxSource.kind", "Unsupported value"),
        bundleInput("bad object name in a catalogItem ref", "{catalogItem: {name: Base_Security}}",
            "spec.inputs[0].catalogItem.name", "should match"),
        bundle("empty inputs", "{inputs: []}", "spec.inputs", "should have at least 1 items"),
        bundle("missing inputs", "{interval: 5m}", "spec.inputs", "Required value"),
        bundle("interval that is not a duration", "{interval: often, inputs: [{catalogItem: {name: base}}]}",
            "spec.interval", "should match"),
        controller("negative drainTimeoutSeconds", "{reconciliation: {drainTimeoutSeconds: -1}}",
            "spec.reconciliation.drainTimeoutSeconds", "should be greater than or equal to 0"),
        controller("unknown powerState", "{powerState: Paused}", "spec.powerState", "Unsupported value"),
        controller("bad object name in composedBundleRef", "{composedBundleRef: {name: Team_A}}",
            "spec.composedBundleRef.name", "should match"),
        controller("unknown agents tunnel", "{agents: {tunnel: ssh}}", "spec.agents.tunnel", "Unsupported value"),
        controller("agents namespace that is not a DNS label", "{agents: {namespace: ci.jobs}}",
            "spec.agents.namespace", "should match"),
        controller("ingress enabled without host", "{ingress: {enabled: true}}",
            "spec.ingress", "ingress.host is required when ingress.enabled is true"),
        controller("persistence size that is not a quantity", "{persistence: {size: lots}}",
            "spec.persistence.size", "should match"),
        controller("secret variable name with a dash",
            "{secrets: [{name: my-token, secretKeyRef: {name: s, key: token}}]}",
            "spec.secrets[0].name", "should match"),
        controller("secret variable without its secretKeyRef", "{secrets: [{name: TOKEN}]}",
            "spec.secrets[0].secretKeyRef", "Required value"),
        object("commandDeadlineSec below 1", """
            apiVersion: varroa.dev/v1alpha1
            kind: ProvisioningDefaults
            metadata: {name: default}
            spec: {commandDeadlineSec: 0}
            """, "spec.commandDeadlineSec", "should be greater than or equal to 1"),
        object("catalog source with git and oci", """
            apiVersion: varroa.dev/v1alpha1
            kind: CatalogSource
            metadata: {name: both, namespace: default}
            spec:
              git: {url: 'https://g/c.git', ref: {branch: main}}
              oci: {url: 'oci://r/c', ref: {tag: '1'}}
            """, "spec", "exactly one of git or oci"),
        object("version profile without image", """
            apiVersion: varroa.dev/v1alpha1
            kind: JenkinsVersionProfile
            metadata: {name: noimage}
            spec: {jenkinsVersion: '2.555.2'}
            """, "spec.image", "Required value"),
        object("plugin pinned without version", """
            apiVersion: varroa.dev/v1alpha1
            kind: JenkinsVersionProfile
            metadata: {name: noversion}
            spec: {jenkinsVersion: '2.555.2', image: 'jenkins/jenkins:2.555.2-lts', plugins: [{id: git}]}
            """, "spec.plugins[0].version", "Required value"),
        object("role binding without subjects", """
            apiVersion: varroa.dev/v1alpha1
            kind: JenkinsRoleBinding
            metadata: {name: nobody}
            spec: {roleRef: {name: developer}, subjects: []}
            """, "spec.subjects", "should have at least 1 items"),
        object("update center that is not http", """
            apiVersion: varroa.dev/v1alpha1
            kind: UpdateCenter
            metadata: {name: uc}
            spec: {url: 'ftp://uc.example.com/update-center.json'}
            """, "spec.url", "should match"),
        updateCenter("update center neither external nor managed", "{}",
            "spec", "set exactly one of spec.url"),
        updateCenter("update center both external and managed",
            "{url: 'https://uc.example.com/update-center.json', managed: {}}", "spec", "set exactly one of spec.url"),
        updateCenter("managed update center with an external download URL",
            "{managed: {}, pluginDownloadURL: 'https://uc.example.com/download/plugins'}",
            "spec", "belong to spec.url"),
        updateCenter("managed upstream without url", "{managed: {upstream: {}}}",
            "spec.managed.upstream.url", "Required value"),
        object("team credential usernamePassword without usernameKey", """
            apiVersion: varroa.dev/v1alpha1
            kind: Team
            metadata: {name: bad, namespace: default}
            spec:
              pool: shared
              credentials: [{id: git, type: usernamePassword, secretRef: {name: git, key: token}}]
            """, "spec.credentials[0]", "needs secretRef.usernameKey"),
        object("team without pool", """
            apiVersion: varroa.dev/v1alpha1
            kind: Team
            metadata: {name: bad, namespace: default}
            spec: {pipelines: [{name: build, repository: 'https://g/x.git'}]}
            """, "spec.pool", "Required value"),
        object("cell pool with a negative replica count", """
            apiVersion: varroa.dev/v1alpha1
            kind: CellPool
            metadata: {name: bad, namespace: default}
            spec: {replicas: -1, template: {spec: {}}}
            """, "spec.replicas", "should be greater than or equal to 0"),
        object("cell pool with an unknown artifact mode", """
            apiVersion: varroa.dev/v1alpha1
            kind: CellPool
            metadata: {name: bad, namespace: default}
            spec: {template: {spec: {}}, artifacts: {mode: Token}}
            """, "spec.artifacts.mode", "should match"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badObjects")
  void rejectsBadObjectNamingTheField(String what, String yaml, String field, String message, KubeApiServer kube) {
    KubernetesClient client = kube.client();
    GenericKubernetesResource object = YAML.unmarshal(yaml, GenericKubernetesResource.class);

    assertThatThrownBy(() -> client.resource(object).create())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> {
          KubernetesClientException rejected = (KubernetesClientException) e;
          assertThat(rejected.getCode()).as(what).isEqualTo(422);
          assertThat(rejected.getStatus().getMessage()).as(what).contains(field).contains(message);
        });
  }

  @org.junit.jupiter.api.Test
  void acceptsTheGoodNeighboursOfTheBadObjects(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    for (Arguments good : new Arguments[] {
        bundle("", "{inputs: [{git: {url: 'ssh://git@g/x.git', ref: {commit: '" + "0".repeat(40) + "'}}},"
            + " {git: {url: 'http://127.0.0.1:8080/git/x.git', ref: {branch: main}}},"
            + " {git: {url: 'https://g/x.git', ref: {tag: v1}}}]}", "", ""),
        bundleInput("", "{oci: {url: 'oci://r/x', ref: {digest: 'sha256:" + "a".repeat(64) + "'}}}", "", ""),
        controller("", "{reconciliation: {drainTimeoutSeconds: 0}, powerState: Stopped, ingress: {enabled: false}}", "", ""),
        updateCenter("", "{managed: {storage: {size: 20Gi}, upstream: {url: 'https://updates.jenkins.io/current/update-center.json'}}}",
            "", "")}) {
      GenericKubernetesResource object = YAML.unmarshal((String) good.get()[1], GenericKubernetesResource.class);
      object.getMetadata().setName("good-" + object.getKind().toLowerCase());
      client.resource(object).create();
      assertThat(client.resource(object).get()).isNotNull();
      client.resource(object).delete();
    }
  }

  private static Arguments bundleInput(String what, String input, String field, String message) {
    return bundle(what, "{inputs: [" + input + "]}", field, message);
  }

  private static Arguments bundle(String what, String spec, String field, String message) {
    return object(what, "apiVersion: varroa.dev/v1alpha1\nkind: ComposedBundle\n"
        + "metadata: {name: bad, namespace: default}\nspec: " + spec + "\n", field, message);
  }

  private static Arguments controller(String what, String spec, String field, String message) {
    return object(what, "apiVersion: varroa.dev/v1alpha1\nkind: Controller\n"
        + "metadata: {name: bad, namespace: default}\nspec: " + spec + "\n", field, message);
  }

  private static Arguments updateCenter(String what, String spec, String field, String message) {
    return object(what, "apiVersion: varroa.dev/v1alpha1\nkind: UpdateCenter\nmetadata: {name: bad}\nspec: " + spec + "\n",
        field, message);
  }

  private static Arguments object(String what, String yaml, String field, String message) {
    return Arguments.of(what, yaml, field, message);
  }
}
