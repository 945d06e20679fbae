package dev.varroa.dashboard.mcp;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.dashboard.api.JsonResponses;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * The MCP endpoint's JSON: the BFF's mapper, except that the server's capabilities never name {@code logging}.
 * The Java MCP SDK (2.1.0) adds {@code logging} to every server's capabilities, but this server sends no log
 * messages: a client that saw it would ask for log levels and wait for messages that never come.
 */
final class ToolsOnlyJson {

  private ToolsOnlyJson() {}

  /** A copy of the BFF's mapper that leaves {@code logging} out of {@code ServerCapabilities}. */
  static ObjectMapper objectMapper() {
    return JsonResponses.JSON.copy().addMixIn(McpSchema.ServerCapabilities.class, WithoutLogging.class);
  }

  static JacksonMcpJsonMapper mcpMapper() {
    return new JacksonMcpJsonMapper(objectMapper());
  }

  @JsonIgnoreProperties({"logging"})
  private abstract static class WithoutLogging {}
}
