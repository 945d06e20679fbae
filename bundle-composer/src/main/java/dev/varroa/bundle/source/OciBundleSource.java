package dev.varroa.bundle.source;

import dev.varroa.api.v1alpha1.OciSource;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.SourceUnavailableException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import land.oras.ContainerRef;
import land.oras.Descriptor;
import land.oras.Manifest;
import land.oras.Registry;
import land.oras.auth.AuthProvider;
import land.oras.auth.BearerTokenProvider;
import land.oras.auth.NoAuthProvider;
import land.oras.auth.UsernamePasswordProvider;
import land.oras.exception.OrasException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads an {@code oci} input with oras-java: resolves a tag (HEAD on the manifest), a semver range
 * (one tag listing, then the highest match) or takes a digest as is, then pulls the manifest by digest
 * and its layers (see {@link OciArtifactReader}).
 *
 * <p>Registries are spoken to over HTTPS, except the hosts named as plain-HTTP registries (host:port,
 * e.g. a registry on loopback in tests, or an in-cluster one without TLS).
 */
public final class OciBundleSource {
  private static final Logger LOG = LoggerFactory.getLogger(OciBundleSource.class);

  private final SourceLimits limits;
  private final Set<String> plainHttpRegistries;
  private final OciArtifactReader artifactReader;

  public OciBundleSource(SourceLimits limits) {
    this(limits, Set.of());
  }

  /** @param plainHttpRegistries registry hosts ("127.0.0.1:5000") reached over plain HTTP instead of HTTPS */
  public OciBundleSource(SourceLimits limits, Set<String> plainHttpRegistries) {
    this.limits = limits;
    this.plainHttpRegistries = Set.copyOf(plainHttpRegistries);
    this.artifactReader = new OciArtifactReader(limits);
  }

  /**
   * The manifest digest the spec's ref points to now: one HEAD for a tag, one tag listing plus one
   * HEAD for a semver range, no network for a digest.
   *
   * @throws SourceUnavailableException the registry could not be reached or refused the credentials
   * @throws BundleException INVALID: malformed spec, no such tag or repository, no tag in the semver range
   */
  public OciRevision resolveRevision(InputRef input, OciSource spec, OciCredentials credentials)
      throws BundleException, SourceUnavailableException {
    OciRefSelector selector = OciRefSelector.of(input, spec.ref);
    OciRepositoryUrl url = OciRepositoryUrl.parse(input, spec.url);
    if (selector.kind() == OciRefSelector.Kind.DIGEST) {
      return new OciRevision(null, selector.value());
    }
    return withRegistry(input, url, credentials, "resolve " + selector.value() + " in", registry -> {
      String tag = selector.kind() == OciRefSelector.Kind.TAG ? selector.value() : highestTag(input, url, selector, registry);
      Descriptor manifest = registry.probeDescriptor(ContainerRef.parse(url.reference(tag)));
      if (manifest.getDigest() == null || !manifest.getDigest().matches("sha256:[0-9a-f]{64}")) {
        throw InvalidInput.exception(input, url + " answered the manifest of tag " + tag + " with digest '"
            + manifest.getDigest() + "', not sha256:<64 hex>", "use a registry that reports sha256 manifest digests"
            + " (Docker-Content-Digest), as the OCI distribution spec describes");
      }
      return new OciRevision(tag, manifest.getDigest());
    });
  }

  /**
   * The files of the spec's path in the manifest {@code revision} names.
   *
   * @throws SourceUnavailableException the registry could not be reached or refused the credentials
   * @throws BundleException INVALID: missing manifest, unsupported layout, digest mismatch, bad archive, limits, empty path
   */
  public ResolvedInput fetch(InputRef input, OciSource spec, OciRevision revision, OciCredentials credentials)
      throws BundleException, SourceUnavailableException {
    OciRepositoryUrl url = OciRepositoryUrl.parse(input, spec.url);
    SourceFolder.of(input, spec.path);
    String where = url + " at " + revision.revision();
    return withRegistry(input, url, credentials, "pull " + revision.revision() + " from", registry -> {
      ContainerRef ref = ContainerRef.parse(url.reference(revision.digest()));
      Manifest manifest = registry.getManifest(ref);
      requireManifestDigest(input, manifest, revision.digest(), where);
      BundleFiles files = artifactReader.read(input, registry, ref, manifest, spec.path, where);
      LOG.info("event=oci_pull input={} url={} revision={} files={}", input.index(), url, revision.revision(),
          files.files().size());
      return new ResolvedInput(input, revision.revision(), files);
    });
  }

