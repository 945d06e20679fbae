package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Jenkins' JSON answers as Stapler writes them (with tree=), read into observed state. */
class JenkinsClientTest {

  private static final String COMPUTERS = """
      {"_class":"hudson.model.ComputerSet","computer":[
        {"_class":"hudson.model.Hudson$MasterComputer","displayName":"Built-In Node",
         "executors":[{"idle":true}],"oneOffExecutors":[{"idle":false}]},
        {"_class":"org.csanchez.jenkins.plugins.kubernetes.KubernetesComputer","displayName":"maven-k8s-7xq2p",
         "executors":[{"idle":false}],"oneOffExecutors":[]},
        {"_class":"hudson.slaves.SlaveComputer","displayName":"arm64-builder",
         "executors":[{"idle":true}],"oneOffExecutors":[]}]}
      """;

  @Test
  void listsAgentNodesSortedWithoutTheBuiltInNode() throws Exception {
    assertThat(JenkinsClient.agentNodes(COMPUTERS)).containsExactly("arm64-builder", "maven-k8s-7xq2p");
  }

  @Test
  void listsNoAgentNodesWhenOnlyTheBuiltInNodeExists() throws Exception {
    assertThat(JenkinsClient.agentNodes("""
        {"_class":"hudson.model.ComputerSet","computer":[
          {"_class":"hudson.model.Hudson$MasterComputer","displayName":"Built-In Node"}]}
        """)).isEmpty();
  }

  @Test
  void countsBusyExecutorsOnEveryComputer() throws Exception {
    assertThat(JenkinsClient.busyExecutors(COMPUTERS)).isEqualTo(2);
  }

  @Test
  void countsEveryQueueItemWhateverItsState() throws Exception {
    assertThat(JenkinsClient.queuedItems("""
        {"_class":"hudson.model.Queue","items":[
          {"_class":"hudson.model.Queue$BlockedItem","id":14},
          {"_class":"hudson.model.Queue$BuildableItem","id":15},
          {"_class":"hudson.model.Queue$WaitingItem","id":16}]}
        """)).isEqualTo(3);
    assertThat(JenkinsClient.queuedItems("{\"_class\":\"hudson.model.Queue\",\"items\":[]}")).isZero();
  }

  @Test
  void readsTheLastUserRequestAndTreatsAMissingOneAsUnknown() throws Exception {
    assertThat(JenkinsClient.lastUserRequest("{\"lastUserRequestEpochMillis\":1767225600000}"))
        .isEqualTo(1_767_225_600_000L);
    assertThat(JenkinsClient.lastUserRequest("{\"lastUserRequestEpochMillis\":0}")).isZero();
    assertThat(JenkinsClient.lastUserRequest("{}")).isZero();
    assertThat(JenkinsClient.lastUserRequest("{\"lastUserRequestEpochMillis\":\"soon\"}")).isZero();
  }
}
