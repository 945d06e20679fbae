package dev.varroa.testfixtures.demo;

import dev.varroa.testfixtures.git.GitHttpServer;
import dev.varroa.testfixtures.git.GitRepository;
import dev.varroa.testfixtures.registry.OciRegistry;
import dev.varroa.testfixtures.registry.OciRegistryProcess;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The source half of `make demo`: serves the example bundle repositories of gitops-examples/bundles/
 * on loopback, since the hosts the example objects name (git.example.com, registry.example.com) do
 * not exist. The catalog and the team's repository are Git over smart HTTP, the team's with basic
 * auth; the team's release is an OCI artifact in a plain-HTTP registry. The demo applies the example
 * objects through {@link #rewrite}, creates {@link #secrets()}, and tells the operator
 * {@link #plainHttpRegistry()}.
 */
public final class ExampleBundleSources implements AutoCloseable {

    /** The example bundle repositories, relative to the project root. */
    public static final Path BUNDLES = Path.of("gitops-examples", "bundles");
    /** The namespace of the example ComposedBundle, where its secretRefs are looked up. */
    public static final String NAMESPACE = "ci";

    /** gitops-examples/varroa/40-catalog-source.yaml: public, so no Secret. */
    public static final String CATALOG_URL = "https://git.example.com/platform/jenkins-catalog.git";
    /** gitops-examples/varroa/50-composed-bundle.yaml, spec.inputs[1]. */
    public static final String TEAM_GIT_URL = "https://git.example.com/ci/bundles.git";
    /** gitops-examples/varroa/50-composed-bundle.yaml, spec.inputs[2]. */
    public static final String TEAM_OCI_URL = "oci://registry.example.com/ci/bundles/team-a";

    private static final List<ExampleGitRepository> GIT_REPOSITORIES = List.of(
            new ExampleGitRepository(CATALOG_URL, "catalog", "platform-jenkins-catalog", null),
            new ExampleGitRepository(TEAM_GIT_URL, "team-a-git", "ci-bundles", "git-creds"));
    private static final ExampleOciArtifact TEAM_RELEASE =
            new ExampleOciArtifact(TEAM_OCI_URL, "team-a-oci", "ci/bundles/team-a", "1.4.0", "oci-creds");
    private static final String USERNAME = "team-a-ci";
    private static final int PASSWORD_BYTES = 16;

    /** A folder of {@link #BUNDLES} served as a Git repository; {@code secretName} null means anonymous. */
    private record ExampleGitRepository(String exampleUrl, String folder, String servedName, String secretName) {}

    /** A folder of {@link #BUNDLES} pushed as an OCI artifact under {@code tag}. */
    private record ExampleOciArtifact(String exampleUrl, String folder, String repository, String tag,
            String secretName) {}

    private final GitHttpServer git;
    private final OciRegistryProcess registry;
    private final Map<String, String> urlRewrites;
    private final Map<String, String> revisions;
    private final List<Secret> secrets;

    private ExampleBundleSources(GitHttpServer git, OciRegistryProcess registry, Map<String, String> urlRewrites,
            Map<String, String> revisions, List<Secret> secrets) {
        this.git = git;
        this.registry = registry;
        this.urlRewrites = Collections.unmodifiableMap(urlRewrites);
        this.revisions = Collections.unmodifiableMap(revisions);
        this.secrets = List.copyOf(secrets);
    }

    /**
     * Starts a Git server and a registry on free loopback ports and publishes the folders of
     * {@code projectRoot}/gitops-examples/bundles/: one commit on {@code main} per repository, and the
     * team's artifact under tag 1.4.0. The Git password is fresh on every start.
     */
    public static ExampleBundleSources start(Path projectRoot) throws Exception {
        Path bundles = projectRoot.resolve(BUNDLES);
        GitHttpServer git = GitHttpServer.start();
        OciRegistryProcess registry = null;
        try {
            registry = OciRegistryProcess.start();
            Map<String, String> urls = new LinkedHashMap<>();
            Map<String, String> revisions = new LinkedHashMap<>();
            List<Secret> secrets = new ArrayList<>();
            for (ExampleGitRepository example : GIT_REPOSITORIES) {
                GitRepository repository = git.value().createRepository(example.servedName());
                if (example.secretName() != null) {
                    String password = freshPassword();
                    repository.requireBasicAuth(USERNAME, password);
                    secrets.add(basicAuthSecret(example.secretName(), USERNAME, password));
                }
                String commit = repository.commit(new BundleFolder(bundles.resolve(example.folder())).files(),
                        "Publish " + BUNDLES.resolve(example.folder()));
                urls.put(example.exampleUrl(), repository.httpUrl());
                revisions.put(example.exampleUrl(), GitRepository.DEFAULT_BRANCH + "@sha1:" + commit);
            }
            OciRegistry oci = registry.value();
            String digest = new OciFileArtifact(TEAM_RELEASE.repository(), TEAM_RELEASE.tag(),
                    new BundleFolder(bundles.resolve(TEAM_RELEASE.folder())).files()).pushTo(oci);
            // This registry has no auth: any credentials pass, but the composer still needs a well-formed Secret.
            secrets.add(basicAuthSecret(TEAM_RELEASE.secretName(), USERNAME, freshPassword()));
            urls.put(TEAM_RELEASE.exampleUrl(), "oci://" + oci.host() + "/" + TEAM_RELEASE.repository());
            revisions.put(TEAM_RELEASE.exampleUrl(), TEAM_RELEASE.tag() + "@" + digest);
            return new ExampleBundleSources(git, registry, urls, revisions, secrets);
        } catch (Exception | Error e) {
            // An Error too (a missing class, say): the registry is a child process that would outlive the JVM.
            stopAfterFailedStart(git, registry, e);
            throw e;
        }
    }

    /**
     * Example source URL to the URL it is served at, e.g. {@code https://git.example.com/ci/bundles.git}
     * to {@code http://127.0.0.1:PORT/git/ci-bundles.git}, in the order the ComposedBundle's inputs use them.
     */
    public Map<String, String> urlRewrites() {
        return urlRewrites;
    }

    /**
     * Example source URL to the revision the operator records for it as an input:
     * {@code main@sha1:<40 hex>} for Git, {@code 1.4.0@sha256:<64 hex>} for the OCI artifact.
     */
    public Map<String, String> revisions() {
        return revisions;
    }

    /**
     * The Secrets the example ComposedBundle's secretRefs name, in namespace {@value #NAMESPACE}:
     * {@code git-creds} and {@code oci-creds}, type Opaque, with Flux's keys {@code username} and
     * {@code password} in {@code data}.
     */
    public List<Secret> secrets() {
        return secrets;
    }

    /** The registry's host:port, which the operator must reach over plain HTTP (its plainHttpRegistries). */
    public String plainHttpRegistry() {
        return registry.value().host();
    }

    /** Copies of the example objects (as loaded from gitops-examples/varroa/) with the source URLs served here. */
    public List<HasMetadata> rewrite(List<HasMetadata> exampleObjects) {
        return new ExampleUrlRewrite(urlRewrites).apply(exampleObjects);
    }

    // Flux's Secret keys, which the composer reads: username and password for HTTPS Git and registries.
    private static Secret basicAuthSecret(String name, String username, String password) {
        Map<String, String> data = new TreeMap<>();
        data.put("username", base64(username));
        data.put("password", base64(password));
        return new SecretBuilder()
                .withNewMetadata().withName(name).withNamespace(NAMESPACE).endMetadata()
                .withType("Opaque")
                .withData(data)
                .build();
    }

    private static String base64(String value) {
        return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
    }

    private static String freshPassword() {
        byte[] bytes = new byte[PASSWORD_BYTES];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static void stopAfterFailedStart(GitHttpServer git, OciRegistryProcess registry, Throwable cause) {
        try {
            if (registry != null) {
                registry.close();
            }
        } catch (Exception stopFailure) {
            cause.addSuppressed(stopFailure);
        }
        try {
            git.close();
        } catch (Exception stopFailure) {
            cause.addSuppressed(stopFailure);
        }
    }

    @Override
    public void close() throws Exception {
        try {
            registry.close();
        } finally {
            git.close();
        }
    }

    @Override
    public String toString() {
        return "ExampleBundleSources[" + git + ", registry " + registry.value().url() + "]";
    }
}
