package dev.varroa.testfixtures.jenkins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 15 (seed 003): agents kept in JENKINS_HOME, their secrets, and their reconnect through /wsagents/. */
class InboundAgentsTest {

    private static final String GOOD_JWT = "good.jwt.signature";
    private static final Path KEY_FILE = Path.of("secrets", "jenkins.slaves.JnlpSlaveAgentProtocol.secret");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aFixtureStartedAgainOnTheSameHomeKeepsItsAgentsAndLetsThemReconnect() {
        Path home = dir.resolve("jenkins-home");
        String secret;
        try (JenkinsFixture first = JenkinsFixture.startOn(home)) {
            secret = first.addAgent("maven-k8s-7xq2p");
            assertThat(InboundAgent.connect(first.url(), "maven-k8s-7xq2p", secret).accepted()).isTrue();
        }

        try (JenkinsFixture second = JenkinsFixture.startOn(home)) {
            AgentConnection reconnect = InboundAgent.connect(second.url(), "maven-k8s-7xq2p", secret);

            assertThat(second.agents()).containsExactly("maven-k8s-7xq2p");
            assertThat(reconnect).isEqualTo(new AgentConnection("maven-k8s-7xq2p", 101, ""));
            assertThat(second.connectedAgents()).containsExactly("maven-k8s-7xq2p");
            assertThat(second.agentConnections()).containsExactly(reconnect);
        }
    }

