package dev.varroa.dashboard.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.dashboard.access.Permission;
import dev.varroa.dashboard.identity.Caller;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The action shape: a request id, a verb and a target read from a POST body, every bad field named. */
class ActionTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Caller ALICE = new Caller("alice", List.of("ops"));
  private static final String ID = "3f2b8c1e-5d4a-4c6b-9e7f-0a1b2c3d4e5f";

  @Test
  void readsARequestIdAVerbAndAClusterTargetWithTheCaller() throws Exception {
    Action action = Action.parse(body("{\"requestId\": \"" + ID.toUpperCase() + "\", \"verb\": \"drain\","
        + " \"target\": {\"cluster\": \"east\"}}"), ALICE);

    assertThat(action.requestId()).isEqualTo(ID);
    assertThat(action.verb()).isEqualTo(ActionVerb.DRAIN);
    assertThat(action.target()).isEqualTo(ActionTarget.cluster("east"));
    assertThat(action.caller()).isEqualTo(ALICE);
    assertThat(action.preview()).isFalse();
  }

  @Test
  void drainAndItsCancelNeedTheDrainVerbOnClusters() {
    assertThat(ActionVerb.DRAIN.permission()).isEqualTo(Permission.of("drain", "clusters"));
    assertThat(ActionVerb.CANCEL_DRAIN.permission()).isEqualTo(Permission.of("drain", "clusters"));
    assertThat(ActionVerb.of("cancel-drain")).contains(ActionVerb.CANCEL_DRAIN);
  }

  @Test
  void rejectsARequestIdThatIsNotAUuidNamingTheField() {
    assertRefused("{\"requestId\": \"42\", \"verb\": \"drain\", \"target\": {\"cluster\": \"east\"}}", "requestId",
        "'42' is not a UUID");
  }

  @Test
  void rejectsAnUnknownVerbListingTheKnownOnes() {
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"delete\", \"target\": {\"cluster\": \"east\"}}",
        "verb", "use one of: drain, cancel-drain, broodop-create, broodop-pause, broodop-resume, broodop-cancel,"
            + " broodop-delete, cellpool-scale");
  }

  @Test
  void aPipelineRunNamesTheTeamAndCarriesThePipelineAndItsParametersInOrder() throws Exception {
    Action run = Action.parse(body("{\"requestId\": \"" + ID + "\", \"verb\": \"pipeline-run\", \"target\":"
        + " {\"cluster\": \"eu-1\", \"namespace\": \"tenant-a\", \"name\": \"payments\"}, \"pipeline\":"
        + " \"deploy\", \"parameters\": {\"VERSION\": \"1.4.2\", \"OPTS\": \"-Dx=1\"}}"), ALICE);
    assertThat(run.verb().permission()).isEqualTo(Permission.of("trigger", "pipelines"));
    assertThat(run.verb().kind()).isEqualTo("Team");
    assertThat(run.target()).isEqualTo(new ActionTarget("eu-1", "tenant-a", "payments"));
    assertThat(run.pipeline()).isEqualTo("deploy");
    assertThat(run.parameters()).containsExactly(java.util.Map.entry("VERSION", "1.4.2"),
        java.util.Map.entry("OPTS", "-Dx=1"));
  }

  @Test
  void rejectsAPipelineRunWithoutAPipelineOrWithParametersThatAreNotStrings() {
    String target = "\"target\": {\"cluster\": \"eu-1\", \"namespace\": \"tenant-a\", \"name\": \"payments\"}";
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"pipeline-run\", " + target + "}", "pipeline",
        "lists the pipelines of Team tenant-a/payments");
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"pipeline-run\", " + target + ", \"pipeline\":"
        + " \"deploy\", \"parameters\": {\"DRY\": true}}", "parameters.DRY", "must be a string");
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"drain\", \"target\": {\"cluster\": \"east\"},"
        + " \"parameters\": {}}", "parameters", "only for pipeline-run");
  }

  @Test
  void aBroodVerbNamesTheOperationAndACreateCarriesItsManifest() throws Exception {
    Action pause = Action.parse(body("{\"requestId\": \"" + ID + "\", \"verb\": \"broodop-pause\", \"target\":"
        + " {\"cluster\": \"core\", \"namespace\": \"ci\", \"name\": \"wave.1\"}}"), ALICE);
    assertThat(pause.target()).isEqualTo(new ActionTarget("core", "ci", "wave.1"));
    assertThat(pause.verb().permission()).isEqualTo(Permission.of("update", "broodoperations"));
    Action create = Action.parse(body("{\"requestId\": \"" + ID + "\", \"verb\": \"broodop-create\", \"target\":"
        + " {\"cluster\": \"core\"}, \"manifest\": \"kind: BroodOperation\"}"), ALICE);
    assertThat(create.target()).as("a create without namespace goes to default")
        .isEqualTo(new ActionTarget("core", "default", ""));
    assertThat(create.manifest()).isEqualTo("kind: BroodOperation");
    assertThat(create.verb().permission()).isEqualTo(Permission.of("create", "broodoperations"));
    assertThat(ActionVerb.BROODOP_DELETE.permission()).isEqualTo(Permission.of("delete", "broodoperations"));
  }

  @Test
  void rejectsABroodVerbWithoutItsOperationOrWithAStrayManifest() {
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"broodop-cancel\", \"target\": {\"cluster\":"
        + " \"core\", \"namespace\": \"ci\"}}", "target.name", "is not a BroodOperation name");
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"broodop-cancel\", \"target\": {\"cluster\":"
        + " \"core\", \"name\": \"wave\"}}", "target.namespace", "is not a namespace name");
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"broodop-create\", \"target\": {\"cluster\":"
        + " \"core\"}}", "manifest", "the BroodOperation to create");
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"broodop-pause\", \"target\": {\"cluster\":"
        + " \"core\", \"namespace\": \"ci\", \"name\": \"wave\"}, \"manifest\": \"x\"}", "manifest",
        "only for broodop-create");
  }

  @Test
  void cellpoolScaleNamesThePoolAndCarriesItsReplicasAndNeedsUpdateOnCellpools() throws Exception {
    Action scale = Action.parse(body("{\"requestId\": \"" + ID + "\", \"verb\": \"cellpool-scale\", \"target\":"
        + " {\"cluster\": \"east\", \"namespace\": \"tenant-b\", \"name\": \"ci\"}, \"replicas\": 0}"), ALICE);
    assertThat(scale.target()).isEqualTo(new ActionTarget("east", "tenant-b", "ci"));
    assertThat(scale.replicas()).contains(0);
    assertThat(scale.verb().permission()).isEqualTo(Permission.of("update", "cellpools"));
    assertThat(scale.verb().namespaced()).isTrue();
    assertThat(ActionVerb.DRAIN.namespaced()).isFalse();
    assertThat(Action.parse(body("{\"requestId\": \"" + ID + "\", \"verb\": \"broodop-pause\", \"target\":"
        + " {\"cluster\": \"core\", \"namespace\": \"ci\", \"name\": \"wave\"}}"), ALICE).replicas()).isEmpty();
  }

  @Test
  void rejectsACellpoolScaleWithoutReplicasOrOutOfRangeAndReplicasOnAnotherVerb() {
    String target = ", \"target\": {\"cluster\": \"east\", \"namespace\": \"tenant-b\", \"name\": \"ci\"}";
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"cellpool-scale\"" + target + "}", "replicas",
        "0 to 500, not missing");
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"cellpool-scale\"" + target + ", \"replicas\": 501}",
        "replicas", "0 to 500, not 501");
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"cellpool-scale\"" + target + ", \"replicas\": \"3\"}",
        "replicas", "0 to 500");
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"cellpool-scale\"" + target + ", \"replicas\": -1}",
        "replicas", "0 to 500");
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"cellpool-scale\", \"target\": {\"cluster\":"
        + " \"east\", \"namespace\": \"tenant-b\"}, \"replicas\": 2}", "target.name", "is not a CellPool name");
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"broodop-pause\", \"target\": {\"cluster\":"
        + " \"core\", \"namespace\": \"ci\", \"name\": \"wave\"}, \"replicas\": 2}", "replicas",
        "only for cellpool-scale");
  }

  @Test
  void rejectsAMissingOrMalformedClusterAndANonBooleanPreview() {
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"drain\"}", "target.cluster", "not a cluster name");
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"drain\", \"target\": {\"cluster\": \"East_1\"}}",
        "target.cluster", "'East_1'");
    assertRefused("{\"requestId\": \"" + ID + "\", \"verb\": \"drain\", \"target\": {\"cluster\": \"east\"},"
        + " \"preview\": \"yes\"}", "preview", "true or false");
    assertRefused("[1]", "body", "JSON object");
  }

  @Test
  void aRefusalCarriesItsStatusAndAuditOutcome() {
    ActionRefused conflict = ActionRefused.conflict("cluster eu-1 is the core cluster", java.util.Map.of());
    assertThat(conflict.status()).isEqualTo(409);
    assertThat(conflict.outcome()).isEqualTo("refused");
    assertThat(ActionRefused.browser().status()).isEqualTo(403);
    assertThat(ActionRefused.unavailable("no answer").outcome()).isEqualTo("failed");
  }

  private static void assertRefused(String body, String field, String message) {
    assertThatThrownBy(() -> Action.parse(body(body), ALICE)).isInstanceOfSatisfying(ActionRefused.class, refused -> {
      assertThat(refused.status()).isEqualTo(400);
      assertThat(refused.body()).containsEntry("field", field);
      assertThat(refused.getMessage()).contains(message);
    });
  }

  private static JsonNode body(String json) throws Exception {
    return JSON.readTree(json);
  }
}
