package dev.varroa.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.bus.v1.ActionRequest;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PipelineRunsResponderTest {

  private static ActionRequest.Builder valid() {
    return ActionRequest.newBuilder().setRequestId(UUID.randomUUID().toString()).setVerb("pipeline-run")
        .setCluster("core").setNamespace("tenants").setName("alpha").setPipeline("build").putParameters("BRANCH", "main");
  }

  @Test
  void takesACompleteRequest() {
    assertThat(PipelineRunsResponder.problem(valid().build())).isEmpty();
  }

  @Test
  void namesEachMissingFieldAndWhatToPutThere() {
    assertThat(PipelineRunsResponder.problem(valid().clearCluster().build())).get().asString()
        .contains("ActionRequest.cluster", "is empty", "the Team's cluster");
    assertThat(PipelineRunsResponder.problem(valid().clearNamespace().build())).get().asString()
        .contains("ActionRequest.namespace", "the Team's namespace");
    assertThat(PipelineRunsResponder.problem(valid().clearName().build())).get().asString()
        .contains("ActionRequest.name", "the Team's name");
    assertThat(PipelineRunsResponder.problem(valid().clearPipeline().build())).get().asString()
        .contains("ActionRequest.pipeline", "spec.pipelines");
  }

  @Test
  void refusesAnotherVerbANonUuidIdAnEmptyParameterNameAndAPreview() {
    assertThat(PipelineRunsResponder.problem(valid().setVerb("drain").build())).get().asString()
        .contains("verb 'drain'", "send verb pipeline-run");
    assertThat(PipelineRunsResponder.problem(valid().setRequestId("42").build())).get().asString()
        .contains("request_id '42' is not a UUID");
    assertThat(PipelineRunsResponder.problem(valid().putParameters("", "x").build())).get().asString()
        .contains("empty name", "NAME=VALUE");
    assertThat(PipelineRunsResponder.problem(valid().setPreview(true).build())).get().asString()
        .contains("has no preview");
  }

  @Test
  void namesTheWakeOutcomesAsTheProtocolSpellsThem() {
    assertThat(PipelineRunsResponder.wakeName(CellWakes.Outcome.NOT_PARKED)).isEqualTo("not-parked");
    assertThat(PipelineRunsResponder.wakeName(CellWakes.Outcome.UNANSWERED)).isEqualTo("unanswered");
  }
}
