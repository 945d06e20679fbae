package dev.varroa.testfixtures.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** One test class with two API servers: the parameter is the first, the named one is another cluster altogether. */
@WithKubeApiServer
class TwoKubeApiServersIT {
  @RegisterExtension
  static final KubeApiServerExtension MEMBER = KubeApiServerExtension.another("member");

  @Test
  void theSecondApiServerIsAnotherClusterAndTheParameterStaysTheFirst(KubeApiServer core) {
    KubeApiServer member = MEMBER.server();
    assertThat(member).isNotSameAs(core);
    assertThat(member.client().getMasterUrl()).isNotEqualTo(core.client().getMasterUrl());

    core.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("only-on-the-core")
        .endMetadata().build()).create();
    assertThat(member.client().namespaces().withName("only-on-the-core").get()).isNull();
    // both got Varroa's CRDs
    assertThat(member.client().apiextensions().v1().customResourceDefinitions().withName("controllers.varroa.dev")
        .get()).isNotNull();
  }
}
