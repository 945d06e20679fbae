package dev.varroa.testfixtures.demo;

import dev.varroa.testfixtures.registry.OciRegistry;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A bundle folder as an OCI artifact laid out as {@code oras push} lays out files: one layer per file,
 * titled with its path, an empty config. The composer reads this layout as well as one tar+gzip layer.
 *
 * <p>Pushed with the distribution API over the JDK's HTTP client rather than oras-java: oras-java
 * 0.7.0 needs jackson-annotations 2.22, and the reactor's jackson-bom pins 2.20.
 *
 * @param repository the repository inside the registry, e.g. {@code ci/bundles/team-a}
 * @param tag the tag the manifest is pushed under
 * @param files path to UTF-8 content
 */
record OciFileArtifact(String repository, String tag, SortedMap<String, String> files) {

    static final String TITLE = "org.opencontainers.image.title";
    static final String FILE_MEDIA_TYPE = "application/vnd.oci.image.layer.v1.tar";
    static final String MANIFEST_MEDIA_TYPE = "application/vnd.oci.image.manifest.v1+json";
    /** What {@code oras push} records when no artifact type is given; an empty config requires one. */
    static final String ARTIFACT_TYPE = "application/vnd.unknown.artifact.v1";
    private static final String EMPTY_CONFIG_MEDIA_TYPE = "application/vnd.oci.empty.v1+json";
    private static final byte[] EMPTY_CONFIG = "{}".getBytes(StandardCharsets.UTF_8);
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    OciFileArtifact {
        files = new TreeMap<>(files);
    }

    /** Pushes every blob, then the manifest under the tag, to a plain-HTTP registry; returns the manifest digest. */
    String pushTo(OciRegistry registry) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        List<Map<String, Object>> layers = new ArrayList<>();
        for (Map.Entry<String, String> file : files.entrySet()) {
            byte[] content = file.getValue().getBytes(StandardCharsets.UTF_8);
            uploadBlob(http, registry, content);
            Map<String, Object> layer = descriptor(FILE_MEDIA_TYPE, content);
            layer.put("annotations", Map.of(TITLE, file.getKey()));
            layers.add(layer);
        }
        uploadBlob(http, registry, EMPTY_CONFIG);
        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("schemaVersion", 2);
        manifest.put("mediaType", MANIFEST_MEDIA_TYPE);
        manifest.put("artifactType", ARTIFACT_TYPE);
        manifest.put("config", descriptor(EMPTY_CONFIG_MEDIA_TYPE, EMPTY_CONFIG));
        manifest.put("layers", layers);
        byte[] body = JSON.asJson(manifest).getBytes(StandardCharsets.UTF_8);

        HttpResponse<String> put = http.send(HttpRequest.newBuilder(api(registry, "manifests/" + tag))
                .header("Content-Type", MANIFEST_MEDIA_TYPE)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        requireStatus(put, 201, "manifest " + repository + ":" + tag);
        return digest(body);
    }

    // The distribution spec's monolithic upload: open an upload session, then PUT the bytes with their digest.
    private void uploadBlob(HttpClient http, OciRegistry registry, byte[] blob)
            throws IOException, InterruptedException {
        HttpResponse<String> session = http.send(HttpRequest.newBuilder(api(registry, "blobs/uploads/"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        requireStatus(session, 202, "upload session in " + repository);
        String location = session.headers().firstValue("Location").orElseThrow(() ->
                new IOException("registry " + registry.host() + " opened an upload session without a Location header"));
        URI target = registry.url().resolve(location + (location.contains("?") ? "&" : "?") + "digest="
                + URLEncoder.encode(digest(blob), StandardCharsets.UTF_8));
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(target)
                .header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(blob)).build(), HttpResponse.BodyHandlers.ofString());
        requireStatus(put, 201, "blob " + digest(blob) + " in " + repository);
    }

    private URI api(OciRegistry registry, String path) {
        return registry.apiBase().resolve(repository + "/" + path);
    }

    private static Map<String, Object> descriptor(String mediaType, byte[] content) {
        Map<String, Object> descriptor = new LinkedHashMap<>();
        descriptor.put("mediaType", mediaType);
        descriptor.put("digest", digest(content));
        descriptor.put("size", content.length);
        return descriptor;
    }

    private static void requireStatus(HttpResponse<String> response, int expected, String what) throws IOException {
        if (response.statusCode() != expected) {
            throw new IOException("cannot push " + what + " to " + response.uri() + ": HTTP " + response.statusCode()
                    + " " + response.body());
        }
    }

    static String digest(byte[] bytes) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
