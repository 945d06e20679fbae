package dev.varroa.testfixtures.jenkins.standin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.varroa.plugin.PluginCore;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The stand-in's own routes under {@value #PREFIX}, which Jenkins has not (the Jenkins API stays the fixture's):
 * <ul>
 * <li>{@code GET /varroa-standin/} a page saying what this is; {@code GET /varroa-standin/api/json} the same as JSON:
 *     controller, version, played runs, applied configurations (those before a restart too), agents, the plugin
 *     core's spool and log copies;</li>
 * <li>{@code POST /varroa-standin/builds?job=<full name>[&lines=N][&seconds=S][&result=SUCCESS]} plays a build through
 *     the plugin core, answering 201 with the run once it started and {@code Location} its status;
 *     loopback only (in the pod: {@code kubectl exec -c jenkins ... curl}, or {@code kubectl port-forward}), 403 else;</li>
 * <li>{@code GET /varroa-standin/builds/<run id>} the run: state, result, log bytes, and what the plugin core still
 *     holds for the mite.</li>
 * <li>{@code POST /varroa-standin/agents?name=<node name>} adds an inbound agent as Jenkins#addNode does
 *     ({@code nodes/<name>/config.xml}), answering 201 with its name and secret; {@code GET /varroa-standin/agents/<name>}
 *     the agent's secret and whether Jenkins knows it (what an admin reads in {@code /computer/<name>/jenkins-agent.jnlp}).
 *     Both loopback only: the secret lets an agent connect.</li>
 * </ul>
 */
final class StandInRoutes implements HttpHandler {

    static final String PREFIX = "/varroa-standin";
    static final int DEFAULT_LINES = 200;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final JenkinsFixture jenkins;
    private final PluginCore core;
    private final PlayedBuilds builds;
    private final AppliedConfigurationLog configurations;
    private final StandInSettings settings;

