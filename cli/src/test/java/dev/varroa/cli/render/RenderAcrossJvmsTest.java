package dev.varroa.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.cli.Varroactl;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The render is the same in every JVM. A new leader is a new JVM, and an order that differs there (a Map.of's, seeded
 * per JVM) rewrites owned objects nobody changed. Eight JVMs miss a two-entry map's flip with odds of 1 in 128.
 */
class RenderAcrossJvmsTest {
  private static final int JVMS = 8;

  @TempDir Path work;

  @Test
  void theMinimalExampleRendersByteForByteAlikeInEveryJvm() throws Exception {
    Path examples = RenderControllerCommandTest.examples();
    Set<String> renders = new TreeSet<>();
    for (int i = 0; i < JVMS; i += 2) {
      // two at a time: the machine has two cores
      List<Process> pair = List.of(start(examples, i), start(examples, i + 1));
      for (int j = 0; j < pair.size(); j++) {
        Process process = pair.get(j);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("varroactl render in JVM %d ended", i + j).isTrue();
        assertThat(process.exitValue()).as(Files.readString(work.resolve("err-" + (i + j)))).isZero();
        renders.add(Files.readString(work.resolve("out-" + (i + j)), StandardCharsets.UTF_8));
      }
    }

    assertThat(renders).as("distinct renders of ci/sandbox across %d JVMs", JVMS).hasSize(1);
    assertThat(renders.iterator().next()).contains("ConfigMap", "sandbox-00000000-casc", "varroa.dev/agent-of");
  }

  private Process start(Path examples, int index) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Varroactl.class.getName(), "render", "controller"));
    for (String file : List.of("70-controller-minimal.yaml", "10-provisioning-defaults.yaml",
        "30-version-profile.yaml", "60-podtemplate.yaml")) {
      command.addAll(List.of("-f", examples.resolve(file).toString()));
    }
    return new ProcessBuilder(command).redirectOutput(work.resolve("out-" + index).toFile())
        .redirectError(work.resolve("err-" + index).toFile()).start();
  }
}
