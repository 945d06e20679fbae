package dev.varroa.testfixtures.jenkins;

/**
 * One attempt of an inbound agent to connect through {@code /wsagents/}, as jenkins.agents.WebSocketAgents#doIndex
 * answered it.
 *
 * @param nodeName the {@code Node-Name} header, or null when missing
 * @param status   101 when the handshake was accepted; 400 for incomplete headers or an unknown agent; 403 for a
 *                 wrong secret
 * @param refusal  the message Jenkins answered with, empty when accepted or when Jenkins sends none (403)
 */
public record AgentConnection(String nodeName, int status, String refusal) {

    public boolean accepted() {
        return status == 101;
    }
}
