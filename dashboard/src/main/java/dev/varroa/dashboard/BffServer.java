package dev.varroa.dashboard;

import dev.varroa.dashboard.access.AccessPolicyView;
import dev.varroa.dashboard.actions.ClusterActions;
import dev.varroa.dashboard.api.ActionApiServlet;
import dev.varroa.dashboard.api.CookieSecurity;
import dev.varroa.dashboard.api.LiveStreams;
import dev.varroa.dashboard.api.LoginServlet;
import dev.varroa.dashboard.api.ManifestCheckServlet;
import dev.varroa.dashboard.api.ReadApiServlet;
import dev.varroa.dashboard.http.InternalErrorFilter;
import dev.varroa.dashboard.http.LoginRateLimit;
import dev.varroa.dashboard.http.NoSniffFilter;
import dev.varroa.dashboard.http.SameOriginCheck;
import dev.varroa.dashboard.identity.AuthorizationCodeLogin;
import dev.varroa.dashboard.identity.BearerTokenVerifier;
import dev.varroa.dashboard.identity.CallerAuthenticator;
import dev.varroa.dashboard.identity.IssuerEndpoints;
import dev.varroa.dashboard.identity.OidcSettings;
import dev.varroa.dashboard.identity.SessionStore;
import dev.varroa.dashboard.manifests.OperatorManifestCheck;
import dev.varroa.dashboard.reads.DashboardReads;
import dev.varroa.dashboard.reads.RecordReads;
import dev.varroa.dashboard.ui.WebClient;
import io.nats.client.Connection;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.EnumSet;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.gzip.GzipHandler;

/**
 * The BFF's HTTP side on Jetty 12: the read API, the browser login, the MCP endpoint and the probes, on one port.
 * Built from its parts so tests and the demo run the same server as the image.
 */
