package dev.varroa.cli.actions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.cli.VarroactlRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What varroactl says before a drain, from the operator's preview, and how bad input exits. */
class DrainWarningTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void saysJenkinsHomeIsNotMigratedAndWhatEachReclaimPolicyDoes() throws Exception {
    List<String> lines = DrainWarning.lines("east", JSON.readTree("""
        {"controllersLeft": 3, "volumes": [
          {"namespace": "team-a", "controller": "orders", "claim": "jenkins-home-orders-0", "storageClass": "fast",
           "volume": "pv-1", "reclaimPolicy": "Delete"},
          {"namespace": "team-a", "controller": "search", "claim": "jenkins-home-search-0", "storageClass": "keep",
           "volume": "pv-2", "reclaimPolicy": "Retain"},
          {"namespace": "team-b", "controller": "docs", "claim": "jenkins-home-docs-0", "storageClass": "",
           "volume": "", "reclaimPolicy": ""}]}
        """));

    assertThat(lines.get(0)).isEqualTo("Draining cluster east deletes its 3 Controllers and their resources, one by"
        + " one, with each one's JENKINS_HOME claims.");
    assertThat(lines.get(1)).startsWith("JENKINS_HOME is not migrated");
    assertThat(lines).contains(
        "  team-a/orders: claim jenkins-home-orders-0 (StorageClass fast) - reclaim policy Delete: the volume and its"
            + " data are deleted",
        "  team-a/search: claim jenkins-home-search-0 (StorageClass keep) - reclaim policy Retain: the"
            + " PersistentVolume pv-2 is kept, with its data, until you delete it",
        "  team-b/docs: claim jenkins-home-docs-0 (default StorageClass) - reclaim policy unknown: check the"
            + " StorageClass's reclaimPolicy (Kubernetes' default is Delete)");
  }

  @Test
  void saysWhenNoVolumeIsAffected() throws Exception {
    assertThat(DrainWarning.lines("east", JSON.readTree("{\"controllersLeft\": 1, \"volumes\": []}")))
        .contains("No controller volume is affected.")
        .first().asString().contains("its 1 Controller and");
  }

  @Test
  void aClusterNameThatIsNotALabelIsInvalidInput() {
    VarroactlRun run = VarroactlRun.of("drain", "cluster", "East_1", "--yes");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("cluster name 'East_1' is not a DNS-1123 label");
  }

  @Test
  void anUnknownFlagOfDrainExitsWithUsage() {
    VarroactlRun run = VarroactlRun.of("drain", "cluster", "east", "--force");

    assertThat(run.exitCode()).isEqualTo(picocli.CommandLine.ExitCode.USAGE);
    assertThat(run.err()).contains("Unknown option: '--force'");
  }
}
