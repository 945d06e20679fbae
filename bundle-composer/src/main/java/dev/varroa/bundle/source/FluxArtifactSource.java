package dev.varroa.bundle.source;

import dev.varroa.api.v1alpha1.FluxSourceRef;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.SourceUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a {@code fluxSource} input: downloads the Flux object's artifact, checks it against the status
 * digest (a mismatch is invalid input, never a silent use), unpacks it and takes {@code path}.
 */
public final class FluxArtifactSource {
  private static final Logger LOG = LoggerFactory.getLogger(FluxArtifactSource.class);
  private static final Pattern SHA256_DIGEST = Pattern.compile("^sha256:[0-9a-fA-F]{64}$");

  private final SourceLimits limits;
  private final HttpClient client;
  private final TarGzBundleReader reader;

  public FluxArtifactSource(SourceLimits limits) {
    this(limits, HttpClient.newBuilder()
        .connectTimeout(limits.timeout())
        .followRedirects(HttpClient.Redirect.NORMAL)
        .build());
  }

  public FluxArtifactSource(SourceLimits limits, HttpClient client) {
    this.limits = limits;
    this.client = client;
    this.reader = new TarGzBundleReader(limits);
  }

  /**
   * Downloads, verifies and unpacks {@code artifact}; the result carries the artifact's revision.
   *
   * @throws SourceUnavailableException the artifact server could not be reached or did not answer 2xx
   * @throws BundleException INVALID: malformed status, digest mismatch, bad archive, over a limit, empty path
   */
  public ResolvedInput fetch(InputRef input, FluxSourceRef spec, FluxArtifact artifact)
      throws BundleException, SourceUnavailableException {
    String object = spec.kind + "/" + spec.name;
    URI url = checkedUrl(input, object, artifact);
    String where = "the artifact of " + object + " (revision " + artifact.revision() + ")";
    try (SpooledArtifact download = download(input, object, url)) {
      if (!download.digest().equalsIgnoreCase(artifact.digest())) {
        throw InvalidInput.exception(input, "the artifact downloaded from " + url + " has digest " + download.digest()
                + ", not " + artifact.digest() + " as " + object + " status.artifact.digest says; it is not used",
            "let " + object + " finish reconciling; if this persists, the artifact storage of source-controller"
                + " holds different content than its status reports");
      }
      LOG.debug("event=flux_artifact_downloaded input={} url={} bytes={} digest={}", input.index(), url, download.size(),
          download.digest());
      try (InputStream in = download.open()) {
        BundleFiles files = reader.read(input, in, spec.path, where);
        return new ResolvedInput(input, artifact.revision(), files);
      }
    } catch (IOException e) {
      throw Unavailable.of(input, "cannot read the downloaded artifact of " + object + ": "
          + FailureMessage.of(e), "check free space in the temporary directory of the operator", e);
    }
  }

  private static URI checkedUrl(InputRef input, String object, FluxArtifact artifact)
      throws BundleException, SourceUnavailableException {
    if (artifact == null || artifact.url() == null || artifact.url().isBlank()) {
      throw Unavailable.of(input, object + " has no artifact yet",
          "wait for " + object + " to become Ready", null);
    }
    if (artifact.digest() == null || !SHA256_DIGEST.matcher(artifact.digest()).matches()) {
      throw InvalidInput.exception(input, object + " status.artifact.digest '" + artifact.digest()
          + "' is not sha256:<64 hex>", "use a Flux version that records sha256 artifact digests (source-controller v1)");
    }
    if (artifact.revision() == null || artifact.revision().isBlank()) {
      throw InvalidInput.exception(input, object + " status.artifact has no revision",
          "use a Flux version that records the artifact revision (source-controller v1)");
    }
    try {
      URI url = URI.create(artifact.url());
      String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https")) {
        throw new IllegalArgumentException("scheme must be http or https");
      }
      return url;
    } catch (IllegalArgumentException e) {
      throw InvalidInput.exception(input, object + " status.artifact.url '" + artifact.url() + "' is not an http(s) URL: "
          + e.getMessage(), "check the Flux source object; its artifact URL is set by source-controller");
    }
  }

  private SpooledArtifact download(InputRef input, String object, URI url)
      throws BundleException, SourceUnavailableException {
    HttpRequest request = HttpRequest.newBuilder(url).timeout(limits.timeout()).GET().build();
    SpoolingBodyHandler handler = new SpoolingBodyHandler(limits.maxArchiveBytes(), "the artifact of " + object);
    Future<HttpResponse<SpooledArtifact>> pending = client.sendAsync(request, handler);
    HttpResponse<SpooledArtifact> response;
    try {
      // The whole transfer, body included, must finish within the timeout; a stalled server cannot hang us.
      response = pending.get(limits.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      pending.cancel(true);
      handler.abandon();
      throw Unavailable.of(input, "downloading " + url + " took longer than " + limits.timeout(),
          "check that source-controller is healthy, or raise the source timeout", e);
    } catch (InterruptedException e) {
      pending.cancel(true);
      handler.abandon();
      Thread.currentThread().interrupt();
      throw Unavailable.of(input, "interrupted while downloading " + url, "retry", e);
    } catch (ExecutionException e) {
      handler.abandon();
      if (e.getCause() instanceof LimitExceededException limit) {
        throw InvalidInput.limit(input, limit);
      }
      throw Unavailable.of(input, "cannot download " + url + ": " + FailureMessage.of(e.getCause()),
          "check that source-controller is running and its service is reachable from the operator", e.getCause());
    }
    if (response.statusCode() / 100 != 2) {
      throw Unavailable.of(input, "GET " + url + " answered HTTP " + response.statusCode(),
          "wait for " + object + " to publish its artifact again; source-controller answers 404 for an artifact it"
              + " garbage-collected", null);
    }
    return response.body();
  }
}
