package dev.varroa.testfixtures.registry;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;
import dev.varroa.testfixtures.process.Executable;
import dev.varroa.testfixtures.process.LocalProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The docker-registry child process, its config and storage; closing stops one and deletes the others. */
public final class OciRegistryProcess implements ClassScopedFixtureExtension.Running<OciRegistry> {

    private static final Duration READY_DEADLINE = Duration.ofSeconds(30);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    private final OciRegistry registry;
    private final LocalProcess process;
    private final ThrowawayDirectory directory;

    private OciRegistryProcess(OciRegistry registry, LocalProcess process, ThrowawayDirectory directory) {
        this.registry = registry;
        this.process = process;
        this.directory = directory;
    }

    /** Starts {@code docker-registry serve} on a free loopback port; on failure the directory is kept for its log. */
    public static OciRegistryProcess start() throws InterruptedException {
        return start(List.of());
    }

    /**
     * Starts the registry so that it notifies each endpoint of what is pushed and pulled, as a production
     * registry configured with {@code notifications.endpoints} does. Blob events and pulls are left out
     * ({@code ignore}), so endpoints see manifest pushes and deletes only.
     */
    public static OciRegistryProcess start(List<NotificationEndpoint> notify) throws InterruptedException {
        Executable binary = Executable.require("docker-registry", "docker-registry");
        ThrowawayDirectory directory = ThrowawayDirectory.create("varroa-registry-");
        int port = LoopbackPort.pickFree();
        String host = LoopbackPort.HOST + ":" + port;
        OciRegistry registry = new OciRegistry(host, URI.create("http://" + host));
        Path config = writeConfig(directory.resolve("config.yml"), host, directory.resolve("storage"), notify);
        HttpClient probeClient = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();
        LocalProcess process = LocalProcess.start("docker-registry",
                List.of(binary.toString(), "serve", config.toString()),
                directory.resolve("docker-registry.log"), READY_DEADLINE,
                () -> answersApiVersionCheck(probeClient, registry));
        return new OciRegistryProcess(registry, process, directory);
    }

    private static Path writeConfig(Path file, String address, Path storageRoot, List<NotificationEndpoint> notify) {
        // Deletion is on so tests can exercise garbage collection and tag removal like a real registry.
        String yaml = """
                version: 0.1
                log:
                  level: warn
                  accesslog:
                    disabled: true
                storage:
                  filesystem:
                    rootdirectory: %s
                  delete:
                    enabled: true
                  maintenance:
                    uploadpurging:
                      enabled: false
                http:
                  addr: %s
                  secret: varroa-test-fixture
                """.formatted(storageRoot, address) + notifications(notify);
        try {
            return Files.writeString(file, yaml);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write registry config " + file, e);
        }
    }

    // Retries are quick so a test sees a delivery within seconds even if the first attempt failed.
    private static String notifications(List<NotificationEndpoint> endpoints) {
        if (endpoints.isEmpty()) {
            return "";
        }
        StringBuilder yaml = new StringBuilder("notifications:\n  endpoints:\n");
        for (NotificationEndpoint endpoint : endpoints) {
            yaml.append("    - name: ").append(quoted(endpoint.name())).append('\n')
                    .append("      url: ").append(quoted(endpoint.url().toString())).append('\n')
                    .append("      timeout: 2s\n      threshold: 3\n      backoff: 1s\n")
                    .append("      ignore:\n        mediatypes: [application/octet-stream]\n        actions: [pull]\n");
            if (!endpoint.headers().isEmpty()) {
                yaml.append("      headers:\n");
            }
            for (Map.Entry<String, List<String>> header : endpoint.headers().entrySet()) {
                yaml.append("        ").append(quoted(header.getKey())).append(": [")
                        .append(header.getValue().stream().map(OciRegistryProcess::quoted).collect(Collectors.joining(", ")))
                        .append("]\n");
            }
        }
        return yaml.toString();
    }

    // A double-quoted YAML scalar: only backslash and quote need escaping for the values tests use.
    private static String quoted(String value) {
        return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    // GET /v2/ answering 200 is the distribution spec's "this registry implements the API" check.
    private static boolean answersApiVersionCheck(HttpClient client, OciRegistry registry) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(registry.apiBase()).timeout(PROBE_TIMEOUT).GET().build();
        return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    }

    @Override
    public OciRegistry value() {
        return registry;
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
        directory.close();
    }

    @Override
    public String toString() {
        return registry.url() + " " + process;
    }
}