    StandInRoutes(JenkinsFixture jenkins, PluginCore core, PlayedBuilds builds, AppliedConfigurationLog configurations,
                  StandInSettings settings) {
        this.jenkins = jenkins;
        this.core = core;
        this.builds = builds;
        this.configurations = configurations;
        this.settings = settings;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            String route = path.length() > PREFIX.length() ? path.substring(PREFIX.length()) : "/";
            String method = exchange.getRequestMethod();
            if (route.equals("/builds") || route.equals("/builds/")) {
                if (!method.equals("POST")) {
                    exchange.getResponseHeaders().set("Allow", "POST");
                    reply(exchange, 405, error("POST " + PREFIX + "/builds?job=<name> plays a build"));
                } else if (fromLoopback(exchange, "/builds?job=<name>")) {
                    startBuild(exchange);
                }
            } else if (route.equals("/agents") || route.equals("/agents/")) {
                if (!method.equals("POST")) {
                    exchange.getResponseHeaders().set("Allow", "POST");
                    reply(exchange, 405, error("POST " + PREFIX + "/agents?name=<node name> adds an inbound agent"));
                } else if (fromLoopback(exchange, "/agents?name=<node name>")) {
                    addAgent(exchange);
                }
            } else if (!method.equals("GET")) {
                exchange.getResponseHeaders().set("Allow", "GET");
                reply(exchange, 405, error(method + " " + path + " is not a stand-in route; see GET " + PREFIX + "/"));
            } else if (route.startsWith("/builds/")) {
                String runId = route.substring("/builds/".length());
                Optional<com.fasterxml.jackson.databind.JsonNode> run = builds.run(runId).map(this::runJson);
                if (run.isPresent()) {
                    reply(exchange, 200, run.get().toString());
                } else {
                    reply(exchange, 404, error("no played run " + runId + "; GET " + PREFIX + "/api/json lists them"));
                }
            } else if (route.startsWith("/agents/")) {
                if (fromLoopback(exchange, route)) {
                    String name = URLDecoder.decode(route.substring("/agents/".length()), StandardCharsets.UTF_8);
                    reply(exchange, 200, JSON.createObjectNode().put("name", name)
                            .put("known", jenkins.agents().contains(name)).put("secret", jenkins.agentSecret(name))
                            .toString());
                }
            } else if (route.equals("/api/json")) {
                reply(exchange, 200, status().toString());
            } else if (route.equals("/")) {
                page(exchange);
            } else {
                reply(exchange, 404, error("no stand-in route " + path + "; see GET " + PREFIX + "/"));
            }
        }
    }

    private void startBuild(HttpExchange exchange) throws IOException {
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        PlayedRun run;
        try {
            PlayedBuilds.Request request = new PlayedBuilds.Request(query.get("job"),
                    integer(query, "lines", DEFAULT_LINES), Duration.ofSeconds(integer(query, "seconds", 0)),
                    query.getOrDefault("result", "SUCCESS"));
            run = builds.start(request);
        } catch (IllegalArgumentException e) {
            reply(exchange, 400, error(e.getMessage()));
            return;
        }
        exchange.getResponseHeaders().set("Location", PREFIX + "/builds/" + run.runId());
        reply(exchange, 201, runJson(run).toString());
    }

    /** True from loopback; else answers 403 saying how to reach the route from inside the pod. */
    private static boolean fromLoopback(HttpExchange exchange, String route) throws IOException {
        if (exchange.getRemoteAddress().getAddress().isLoopbackAddress()) {
            return true;
        }
        reply(exchange, 403, error(PREFIX + route.replaceFirst("^/?", "/") + " answers on loopback only; from outside"
                + " the pod use 'kubectl exec <pod> -c jenkins -- curl http://127.0.0.1:8080" + PREFIX
                + route.replaceFirst("^/?", "/") + "' or 'kubectl port-forward'"));
        return false;
    }

    private void addAgent(HttpExchange exchange) throws IOException {
        String name = query(exchange.getRequestURI().getRawQuery()).get("name");
        String secret;
        try {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("name is missing: POST " + PREFIX + "/agents?name=<node name>");
            }
            secret = jenkins.addAgent(name);
        } catch (IllegalArgumentException e) {
            reply(exchange, 400, error(e.getMessage()));
            return;
        }
        exchange.getResponseHeaders().set("Location", PREFIX + "/agents/" + name);
        reply(exchange, 201, JSON.createObjectNode().put("name", name).put("secret", secret).toString());
    }

    private ObjectNode runJson(PlayedRun run) {
        return JSON.createObjectNode()
                .put("runId", run.runId())
                .put("job", run.job())
                .put("number", run.number())
                .put("state", run.state())
                .put("result", run.result())
                .put("logBytes", run.logBytes())
                .put("spoolPendingEvents", core.spool().status().pendingEvents())
                .put("logCopiesPending", core.logs().status().runs());
    }

    ObjectNode status() {
        ObjectNode status = JSON.createObjectNode()
                .put("standIn", true)
                .put("what", StandInBanner.WHAT)
                .put("controller", settings.controller())
                .put("version", jenkins.version())
                .put("jenkinsHome", settings.jenkinsHome().toString());
        ArrayNode runs = status.putArray("runs");
        builds.runs().forEach(run -> runs.add(runJson(run)));
        ArrayNode applied = status.putArray("appliedConfigurations");
        configurations.entries().forEach(entry -> {
            ObjectNode shown = applied.addObject().put("trigger", entry.path("trigger").asText())
                    .put("appliedAt", entry.path("appliedAt").asText());
            ArrayNode origins = shown.putArray("sources");
            entry.path("sources").forEach(source -> origins.add(source.path("origin").asText()));
        });
        ArrayNode agents = status.putArray("agents");
        jenkins.agents().forEach(agents::add);
        status.putObject("pluginCore")
                .put("spoolPendingEvents", core.spool().status().pendingEvents())
                .put("logCopiesPending", core.logs().status().runs())
                .put("loopback", core.settings().loopbackUrl().toString());
        return status;
    }

    private void page(HttpExchange exchange) throws IOException {
        String body = "<!DOCTYPE html><html><head><title>" + StandInBanner.TITLE + "</title></head><body>"
                + "<h1>" + StandInBanner.TITLE + "</h1><p>" + escape(StandInBanner.WHAT) + "</p>"
                + "<p>Controller " + escape(settings.controller()) + ", reporting Jenkins " + escape(jenkins.version())
                + "</p><pre>" + escape(status().toPrettyString()) + "</pre></body></html>";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html;charset=utf-8");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static int integer(Map<String, String> query, String name, int otherwise) {
        String value = query.get(name);
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "=" + value + " is not a whole number");
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> parameters = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return parameters;
        }
        for (String pair : raw.split("&")) {
            String[] nameValue = pair.split("=", 2);
            parameters.putIfAbsent(URLDecoder.decode(nameValue[0], StandardCharsets.UTF_8),
                    nameValue.length == 2 ? URLDecoder.decode(nameValue[1], StandardCharsets.UTF_8) : "");
        }
        return parameters;
    }

    private static String error(String message) {
        return JSON.createObjectNode().put("error", message).toString();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static void reply(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json;charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
