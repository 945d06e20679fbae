package dev.varroa.testfixtures.registry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

class OciRegistryIT {

    private static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    private static final String FLUX_CONFIG = "application/vnd.cncf.flux.config.v1+json";
    private static final String FLUX_CONTENT = "application/vnd.cncf.flux.content.v1.tar+gzip";

    @RegisterExtension
    static final OciRegistryExtension REGISTRY = new OciRegistryExtension();

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void answersTheApiVersionCheck(OciRegistry registry) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(registry.apiBase()).GET());

        assertThat(registry.host()).matches("127\\.0\\.0\\.1:\\d+");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Docker-Distribution-API-Version")).hasValue("registry/2.0");
    }

    @Test
    void servesBackAPushedArtifactManifestAndBlob(OciRegistry registry) throws Exception {
        byte[] content = "plugins:\n  - git:5.2.1\n".getBytes(StandardCharsets.UTF_8);
        String manifest = pushArtifact(registry, "varroa/bundle", "v1", content);

        HttpResponse<String> pulled = send(HttpRequest.newBuilder(manifestUri(registry, "varroa/bundle", "v1"))
                .header("Accept", OCI_MANIFEST).GET());
        HttpResponse<byte[]> blob = http.send(
                HttpRequest.newBuilder(registry.url().resolve("/v2/varroa/bundle/blobs/" + digest(content))).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertThat(pulled.statusCode()).isEqualTo(200);
        assertThat(pulled.body()).isEqualTo(manifest);
        assertThat(pulled.headers().firstValue("Content-Type")).hasValue(OCI_MANIFEST);
        assertThat(pulled.headers().firstValue("Docker-Content-Digest"))
                .hasValue(digest(manifest.getBytes(StandardCharsets.UTF_8)));
        assertThat(blob.statusCode()).isEqualTo(200);
        assertThat(blob.body()).isEqualTo(content);
    }

    @Test
    void deletesAManifestByDigest(OciRegistry registry) throws Exception {
        String manifest = pushArtifact(registry, "varroa/deleted", "v1", "gone".getBytes(StandardCharsets.UTF_8));
        URI byDigest = manifestUri(registry, "varroa/deleted", digest(manifest.getBytes(StandardCharsets.UTF_8)));

        HttpResponse<String> deleted = send(HttpRequest.newBuilder(byDigest).DELETE());
        HttpResponse<String> afterwards = send(HttpRequest.newBuilder(byDigest).header("Accept", OCI_MANIFEST).GET());

        assertThat(deleted.statusCode()).isEqualTo(202);
        assertThat(afterwards.statusCode()).isEqualTo(404);
    }

    /** Pushes a Flux-style artifact (empty config, one content layer) under {@code tag}; returns its manifest. */
    private String pushArtifact(OciRegistry registry, String repository, String tag, byte[] content) throws Exception {
        byte[] config = "{}".getBytes(StandardCharsets.UTF_8);
        uploadBlob(registry, repository, config);
        uploadBlob(registry, repository, content);
        String manifest = """
                {"schemaVersion":2,"mediaType":"%s",\
                "config":{"mediaType":"%s","digest":"%s","size":%d},\
                "layers":[{"mediaType":"%s","digest":"%s","size":%d}]}"""
                .formatted(OCI_MANIFEST, FLUX_CONFIG, digest(config), config.length,
                        FLUX_CONTENT, digest(content), content.length);

        HttpResponse<String> put = send(HttpRequest.newBuilder(manifestUri(registry, repository, tag))
                .header("Content-Type", OCI_MANIFEST)
                .PUT(HttpRequest.BodyPublishers.ofString(manifest)));

        assertThat(put.statusCode()).as("manifest PUT: %s", put.body()).isEqualTo(201);
        return manifest;
    }

    // Monolithic upload from the distribution spec: open an upload session, then PUT the bytes with their digest.
    private void uploadBlob(OciRegistry registry, String repository, byte[] blob) throws Exception {
        HttpResponse<String> session = send(HttpRequest.newBuilder(
                registry.url().resolve("/v2/" + repository + "/blobs/uploads/")).POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(session.statusCode()).as("upload POST: %s", session.body()).isEqualTo(202);

        String location = session.headers().firstValue("Location").orElseThrow();
        String separator = location.contains("?") ? "&" : "?";
        URI target = registry.url().resolve(location + separator + "digest="
                + URLEncoder.encode(digest(blob), StandardCharsets.UTF_8));
        HttpResponse<String> put = send(HttpRequest.newBuilder(target)
                .header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(blob)));
        assertThat(put.statusCode()).as("blob PUT: %s", put.body()).isEqualTo(201);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI manifestUri(OciRegistry registry, String repository, String reference) {
        return registry.url().resolve("/v2/" + repository + "/manifests/" + reference);
    }

    private static String digest(byte[] bytes) throws NoSuchAlgorithmException {
        return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
