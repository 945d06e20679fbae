package dev.varroa.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** docs/reference/api.md is generated from the CRDs; `make docs` rewrites it (-Dvarroa.writeDocs=true). */
class ApiReferenceTest {
  private static final Path CRDS = Path.of("target/classes/META-INF/fabric8");
  private static final Path DOC = Path.of("../docs/reference/api.md");

  @Test
  void apiReferenceDocumentsEveryFieldOfTheCurrentSchema() throws IOException {
    String expected = ApiReference.markdown(crds());
    if (Boolean.getBoolean("varroa.writeDocs")) {
      Files.writeString(DOC, expected);
    }
    assertThat(DOC).as("docs/reference/api.md is stale: run `make docs`").exists();
    assertThat(Files.readString(DOC)).as("docs/reference/api.md is stale: run `make docs`").isEqualTo(expected);
    assertThat(expected).contains("`spec.reconciliation.drainTimeoutSeconds` | integer | `900` | ≥ 0")
        .contains("`spec.commandDeadlineSec` | integer | `1200` | ≥ 1");
  }

  private static List<CustomResourceDefinition> crds() throws IOException {
    KubernetesSerialization yaml = new KubernetesSerialization();
    List<CustomResourceDefinition> crds = new ArrayList<>();
    try (Stream<Path> files = Files.list(CRDS)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".yml")).sorted().toList()) {
        crds.add(yaml.unmarshal(Files.readString(f), CustomResourceDefinition.class));
      }
    }
    return crds;
  }
}
