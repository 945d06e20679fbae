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
        Executable binary = Executable.require("docker-registry", "docker-registry");
        ThrowawayDirectory directory = ThrowawayDirectory.create("varroa-registry-");
        int port = LoopbackPort.pickFree();
        String host = LoopbackPort.HOST + ":" + port;
        OciRegistry registry = new OciRegistry(host, URI.create("http://" + host));
        Path config = writeConfig(directory.resolve("config.yml"), host, directory.resolve("storage"));
        HttpClient probeClient = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();
        LocalProcess process = LocalProcess.start("docker-registry",
                List.of(binary.toString(), "serve", config.toString()),
                directory.resolve("docker-registry.log"), READY_DEADLINE,
                () -> answersApiVersionCheck(probeClient, registry));
        return new OciRegistryProcess(registry, process, directory);
    }

    private static Path writeConfig(Path file, String address, Path storageRoot) {
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
                """.formatted(storageRoot, address);
        try {
            return Files.writeString(file, yaml);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write registry config " + file, e);
        }
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