  /** {@link #resolveRevision} then {@link #fetch}. */
  public ResolvedInput resolve(InputRef input, OciSource spec, OciCredentials credentials)
      throws BundleException, SourceUnavailableException {
    return fetch(input, spec, resolveRevision(input, spec, credentials), credentials);
  }

  private static String highestTag(InputRef input, OciRepositoryUrl url, OciRefSelector selector, Registry registry)
      throws BundleException {
    List<String> tags = registry.getTags(ContainerRef.parse(url.reference("latest"))).tags();
    Optional<String> highest = selector.range().highest(tags == null ? List.of() : tags);
    if (highest.isEmpty()) {
      String versions = tags == null ? ""
          : String.join(", ", tags.stream().filter(SemverRange::isVersion).sorted().limit(10).toList());
      throw InvalidInput.exception(input, "no tag in " + url + " matches semver '" + selector.value() + "' ("
              + (versions.isEmpty() ? "it has no version tags" : "version tags: " + versions) + ")",
          "push a tag inside the range, or widen ref.semver");
    }
    return highest.get();
  }

  private static void requireManifestDigest(InputRef input, Manifest manifest, String digest, String where)
      throws BundleException {
    String json = manifest.getJson();
    if (json == null || !digest.startsWith("sha256:")) {
      return;
    }
    String actual = Sha256.digest(json.getBytes(StandardCharsets.UTF_8));
    if (!actual.equals(digest)) {
      throw InvalidInput.exception(input, "the manifest served for " + where + " has digest " + actual
          + "; it is not used", "check the registry: it serves content that does not match the requested digest");
    }
  }

  /** The registry work of one call; the client is built per call because credentials may change between calls. */
  private interface RegistryWork<T> {
    T apply(Registry registry) throws BundleException, SourceUnavailableException, IOException;
  }

  private <T> T withRegistry(InputRef input, OciRepositoryUrl url, OciCredentials credentials, String action,
      RegistryWork<T> work) throws BundleException, SourceUnavailableException {
    Registry registry = Registry.builder()
        .withInsecure(plainHttpRegistries.contains(url.registry()))
        .withAuthProvider(authProvider(credentials))
        .build();
    try {
      return work.apply(registry);
    } catch (OrasException e) {
      throw classify(input, url, action, e);
    } catch (IOException e) {
      throw Unavailable.of(input, "cannot " + action + " " + url + ": " + FailureMessage.of(e),
          "check free space in the temporary directory of the operator, and that " + url.registry() + " is reachable", e);
    } finally {
      registry.getExecutorService().shutdown();
    }
  }

  /** 404 and rejected content are invalid input; auth failures, server errors and network failures are unavailability. */
  private static SourceUnavailableException classify(InputRef input, OciRepositoryUrl url, String action, OrasException e)
      throws BundleException {
    int status = e.getStatusCode() == null ? -1 : e.getStatusCode();
    String what = "cannot " + action + " " + url;
    if (status == 404) {
      throw InvalidInput.exception(input, what + ": not found (HTTP 404)",
          "check the url and the ref: the repository, tag or digest does not exist in " + url.registry());
    }
    if (status == 401 || status == 403) {
      return Unavailable.of(input, what + ": HTTP " + status + " (credentials missing or refused)",
          "check the username and password (or token) in the Secret named by secretRef", e);
    }
    if (status >= 500 || status == 408 || status == 429 || (status <= 0 && e.getCause() != null)) {
      String reason = status > 0 ? "HTTP " + status : FailureMessage.of(e.getCause());
      return Unavailable.of(input, what + ": " + reason,
          "check that " + url.registry() + " is reachable from the operator; the last good render stays in force meanwhile",
          e);
    }
    throw InvalidInput.exception(input, what + ": " + (status > 0 ? "HTTP " + status + ": " : "") + e.getMessage(),
        "push the bundle as an OCI artifact manifest (not an image index), e.g. with flux push artifact");
  }

  private static AuthProvider authProvider(OciCredentials credentials) {
    if (credentials instanceof OciCredentials.Basic basic) {
      return new UsernamePasswordProvider(basic.username(), basic.password());
    }
    if (credentials instanceof OciCredentials.Token token) {
      return new BearerTokenProvider(token.token());
    }
    return new NoAuthProvider();
  }
}
