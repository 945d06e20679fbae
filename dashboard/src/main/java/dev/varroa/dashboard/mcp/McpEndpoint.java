package dev.varroa.dashboard.mcp;

import dev.varroa.dashboard.BffServer;
import dev.varroa.dashboard.actions.ClusterActions;
import dev.varroa.dashboard.identity.BearerTokenVerifier;
import dev.varroa.dashboard.reads.DashboardReads;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletHolder;

/**
 * The BFF's MCP endpoint: Streamable HTTP at {@value #PATH} on the BFF's port, read-only tools over the same reads as
 * the HTTP API and the drain and pipeline-run actions as POST /actions carries them out, every request authenticated by the same bearer ID token and every call run as its caller.
 */
public final class McpEndpoint {

  public static final String PATH = "/mcp";
  static final String SERVER_NAME = "varroa-dashboard";

  private McpEndpoint() {}

  /** The endpoint without console logs: get_run_log_tail says they are not served. */
  public static BffServer.McpMount mount() {
    return mount(Optional.empty());
  }

  /** The endpoint with get_run_log_tail reading through the given console log store. */
  public static BffServer.McpMount mount(McpLogTail logs) {
    return mount(Optional.of(logs));
  }

  private static BffServer.McpMount mount(Optional<McpLogTail> logs) {
    return (context, reads, tokens) -> {
      JacksonMcpJsonMapper json = ToolsOnlyJson.mcpMapper();
      HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
          .jsonMapper(json).mcpEndpoint(PATH)
          // the filter has checked the token; each request's caller travels to the tool call it carries
          .contextExtractor(request -> {
            Object caller = request.getAttribute(BearerTokenFilter.CALLER_ATTRIBUTE);
            return caller == null ? McpTransportContext.EMPTY
                : McpTransportContext.create(Map.of(BearerTokenFilter.CALLER_ATTRIBUTE, caller));
          })
          .build();
      McpServer.sync(transport).jsonMapper(json)
          .serverInfo(SERVER_NAME, version())
          .instructions("Read-only views of the Jenkins controllers Varroa runs: controllers, activity, runs and "
              + "console log tails, filtered by the caller's VarroaRoleBindings; and two actions, drain_cluster "
              + "(docs/actions.md) and run_pipeline with get_pipeline_run (docs/pipelines.md), authorized and "
              + "audited like varroactl's.")
          .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
          .tools(tools(reads, logs))
          .build();
      FilterHolder filter = new FilterHolder(new BearerTokenFilter(tokens));
      filter.setName("mcp-bearer-token");
      filter.setAsyncSupported(true);
      context.addFilter(filter, PATH, EnumSet.of(DispatcherType.REQUEST));
      ServletHolder servlet = new ServletHolder("mcp", transport);
      servlet.setAsyncSupported(true);
      context.addServlet(servlet, PATH);
    };
  }

  private static java.util.List<io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification> tools(
      DashboardReads reads, Optional<McpLogTail> logs) {
    ClusterActions actions = new ClusterActions(reads.bus(), reads.coreCluster(), reads::grants, reads.clock());
    java.util.List<io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification> tools =
        new java.util.ArrayList<>(new ReadTools(reads, logs).all());
    tools.addAll(new ActionTools(actions).all());
    tools.addAll(new PipelineTools(actions, reads.pipelineRuns()).all());
    return tools;
  }

  private static String version() {
    String version = McpEndpoint.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
