package dev.varroa.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** chart/crds/ must be exactly what the build generates from the model; `make crds` refreshes it. */
class CrdChartDriftTest {
  private static final Path GENERATED = Path.of("target/classes/META-INF/fabric8");
  private static final Path CHART = Path.of("../chart/crds");

  @Test
  void chartCrdsMatchTheGeneratedCrds() throws IOException {
    List<String> generated = yamlNames(GENERATED);
    assertThat(generated).as("generated CRDs").hasSize(17);
    assertThat(yamlNames(CHART))
        .as("chart/crds/ holds the same files as the generator output; run `make crds`")
        .containsExactlyElementsOf(generated);
    for (String name : generated) {
      assertThat(Files.readString(CHART.resolve(name)))
          .as("chart/crds/%s is stale: run `make crds` and commit the result", name)
          .isEqualTo(Files.readString(GENERATED.resolve(name)));
    }
  }

  private static List<String> yamlNames(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".yml")).sorted().toList();
    }
  }
}
