package dev.varroa.testfixtures.jenkins;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * {@code GET /wsagents/}, jenkins.agents.WebSocketAgents#doIndex (an UnprotectedRootAction): an inbound agent in
 * WebSocket mode presents {@code Node-Name}, {@code Secret-Key} and {@code X-Remoting-Capability}. Missing headers
 * answer 400 "This endpoint is only for use from agent.jar in WebSocket mode"; a name the agent database does not
 * know answers 400 "no such agent"; a wrong secret answers 403 without a message (HttpResponses#forbidden). A good
 * one is upgraded to a WebSocket (101, RFC 6455 handshake) with Jenkins' remoting headers; the fixture does not speak
 * the remoting channel after that, so the agent counts as connected from the handshake on.
 */
final class WebSocketAgentsRoute {

    static final String PATH = "/wsagents";
    // JnlpConnectionState.CLIENT_NAME_KEY / SECRET_KEY, hudson.remoting.Capability.KEY
    static final String NODE_NAME = "Node-Name";
    static final String SECRET_KEY = "Secret-Key";
    static final String REMOTING_CAPABILITY = "X-Remoting-Capability";
    // hudson.remoting.Engine.REMOTING_MINIMUM_VERSION_HEADER / WEBSOCKET_COOKIE_HEADER
    static final String REMOTING_MINIMUM_VERSION = "X-Remoting-Minimum-Version";
    static final String CONNECTION_COOKIE = "Connection-Cookie";
    static final String INCOMPLETE_HEADERS = "This endpoint is only for use from agent.jar in WebSocket mode";
    static final String NO_SUCH_AGENT = "no such agent";
    // RFC 6455 section 1.3
    private static final String WEBSOCKET_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    // What RemotingVersionInfo#getMinimumSupportedVersion reports in a current Jenkins; agents only compare it.
    private static final String MINIMUM_REMOTING_VERSION = "3107.v665000b_51092";
    private static final SecureRandom RANDOM = new SecureRandom();

    private WebSocketAgentsRoute() {
    }

    /** The answer to one agent's connection attempt; the caller records it. */
    static HttpReply answer(IncomingRequest request, AgentDatabase agents, AgentConnections connections) {
        String agent = request.header(NODE_NAME);
        String secret = request.header(SECRET_KEY);
        String capability = request.header(REMOTING_CAPABILITY);
        if (agent == null || secret == null || capability == null) {
            return refuse(connections, agent, 400, INCOMPLETE_HEADERS, request);
        }
        if (!agents.exists(agent)) {
            return refuse(connections, agent, 400, NO_SUCH_AGENT, request);
        }
        if (!MessageDigest.isEqual(secret.getBytes(StandardCharsets.US_ASCII),
                agents.secretOf(agent).getBytes(StandardCharsets.US_ASCII))) {
            connections.attempted(new AgentConnection(agent, 403, ""));
            return HttpReply.empty(403);
        }
        String key = request.header("Sec-WebSocket-Key");
        if (key == null) {
            // Jetty's upgrade needs a WebSocket handshake; agent.jar always sends one
            return refuse(connections, agent, 400, "Bad Request", request);
        }
        String cookie = request.header(CONNECTION_COOKIE);
        connections.connected(new AgentConnection(agent, 101, ""));
        return HttpReply.empty(101)
                .header("Upgrade", "websocket")
                .header("Connection", "Upgrade")
                .header("Sec-WebSocket-Accept", accept(key))
                .header(REMOTING_CAPABILITY, capability)
                .header(REMOTING_MINIMUM_VERSION, MINIMUM_REMOTING_VERSION)
                .header(CONNECTION_COOKIE, cookie != null ? cookie : newCookie());
    }

    private static HttpReply refuse(AgentConnections connections, String agent, int status, String message,
                                    IncomingRequest request) {
        connections.attempted(new AgentConnection(agent, status, message));
        return HttpReply.sendError(status, message, request.path());
    }

    private static String accept(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1")
                    .digest((key.strip() + WEBSOCKET_GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every Java runtime", e);
        }
    }

    // JnlpAgentReceiver#generateCookie: 32 random bytes as hex
    private static String newCookie() {
        byte[] cookie = new byte[32];
        RANDOM.nextBytes(cookie);
        return HexFormat.of().formatHex(cookie);
    }

    /** Where the route reports each attempt; the fixture keeps them. */
    interface AgentConnections {
        void attempted(AgentConnection refused);

        void connected(AgentConnection accepted);
    }
}
