package dev.varroa.testfixtures.jenkins;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plays an inbound agent (agent.jar in WebSocket mode, hudson.remoting.Engine#runWebSocket) as far as the handshake:
 * it opens {@code ws://<jenkins>/wsagents/} with the {@code Node-Name}, {@code Secret-Key} and
 * {@code X-Remoting-Capability} headers and reports how Jenkins answered. Works against the {@link JenkinsFixture}
 * and, for the handshake, against a real Jenkins.
 */
public final class InboundAgent {

    /** How long a handshake may take; the fixture answers within milliseconds. */
    public static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    // A capability string as agent.jar sends it (Capability#toASCII); the fixture only checks that it is there.
    private static final String CAPABILITY = "AAAAAAAAAAB/";
    // Jetty's error page (HttpReply#sendError) puts the message in its MESSAGE row.
    private static final Pattern ERROR_MESSAGE = Pattern.compile("(?s)MESSAGE:</th><td>(.*?)</td>");

    private InboundAgent() {
    }

    /** Attempts the agent's WebSocket handshake; never throws for a refusal, which comes back as the answer. */
    public static AgentConnection connect(URI jenkinsUrl, String nodeName, String secret) {
        URI endpoint = URI.create(jenkinsUrl.toString().replaceFirst("^http", "ws")).resolve("wsagents/");
        HttpClient http = HttpClient.newBuilder().connectTimeout(HANDSHAKE_TIMEOUT).build();
        try {
            WebSocket socket = http.newWebSocketBuilder()
                    .header(WebSocketAgentsRoute.NODE_NAME, nodeName)
                    .header(WebSocketAgentsRoute.SECRET_KEY, secret)
                    .header(WebSocketAgentsRoute.REMOTING_CAPABILITY, CAPABILITY)
                    .connectTimeout(HANDSHAKE_TIMEOUT)
                    .buildAsync(endpoint, new WebSocket.Listener() { })
                    .get(HANDSHAKE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            // the fixture does not speak the remoting channel: the handshake is all there is to check
            socket.abort();
            return new AgentConnection(nodeName, 101, "");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof WebSocketHandshakeException refused) {
                HttpResponse<?> response = refused.getResponse();
                return new AgentConnection(nodeName, response.statusCode(), message(response.body()));
            }
            throw new IllegalStateException("agent " + nodeName + " could not reach " + endpoint + ": " + e.getCause(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("agent " + nodeName + " got no handshake answer from " + endpoint
                    + " within " + HANDSHAKE_TIMEOUT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while agent " + nodeName + " connected to " + endpoint, e);
        }
    }

    private static String message(Object body) {
        String text = body == null ? "" : body.toString();
        Matcher matcher = ERROR_MESSAGE.matcher(text);
        return matcher.find() ? matcher.group(1) : text.strip();
    }
}
