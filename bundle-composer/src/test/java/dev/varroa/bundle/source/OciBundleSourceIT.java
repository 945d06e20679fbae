package dev.varroa.bundle.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.varroa.api.v1alpha1.OciSource;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.SourceUnavailableException;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.registry.OciRegistryExtension;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import land.oras.Config;
import land.oras.ContainerRef;
import land.oras.Layer;
import land.oras.Manifest;
import land.oras.Registry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class OciBundleSourceIT {
  @RegisterExtension
  static final OciRegistryExtension REGISTRY = new OciRegistryExtension();
  private static final AtomicInteger NAMES = new AtomicInteger();

  @Test
  void resolvesATagToItsManifestDigestAndReadsTheFluxArchive() throws Exception {
    String repository = repository();
    String digest = pushArchive(repository, "1.4.0", TarGzArchive.create()
        .file("teams/a/plugins.yaml", "plugins: []").file("teams/a/jcasc/base.yaml", "jenkins: {}").file("README.md", "r"),
        OciArtifactReader.FLUX_CONTENT);
    OciSource spec = Inputs.oci(url(repository), "tag", "1.4.0", "teams/a");

    ResolvedInput resolved = source().resolve(Inputs.ref(spec), spec, OciCredentials.anonymous());

    assertThat(resolved.revision()).isEqualTo("1.4.0@" + digest).matches("1\\.4\\.0@sha256:[0-9a-f]{64}");
    assertThat(resolved.files().files()).containsOnlyKeys("plugins.yaml", "jcasc/base.yaml");
    assertThat(text(resolved, "jcasc/base.yaml")).isEqualTo("jenkins: {}");
  }

  @Test
  void readsAGenericTarGzipLayerToo() throws Exception {
    String repository = repository();
    pushArchive(repository, "1.0.0", TarGzArchive.create().file("plugins.yaml", "generic"), OciArtifactReader.OCI_LAYER_TAR_GZIP);
    OciSource spec = Inputs.oci(url(repository), "tag", "1.0.0", null);

    assertThat(text(source().resolve(Inputs.ref(spec), spec, OciCredentials.anonymous()), "plugins.yaml")).isEqualTo("generic");
  }

  @Test
  void readsPerFileLayersTitledWithTheirPaths() throws Exception {
    String repository = repository();
    Map<String, String> files = new LinkedHashMap<>();
    files.put("teams/a/plugins.yaml", "plugins: [a]");
    files.put("teams/a/jcasc/base.yaml", "jenkins: {}");
    files.put("teams/b/plugins.yaml", "plugins: [b]");
    String digest = pushFiles(repository, "2.0.0", files);
    OciSource spec = Inputs.oci(url(repository), "tag", "2.0.0", "teams/a");

    ResolvedInput resolved = source().resolve(Inputs.ref(spec), spec, OciCredentials.anonymous());

    assertThat(resolved.revision()).isEqualTo("2.0.0@" + digest);
    assertThat(resolved.files().files()).containsOnlyKeys("plugins.yaml", "jcasc/base.yaml");
    assertThat(text(resolved, "plugins.yaml")).isEqualTo("plugins: [a]");
  }

  @Test
  void resolvesTheHighestTagInASemverRange() throws Exception {
    String repository = repository();
    pushFiles(repository, "1.2.0", Map.of("plugins.yaml", "1.2.0"));
    String v1100 = pushFiles(repository, "v1.10.0", Map.of("plugins.yaml", "1.10.0"));
    pushFiles(repository, "2.0.0", Map.of("plugins.yaml", "2.0.0"));
    pushFiles(repository, "latest", Map.of("plugins.yaml", "latest"));
    OciSource spec = Inputs.oci(url(repository), "semver", ">=1.2.0 <2.0.0", null);

    ResolvedInput resolved = source().resolve(Inputs.ref(spec), spec, OciCredentials.anonymous());

    assertThat(resolved.revision()).isEqualTo("v1.10.0@" + v1100);
    assertThat(text(resolved, "plugins.yaml")).isEqualTo("1.10.0");
  }

  @Test
  void takesADigestAsIsWithoutAskingTheRegistry() throws Exception {
    String repository = repository();
    String digest = pushFiles(repository, "3.0.0", Map.of("plugins.yaml", "pinned"));
    OciSource nowhere = Inputs.oci("oci://127.0.0.1:" + LoopbackPort.pickFree() + "/" + repository, "digest", digest, null);
    OciSource spec = Inputs.oci(url(repository), "digest", digest, null);

    OciRevision offline = source().resolveRevision(Inputs.ref(nowhere), nowhere, OciCredentials.anonymous());
    ResolvedInput resolved = source().fetch(Inputs.ref(spec), spec, offline, OciCredentials.anonymous());

    assertThat(offline.revision()).isEqualTo(digest);
    assertThat(resolved.revision()).isEqualTo(digest);
    assertThat(text(resolved, "plugins.yaml")).isEqualTo("pinned");
  }

  @Test
  void reportsAWrongTagAsInvalidNamingItAndTheFix() throws Exception {
    String repository = repository();
    pushFiles(repository, "1.0.0", Map.of("plugins.yaml", "p"));
    OciSource spec = Inputs.oci(url(repository), "tag", "1.0.1", null);

    BundleException e = catchThrowableOfType(BundleException.class,
        () -> source().resolveRevision(Inputs.ref(spec), spec, OciCredentials.anonymous()));

    assertThat(e).isNotInstanceOf(SourceUnavailableException.class);
    assertThat(e.getMessage()).contains(Inputs.ref(spec).describe()).contains("cannot resolve 1.0.1 in " + url(repository))
        .contains("not found (HTTP 404)").contains("fix: check the url and the ref");
  }

  @Test
  void reportsASemverRangeWithoutMatchListingTheVersions() throws Exception {
    String repository = repository();
    pushFiles(repository, "1.0.0", Map.of("plugins.yaml", "p"));
    OciSource spec = Inputs.oci(url(repository), "semver", ">=2.0.0", null);

    assertThat(catchThrowableOfType(BundleException.class,
        () -> source().resolveRevision(Inputs.ref(spec), spec, OciCredentials.anonymous())))
        .hasMessageContaining("no tag in " + url(repository) + " matches semver '>=2.0.0' (version tags: 1.0.0)");
  }

  @Test
  void reportsAMissingPathInsideTheArtifactAsInvalid() throws Exception {
    String repository = repository();
    pushFiles(repository, "1.0.0", Map.of("teams/a/plugins.yaml", "p"));
    OciSource spec = Inputs.oci(url(repository), "tag", "1.0.0", "teams/b");

    assertThat(catchThrowableOfType(BundleException.class,
        () -> source().resolve(Inputs.ref(spec), spec, OciCredentials.anonymous())))
        .hasMessageContaining("folder 'teams/b' is missing or empty in " + url(repository) + " at 1.0.0@sha256:")
        .hasMessageContaining("its top level holds: teams/");
  }

  @Test
  void refusesAFileLayerWithoutTitle() throws Exception {
    String repository = repository();
    Registry push = pusher();
    ContainerRef ref = ContainerRef.parse(REGISTRY.registry().reference(repository, "1.0.0"));
    Layer a = push.pushBlob(ref, "a".getBytes(StandardCharsets.UTF_8)).withAnnotations(Map.of(OciArtifactReader.TITLE, "a.yaml"));
    Layer b = push.pushBlob(ref, "b".getBytes(StandardCharsets.UTF_8));
    pushManifest(push, ref, List.of(a, b));
    OciSource spec = Inputs.oci(url(repository), "tag", "1.0.0", null);

    assertThat(catchThrowableOfType(BundleException.class,
        () -> source().resolve(Inputs.ref(spec), spec, OciCredentials.anonymous())))
        .hasMessageContaining("has no org.opencontainers.image.title annotation");
  }

  @Test
  void reportsAnUnreachableRegistryAsUnavailable() {
    String host = "127.0.0.1:" + LoopbackPort.pickFree();
    OciSource spec = Inputs.oci("oci://" + host + "/ci/bundles/gone", "tag", "1.0.0", null);

    SourceUnavailableException e = catchThrowableOfType(SourceUnavailableException.class,
        () -> new OciBundleSource(SourceLimits.DEFAULTS, Set.of(host))
            .resolveRevision(Inputs.ref(spec), spec, OciCredentials.anonymous()));

    assertThat(e.getMessage()).contains("cannot resolve 1.0.0 in oci://" + host + "/ci/bundles/gone: connection refused")
        .contains("check that " + host + " is reachable");
  }

  @Test
  void sendsBasicCredentialsAndTokensAndReportsRefusalAsUnavailable() throws Exception {
    String repository = repository();
    pushFiles(repository, "1.0.0", Map.of("plugins.yaml", "private"));
    try (CountingHttpProxy proxy = CountingHttpProxy.inFrontOf(REGISTRY.registry().url().toString())) {
      String proxied = proxy.url(REGISTRY.registry().url().toString()).replace("http://", "").replaceAll("/$", "");
      OciBundleSource source = new OciBundleSource(SourceLimits.DEFAULTS, Set.of(proxied));
      OciSource spec = Inputs.oci("oci://" + proxied + "/" + repository, "tag", "1.0.0", null);

      proxy.requireAuthorization("Basic " + Base64.getEncoder().encodeToString("reader:s3cret".getBytes(StandardCharsets.UTF_8)));
      ResolvedInput basic = source.resolve(Inputs.ref(spec), spec, new OciCredentials.Basic("reader", "s3cret"));
      SourceUnavailableException refused = catchThrowableOfType(SourceUnavailableException.class,
          () -> source.resolve(Inputs.ref(spec), spec, new OciCredentials.Basic("reader", "wrong")));
      proxy.requireAuthorization("Bearer registry-token");
      ResolvedInput token = source.resolve(Inputs.ref(spec), spec, new OciCredentials.Token("registry-token"));

      assertThat(text(basic, "plugins.yaml")).isEqualTo("private");
      assertThat(text(token, "plugins.yaml")).isEqualTo("private");
      assertThat(refused.getMessage()).contains("HTTP 401 (credentials missing or refused)")
          .contains("check the username and password (or token)").doesNotContain("wrong");
    }
  }

  private static OciBundleSource source() {
    return new OciBundleSource(SourceLimits.DEFAULTS, Set.of(REGISTRY.registry().host()));
  }

  private static String repository() {
    return "ci/bundles/team-" + NAMES.incrementAndGet();
  }

  private static String url(String repository) {
    return "oci://" + REGISTRY.registry().host() + "/" + repository;
  }

  private static Registry pusher() {
    return Registry.builder().withInsecure(true).build();
  }

  /** Pushes one tar+gzip layer as flux push artifact does; returns the manifest digest. */
  private static String pushArchive(String repository, String tag, TarGzArchive archive, String mediaType) {
    Registry push = pusher();
    ContainerRef ref = ContainerRef.parse(REGISTRY.registry().reference(repository, tag));
    Layer layer = push.pushBlob(ref, archive.build()).withMediaType(mediaType);
    return pushManifest(push, ref, List.of(layer));
  }

  /** Pushes one layer per file, titled with its path, as oras push does; returns the manifest digest. */
  private static String pushFiles(String repository, String tag, Map<String, String> files) {
    Registry push = pusher();
    ContainerRef ref = ContainerRef.parse(REGISTRY.registry().reference(repository, tag));
    List<Layer> layers = new ArrayList<>();
    files.forEach((path, content) -> layers.add(push.pushBlob(ref, content.getBytes(StandardCharsets.UTF_8))
        .withMediaType("application/vnd.oci.image.layer.v1.tar")
        .withAnnotations(Map.of(OciArtifactReader.TITLE, path))));
    return pushManifest(push, ref, layers);
  }

  private static String pushManifest(Registry push, ContainerRef ref, List<Layer> layers) {
    Config config = Config.empty();
    push.pushBlob(ref, config.getDataBytes());
    Manifest manifest = push.pushManifest(ref, Manifest.empty().withConfig(config).withLayers(layers));
    return manifest.getDescriptor().getDigest();
  }

  private static String text(ResolvedInput resolved, String file) {
    return new String(resolved.files().file(file).orElseThrow(), StandardCharsets.UTF_8);
  }
}
