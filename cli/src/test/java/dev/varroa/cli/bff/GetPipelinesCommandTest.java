package dev.varroa.cli.bff;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The last run's result in words: the result, running, queued, or a dash without a recorded run. */
class GetPipelinesCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode run(String json) throws Exception {
    return JSON.readTree("{\"lastRun\": " + json + "}").path("lastRun");
  }

  @Test
  void saysTheResultRunningQueuedOrNothing() throws Exception {
    assertThat(GetPipelinesCommand.lastResult(
        run("{\"result\": \"FAILURE\", \"startedAt\": \"2026-12-05T01:00:00Z\"}"))).isEqualTo("FAILURE");
    assertThat(GetPipelinesCommand.lastResult(run("{\"result\": null, \"startedAt\": \"2026-12-05T01:00:00Z\"}")))
        .isEqualTo("running");
    assertThat(GetPipelinesCommand.lastResult(run("{\"result\": null, \"startedAt\": null}"))).isEqualTo("queued");
    assertThat(GetPipelinesCommand.lastResult(run("null"))).isEqualTo("-");
  }
}