public final class BffServer implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(BffServer.class);

  /** The JSON reads and the web client's files; the SSE streams and console logs are left out on purpose. */
  static final String[] COMPRESSED_PATHS = {"/ui/*", "/me", "/clusters", "/controllers", "/controllers/*", "/runs",
      "^/runs/[^/]+$", "/activity", "/search", "/broodoperations", "/broodoperations/*", "/broodschedules",
      "/cells", "/teams"};

  private final Server jetty;
  private final AccessPolicyView policy;

  private BffServer(Server jetty, AccessPolicyView policy) {
    this.jetty = jetty;
    this.policy = policy;
  }

  /** What the server is made of; the record store and live streams are optional. */
  public record Parts(Supplier<Connection> nats, BooleanSupplier natsConnected, String coreCluster,
      OidcSettings oidc, IssuerEndpoints issuer, RecordReads records, LiveStreamsFactory live, McpMount mcp) {}

  /** The live streams need the reads (for grants and labels). */
  @FunctionalInterface
  public interface LiveStreamsFactory {
    LiveStreams create(DashboardReads reads);
  }

  /** Adds the MCP endpoint to the context; the tools read through the same reads. */
  @FunctionalInterface
  public interface McpMount {
    void mount(ServletContextHandler context, DashboardReads reads, BearerTokenVerifier tokens);

    static McpMount none() {
      return (context, reads, tokens) -> {};
    }
  }

  public static BffServer start(int port, Parts parts, Clock clock) throws Exception {
    return start(port, parts, clock, LoginRateLimit.Settings.defaults());
  }

  /** @param loginLimit how many logins one client address may start a minute, and who may name the client */
  public static BffServer start(int port, Parts parts, Clock clock, LoginRateLimit.Settings loginLimit)
      throws Exception {
    AccessPolicyView policy = new AccessPolicyView(parts.nats()).start();
    DashboardReads reads = new DashboardReads(parts.nats(), policy, parts.coreCluster(), parts.records(), clock);
    OidcSettings oidc = parts.oidc();
    BearerTokenVerifier tokens = new BearerTokenVerifier(parts.issuer().issuer(), oidc.audiences(),
        parts.issuer().jwks(), oidc.usernameClaim(), oidc.groupsClaim(), clock);
    SessionStore sessions = new SessionStore(clock);
    AuthorizationCodeLogin login = new AuthorizationCodeLogin(oidc, parts.issuer(), tokens, clock);

    Server jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setPort(port);
    jetty.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    context.addServlet(new ServletHolder("probe-live", new Probe(() -> true)), "/healthz");
    context.addServlet(new ServletHolder("probe-ready", new Probe(() -> parts.natsConnected().getAsBoolean()
        && policy.loaded())), "/readyz");
    filter(context, new InternalErrorFilter());
    filter(context, new NoSniffFilter());
    context.addServlet(new ServletHolder("login", new LoginServlet(login, sessions, java.util.Map.of(
        "issuer", parts.issuer().issuer(), "clientId", oidc.cliClientId(), "scopes", oidc.scopes(),
        "usernameClaim", oidc.usernameClaim()), new LoginRateLimit(loginLimit.perMinute(), System::nanoTime),
        loginLimit.proxies(), new SameOriginCheck(oidc.publicUrl()), cookieSecurity(oidc.publicUrl()))), "/auth/*");
    // The browser client at /ui/* and the redirect of the exact root; everything else is the API below.
    WebClient.mount(context);
    ServletHolder api = new ServletHolder("api", new ReadApiServlet(reads, new CallerAuthenticator(tokens, sessions),
        parts.live().create(reads)));
    api.setAsyncSupported(true);
    context.addServlet(api, "/*");
    // the one write route (docs/actions.md): an exact path, so it wins over the read API's "/*"
    context.addServlet(new ServletHolder("actions", new ActionApiServlet(new ClusterActions(parts.nats(),
        parts.coreCluster(), reads::grants, clock), new CallerAuthenticator(tokens, sessions))), "/actions");
    context.addServlet(new ServletHolder("manifest-check", new ManifestCheckServlet(
        new OperatorManifestCheck(parts.nats(), parts.coreCluster()), new CallerAuthenticator(tokens, sessions))),
        ManifestCheckServlet.PATH);
    parts.mcp().mount(context, reads, tokens);
    jetty.setHandler(compressed(context));
    jetty.start();
    return new BffServer(jetty, policy);
  }

  /** On every route, async ones (SSE, MCP) included. */
  private static void filter(ServletContextHandler context, Filter filter) {
    FilterHolder holder = new FilterHolder(filter);
    holder.setAsyncSupported(true);
    context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
  }

  /**
   * Gzip for the web client's files and the JSON reads, which shrink several times over; never for the SSE streams
   * and console logs, where a compressor would hold back bytes the reader is waiting for.
   */
  static GzipHandler compressed(ServletContextHandler context) {
    GzipHandler gzip = new GzipHandler();
    gzip.setIncludedPaths(COMPRESSED_PATHS);
    gzip.setHandler(context);
    return gzip;
  }

  public int port() {
    return ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
  }

  public String url() {
    return "http://localhost:" + port();
  }

  @Override
  public void close() throws Exception {
    jetty.stop();
    policy.close();
  }

  /** /healthz and /readyz: 200 "ok", or 503 with what is missing. */
  private static final class Probe extends HttpServlet {
    private final BooleanSupplier ready;

    Probe(BooleanSupplier ready) {
      this.ready = ready;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
      boolean ok = ready.getAsBoolean();
      response.setStatus(ok ? 200 : 503);
      response.setContentType("text/plain");
      response.getWriter().write(ok ? "ok\n" : "waiting for NATS and the access policy (varroa_access)\n");
    }
  }

  private static CookieSecurity cookieSecurity(java.net.URI publicUrl) {
    CookieSecurity cookies = CookieSecurity.forPublicUrl(publicUrl);
    if (!cookies.secure()) {
      LOG.warn("event=dashboard_plain_http public_url={} effect=\"cookies without Secure, or browsers would refuse"
          + " them and no login could complete\" fix=\"serve the dashboard over https (dashboard.ingress.tls)\"",
          publicUrl);
    }
    return cookies;
  }
}
