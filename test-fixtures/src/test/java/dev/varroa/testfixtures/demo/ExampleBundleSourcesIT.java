package dev.varroa.testfixtures.demo;

import dev.varroa.testfixtures.ProjectLayout;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.TransportException;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExampleBundleSourcesIT {

    private static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private static ExampleBundleSources sources;

    @TempDir
    Path workspace;

    @BeforeAll
    static void serveTheExamples() throws Exception {
        sources = ExampleBundleSources.start(ProjectLayout.root());
    }

    @AfterAll
    static void stop() throws Exception {
        if (sources != null) {
            sources.close();
        }
    }

    @Test
    void servesTheCatalogAnonymouslyAtTheReportedRevision() throws Exception {
        Collection<Ref> heads = Git.lsRemoteRepository().setRemote(served(ExampleBundleSources.CATALOG_URL))
                .setHeads(true).call();

        assertThat(heads).extracting(ref -> ref.getName() + " " + ref.getObjectId().name())
                .containsExactly("refs/heads/main " + commitOf(ExampleBundleSources.CATALOG_URL));
    }

    @Test
    void servesTheTeamRepositoryWithTheCredentialsOfSecretGitCreds() throws Exception {
        Collection<Ref> heads = Git.lsRemoteRepository().setRemote(served(ExampleBundleSources.TEAM_GIT_URL))
                .setHeads(true)
                .setCredentialsProvider(credentialsOf("git-creds"))
                .call();

        assertThat(heads).extracting(ref -> ref.getName() + " " + ref.getObjectId().name())
                .containsExactly("refs/heads/main " + commitOf(ExampleBundleSources.TEAM_GIT_URL));
    }

    @Test
    void refusesTheTeamRepositoryWithoutCredentials() {
        assertThatThrownBy(() -> Git.lsRemoteRepository().setRemote(served(ExampleBundleSources.TEAM_GIT_URL)).call())
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("Authentication is required");
    }

    @Test
    void clonesTheTeamFolderExactlyAsItIsInGitopsExamples() throws Exception {
        Path bundles = ProjectLayout.root().resolve(ExampleBundleSources.BUNDLES);

        try (Git clone = Git.cloneRepository().setURI(served(ExampleBundleSources.TEAM_GIT_URL))
                .setDirectory(workspace.resolve("bundles").toFile())
                .setCredentialsProvider(credentialsOf("git-creds"))
                .call()) {
            assertThat(new BundleFolder(workspace.resolve("bundles/teams/a")).files())
                    .isEqualTo(new BundleFolder(bundles.resolve("team-a-git/teams/a")).files())
                    .containsKey("jcasc/10-credentials.yaml");
        }
    }

    @Test
    void resolvesTheTeamArtifactTag140ToTheReportedManifestWithOneTitledLayerPerFile() throws Exception {
        String repository = URI.create(served(ExampleBundleSources.TEAM_OCI_URL).replaceFirst("^oci://", "http://"))
                .getPath();
        URI manifest = URI.create("http://" + sources.plainHttpRegistry() + "/v2" + repository + "/manifests/1.4.0");

        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(manifest).header("Accept", OCI_MANIFEST).GET().build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat("1.4.0@" + response.headers().firstValue("Docker-Content-Digest").orElseThrow())
                .isEqualTo(sources.revisions().get(ExampleBundleSources.TEAM_OCI_URL))
                .matches("1\\.4\\.0@sha256:[0-9a-f]{64}");
        assertThat(response.body())
                .contains("\"" + OciFileArtifact.TITLE + "\":\"bundle.yaml\"")
                .contains("\"" + OciFileArtifact.TITLE + "\":\"plugins.yaml\"")
                .contains("\"" + OciFileArtifact.TITLE + "\":\"jcasc/40-builds.yaml\"");
    }

    @Test
    void givesTheSecretsTheBundleNamesWithFluxKeys() {
        assertThat(sources.secrets())
                .extracting(s -> s.getMetadata().getNamespace() + "/" + s.getMetadata().getName() + " " + s.getType())
                .containsExactly("ci/git-creds Opaque", "ci/oci-creds Opaque");
        assertThat(sources.secrets()).allSatisfy(s -> assertThat(decoded(s))
                .containsOnlyKeys("username", "password")
                .allSatisfy((key, value) -> assertThat(value).isNotBlank()));
    }

    @Test
    void rewritesEverySourceUrlOfTheExamplesAndNothingElse() throws Exception {
        List<HasMetadata> examples = ExampleCluster.exampleObjects(ProjectLayout.root());

        List<HasMetadata> rewritten = sources.rewrite(examples);

        String before = JSON.asJson(examples);
        String after = JSON.asJson(rewritten);
        assertThat(before).contains(sources.urlRewrites().keySet());
        assertThat(after).doesNotContain(sources.urlRewrites().keySet())
                .contains(sources.urlRewrites().values())
                .contains("registry.example.com/jenkins/jenkins:2.555.2-lts-jdk21-team-a");
        String expected = before;
        for (Map.Entry<String, String> url : sources.urlRewrites().entrySet()) {
            expected = expected.replace(url.getKey(), url.getValue());
        }
        assertThat(after).isEqualTo(expected);
    }

    @Test
    void reportsThePlainHttpRegistryTheOciUrlPointsAt() {
        assertThat(sources.plainHttpRegistry()).matches("127\\.0\\.0\\.1:\\d+");
        assertThat(served(ExampleBundleSources.TEAM_OCI_URL))
                .isEqualTo("oci://" + sources.plainHttpRegistry() + "/ci/bundles/team-a");
    }

    private static String served(String exampleUrl) {
        return sources.urlRewrites().get(exampleUrl);
    }

    private static String commitOf(String exampleUrl) {
        return sources.revisions().get(exampleUrl).replaceFirst("^main@sha1:", "");
    }

    private static UsernamePasswordCredentialsProvider credentialsOf(String secretName) {
        Map<String, String> data = decoded(secret(secretName));
        return new UsernamePasswordCredentialsProvider(data.get("username"), data.get("password"));
    }

    private static Secret secret(String name) {
        return sources.secrets().stream().filter(s -> s.getMetadata().getName().equals(name)).findFirst().orElseThrow();
    }

    private static Map<String, String> decoded(Secret secret) {
        Map<String, String> data = new TreeMap<>();
        secret.getData().forEach((key, value) ->
                data.put(key, new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8)));
        return data;
    }
}
