package dev.varroa.dashboard.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

class ToolsOnlyJsonTest {

  @Test
  void initializeResultAdvertisesToolsButNotTheLoggingTheSdkAdds() throws Exception {
    // what the SDK's server answers initialize with: our tools capability plus the logging it always adds
    McpSchema.ServerCapabilities sdkCapabilities = McpSchema.ServerCapabilities.builder().tools(false).build()
        .mutate().logging().build();
    McpSchema.InitializeResult result = new McpSchema.InitializeResult("2025-06-18", sdkCapabilities,
        new McpSchema.Implementation(McpEndpoint.SERVER_NAME, "dev"), "instructions");

    JsonNode json = ToolsOnlyJson.objectMapper().valueToTree(result);

    assertThat(fieldNames(json.path("capabilities"))).containsExactly("tools");
    assertThat(json.path("serverInfo").path("name").asText()).isEqualTo(McpEndpoint.SERVER_NAME);
  }

  @Test
  void theBffsOwnMapperIsLeftAsItWas() {
    McpSchema.ServerCapabilities withLogging = McpSchema.ServerCapabilities.builder().tools(false).logging().build();

    JsonNode json = dev.varroa.dashboard.api.JsonResponses.JSON.valueToTree(withLogging);

    assertThat(fieldNames(json)).contains("logging", "tools");
  }

  static List<String> fieldNames(JsonNode node) {
    return StreamSupport.stream(((Iterable<String>) node::fieldNames).spliterator(), false).toList();
  }
}
