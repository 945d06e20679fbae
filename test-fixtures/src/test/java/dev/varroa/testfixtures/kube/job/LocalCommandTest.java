package dev.varroa.testfixtures.kube.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalCommandTest {
  private static final Map<String, Path> MOUNTS = Map.of(
      "/source", Path.of("/tmp/v/pvc-a"),
      "/target/", Path.of("/tmp/v/pvc-b"),
      "/target/cache", Path.of("/tmp/scratch/cache"));

  @Test
  void replacesMountPathsInArgsAndEnvButNotLongerPathsThatStartTheSame() {
    Container copy = new ContainerBuilder().withName("copy").withCommand("/bin/sh", "-c")
        .withArgs("rsync -aHAX --numeric-ids /source/ /target/ && ls /sourcefile /srv/source /target/cache/x")
        .addNewEnv().withName("TARGET").withValue("/target").endEnv()
        .build();

    LocalCommand command = LocalCommand.of(copy, env(copy), MOUNTS, Path.of("/tmp/t/termination-log"));

    assertThat(command.argv()).containsExactly("/bin/sh", "-c",
        "rsync -aHAX --numeric-ids /tmp/v/pvc-a/ /tmp/v/pvc-b/ && ls /sourcefile /srv/source /tmp/scratch/cache/x");
    assertThat(command.environment()).containsEntry("TARGET", "/tmp/v/pvc-b");
  }

  @Test
  void expandsVariableReferencesBeforeReplacingPaths() {
    Container verify = new ContainerBuilder().withName("verify").withCommand("verify")
        .withArgs("--home=$(HOME_DIR)", "--keep=$$(HOME_DIR)", "--unknown=$(NOPE)")
        .addNewEnv().withName("HOME_DIR").withValue("/source/jenkins").endEnv()
        .addNewEnv().withName("SECRETS").withValue("$(HOME_DIR)/secrets").endEnv()
        .build();

    LocalCommand command = LocalCommand.of(verify, env(verify), MOUNTS, Path.of("/tmp/t/termination-log"));

    assertThat(command.argv()).containsExactly("verify", "--home=/tmp/v/pvc-a/jenkins", "--keep=$(HOME_DIR)",
        "--unknown=$(NOPE)");
    assertThat(command.environment()).containsEntry("SECRETS", "/tmp/v/pvc-a/jenkins/secrets");
  }

  @Test
  void mapsTheTerminationMessagePathLikeAMount() {
    Container report = new ContainerBuilder().withName("report").withCommand("/bin/sh", "-c")
        .withArgs("echo done > /dev/termination-log")
        .build();

    assertThat(LocalCommand.of(report, env(report), MOUNTS, Path.of("/tmp/t/msg")).argv())
        .containsExactly("/bin/sh", "-c", "echo done > /tmp/t/msg");
  }

  @Test
  void refusesAContainerWithoutACommand() {
    Container imageOnly = new ContainerBuilder().withName("copy").withImage("rsync").build();

    assertThatThrownBy(() -> LocalCommand.of(imageOnly, Map.of(), MOUNTS, Path.of("/tmp/t/msg")))
        .hasMessageContaining("containers[].command");
  }

  private static Map<String, String> env(Container container) {
    Map<String, String> env = new LinkedHashMap<>();
    container.getEnv().forEach(e -> env.put(e.getName(), e.getValue()));
    return env;
  }
}
