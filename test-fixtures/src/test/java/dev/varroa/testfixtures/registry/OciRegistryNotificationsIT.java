package dev.varroa.testfixtures.registry;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The registry started with notifications.endpoints POSTs its event envelope, with the configured header. */
class OciRegistryNotificationsIT {
    private static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    private static final Duration DELIVERY_DEADLINE = Duration.ofSeconds(20);

    private final HttpClient http = HttpClient.newHttpClient();

    /** One notification as the endpoint received it; the body without whitespace (the registry indents it). */
    private record Received(String authorization, String contentType, String body) {
        Received {
            body = body.replaceAll("\\s+", "");
        }
    }

    @Test
    void notifiesTheEndpointOfAManifestPushedUnderATagWithTheConfiguredHeader() throws Exception {
        BlockingQueue<Received> received = new LinkedBlockingQueue<>();
        HttpServer listener = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        listener.createContext("/events", exchange -> {
            try (exchange; InputStream in = exchange.getRequestBody()) {
                received.add(new Received(exchange.getRequestHeaders().getFirst("Authorization"),
                        exchange.getRequestHeaders().getFirst("Content-Type"),
                        new String(in.readAllBytes(), StandardCharsets.UTF_8)));
                exchange.sendResponseHeaders(200, -1);
            }
        });
        listener.start();
        URI url = URI.create("http://127.0.0.1:" + listener.getAddress().getPort() + "/events");
        Received push;
        try (OciRegistryProcess process = OciRegistryProcess.start(
                List.of(NotificationEndpoint.withBearer("test", url, "t0ken")))) {
            pushArtifact(process.value(), "varroa/notified", "v1");
            push = firstPush(received);
        } finally {
            listener.stop(0);
        }
        assertThat(push.authorization()).isEqualTo("Bearer t0ken");
        assertThat(push.contentType()).startsWith("application/vnd.docker.distribution.events.v");
        assertThat(push.body()).contains("\"repository\":\"varroa/notified\"").contains("\"tag\":\"v1\"")
                .contains("\"host\":\"127.0.0.1:").doesNotContain("application/octet-stream");
    }

    // Each poll waits at most until the deadline: the registry delivers on its own schedule.
    private static Received firstPush(BlockingQueue<Received> received) throws InterruptedException {
        long deadline = System.nanoTime() + DELIVERY_DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            Received next = received.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (next != null && next.body().contains("\"action\":\"push\"")) {
                return next;
            }
        }
        throw new AssertionError("the registry sent no push notification within " + DELIVERY_DEADLINE);
    }

    private void pushArtifact(OciRegistry registry, String repository, String tag) throws Exception {
        byte[] config = "{}".getBytes(StandardCharsets.UTF_8);
        byte[] content = "plugins: []\n".getBytes(StandardCharsets.UTF_8);
        uploadBlob(registry, repository, config);
        uploadBlob(registry, repository, content);
        String manifest = """
                {"schemaVersion":2,"mediaType":"%s","artifactType":"application/vnd.unknown.artifact.v1",\
                "config":{"mediaType":"application/vnd.oci.empty.v1+json","digest":"%s","size":%d},\
                "layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"%s","size":%d}]}"""
                .formatted(OCI_MANIFEST, digest(config), config.length, digest(content), content.length);
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(
                        registry.url().resolve("/v2/" + repository + "/manifests/" + tag))
                .header("Content-Type", OCI_MANIFEST).PUT(HttpRequest.BodyPublishers.ofString(manifest)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).as("manifest PUT: %s", put.body()).isEqualTo(201);
    }

    private void uploadBlob(OciRegistry registry, String repository, byte[] blob) throws Exception {
        HttpResponse<String> session = http.send(HttpRequest.newBuilder(
                registry.url().resolve("/v2/" + repository + "/blobs/uploads/")).POST(HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.ofString());
        String location = session.headers().firstValue("Location").orElseThrow();
        URI target = registry.url().resolve(location + (location.contains("?") ? "&" : "?") + "digest="
                + URLEncoder.encode(digest(blob), StandardCharsets.UTF_8));
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(target).header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(blob)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).as("blob PUT: %s", put.body()).isEqualTo(201);
    }

    private static String digest(byte[] bytes) throws Exception {
        return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