    @Test
    void aFixtureStartedOnAnEmptyHomeRefusesTheAgentAsUnknown() {
        String secret;
        try (JenkinsFixture old = JenkinsFixture.startOn(dir.resolve("old-home"))) {
            secret = old.addAgent("maven-k8s-7xq2p");
        }

        try (JenkinsFixture fresh = JenkinsFixture.startOn(dir.resolve("empty-home"))) {
            AgentConnection refused = InboundAgent.connect(fresh.url(), "maven-k8s-7xq2p", secret);

            assertThat(fresh.agents()).isEmpty();
            assertThat(refused.accepted()).isFalse();
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.refusal()).isEqualTo("no such agent");
            assertThat(fresh.connectedAgents()).isEmpty();
            assertThat(fresh.agentConnections()).containsExactly(
                    new AgentConnection("maven-k8s-7xq2p", 400, "no such agent"));
        }
    }

    @Test
    void refusesAKnownAgentWithTheWrongSecretWith403() {
        try (JenkinsFixture jenkins = JenkinsFixture.start()) {
            jenkins.addAgent("arm64-builder");
            String otherHomesSecret;
            try (JenkinsFixture other = JenkinsFixture.start()) {
                otherHomesSecret = other.addAgent("arm64-builder");
            }

            AgentConnection refused = InboundAgent.connect(jenkins.url(), "arm64-builder", otherHomesSecret);

            assertThat(refused.status()).isEqualTo(403);
            assertThat(jenkins.connectedAgents()).isEmpty();
        }
    }

    @Test
    void answers400ToARequestWithoutTheAgentHeaders() throws Exception {
        try (JenkinsFixture jenkins = JenkinsFixture.start()) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(jenkins.url().resolve("wsagents/")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(response.body()).contains("This endpoint is only for use from agent.jar in WebSocket mode");
        }
    }

    @Test
    void writesTheAgentAsJenkinsDoesAndTheSecretIsTheHmacOfItsNameUnderTheHomesKey() throws Exception {
        Path home = dir.resolve("jenkins-home");
        try (JenkinsFixture jenkins = JenkinsFixture.startOn(home)) {
            String secret = jenkins.addAgent("arm64-builder");

            byte[] key = Files.readAllBytes(home.resolve(KEY_FILE));
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            assertThat(key).hasSize(32);
            assertThat(secret).isEqualTo(HexFormat.of().formatHex(mac.doFinal("arm64-builder".getBytes(StandardCharsets.UTF_8))));
            assertThat(jenkins.agentSecret("arm64-builder")).isEqualTo(secret);
            assertThat(Files.readString(home.resolve("nodes/arm64-builder/config.xml")))
                    .contains("<name>arm64-builder</name>", "hudson.slaves.JNLPLauncher");
        }
    }

    @Test
    void loadsAgentsAnotherJenkinsWroteIntoNodes() throws Exception {
        Path home = dir.resolve("restored-home");
        Files.createDirectories(home.resolve("nodes/maven-k8s-abc12"));
        Files.writeString(home.resolve("nodes/maven-k8s-abc12/config.xml"), """
                <?xml version='1.1' encoding='UTF-8'?>
                <org.csanchez.jenkins.plugins.kubernetes.KubernetesSlave plugin="kubernetes@4306.vc91e951ea_eb_d">
                  <name>maven-k8s-abc12</name>
                  <remoteFS>/home/jenkins/agent</remoteFS>
                  <numExecutors>1</numExecutors>
                </org.csanchez.jenkins.plugins.kubernetes.KubernetesSlave>
                """);
        Files.createDirectories(home.resolve("secrets"));
        Files.write(home.resolve(KEY_FILE), new byte[32]);

        try (JenkinsFixture jenkins = JenkinsFixture.startOn(home)) {
            assertThat(jenkins.agents()).containsExactly("maven-k8s-abc12");
            assertThat(Files.readAllBytes(home.resolve(KEY_FILE))).isEqualTo(new byte[32]);
        }
    }

    @Test
    void listsAgentComputersBesideTheBuiltInNodeOfflineUntilTheyConnect() throws Exception {
        try (JenkinsFixture jenkins = JenkinsFixture.start()) {
            jenkins.bearerTokenAccepted(GOOD_JWT::equals);
            String secret = jenkins.addAgent("b-agent");
            jenkins.addAgent("a-agent");
            InboundAgent.connect(jenkins.url(), "b-agent", secret);

            JsonNode computers = computerApi(jenkins, "computer/api/json?tree=totalExecutors,computer[displayName,offline]");

            assertThat(computers.get("computer")).extracting(c -> c.get("_class").asText() + " "
                    + c.get("displayName").asText() + " offline=" + c.get("offline").asBoolean()).containsExactly(
                    "hudson.model.Hudson$MasterComputer Built-In Node offline=false",
                    "hudson.slaves.SlaveComputer a-agent offline=true",
                    "hudson.slaves.SlaveComputer b-agent offline=false");
            assertThat(computers.get("totalExecutors").asInt()).isEqualTo(JenkinsFixture.BUILT_IN_NODE_EXECUTORS + 1);
        }
    }

    @Test
    void removingAnAgentDeletesItsFolderAndItIsUnknownAfterARestart() {
        Path home = dir.resolve("jenkins-home");
        String secret;
        try (JenkinsFixture jenkins = JenkinsFixture.startOn(home)) {
            secret = jenkins.addAgent("gone");
            jenkins.addAgent("kept");

            assertThat(jenkins.removeAgent("gone")).isTrue();
            assertThat(jenkins.removeAgent("never-there")).isFalse();
            assertThat(home.resolve("nodes/gone")).doesNotExist();
        }
        try (JenkinsFixture restarted = JenkinsFixture.startOn(home)) {
            assertThat(restarted.agents()).containsExactly("kept");
            assertThat(InboundAgent.connect(restarted.url(), "gone", secret).status()).isEqualTo(400);
        }
    }

    @Test
    void refusesAgentNamesJenkinsRefuses() {
        try (JenkinsFixture jenkins = JenkinsFixture.start()) {
            assertThatThrownBy(() -> jenkins.addAgent("../escape")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unsafe character");
            assertThatThrownBy(() -> jenkins.addAgent("..")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> jenkins.addAgent(" ")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static JsonNode computerApi(JenkinsFixture jenkins, String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(jenkins.url().resolve(path))
                .header("Authorization", "Bearer " + GOOD_JWT).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
