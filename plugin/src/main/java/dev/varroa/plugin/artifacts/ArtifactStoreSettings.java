package dev.varroa.plugin.artifacts;

import dev.varroa.protocol.ArtifactPrefixes;
import java.net.URI;
import java.util.Map;
import java.util.Optional;

/**
 * Where a cell writes archived artifacts and with which credential, as the operator gives the cell's Jenkins
 * container its environment.
 *
 * @param endpoint the object store endpoint without the bucket, from {@value #URL_VARIABLE}
 * @param bucket the bucket, the first path segment of {@value #URL_VARIABLE}
 * @param cellPrefix the cell's own key prefix in the bucket ({@value #PREFIX_VARIABLE}), ending in '/'
 * @param region the signing region ({@value #REGION_VARIABLE}, default {@value #DEFAULT_REGION})
 * @param accessKeyId the pool's credential ({@value #ACCESS_KEY_VARIABLE}, key access-key-id of its Secret)
 * @param secretAccessKey ({@value #SECRET_KEY_VARIABLE}, key secret-access-key of the pool's Secret)
 * @param sessionToken a temporary credential's token in STS mode ({@value #SESSION_TOKEN_VARIABLE}), or null
 */
public record ArtifactStoreSettings(
    URI endpoint, String bucket, String cellPrefix, String region, String accessKeyId, String secretAccessKey,
    String sessionToken) {

  /** recordStore.blobs.s3.url: the core bucket, path-style, with its own key prefix if it has one. */
  public static final String URL_VARIABLE = "VARROA_ARTIFACTS_URL";
  /** The cell's prefix, as {@link ArtifactPrefixes#cellPrefix} gives it (the URL's key prefix included). */
  public static final String PREFIX_VARIABLE = "VARROA_ARTIFACTS_PREFIX";
  public static final String REGION_VARIABLE = "VARROA_ARTIFACTS_REGION";
  public static final String ACCESS_KEY_VARIABLE = "AWS_ACCESS_KEY_ID";
  public static final String SECRET_KEY_VARIABLE = "AWS_SECRET_ACCESS_KEY";
  public static final String SESSION_TOKEN_VARIABLE = "AWS_SESSION_TOKEN";
  public static final String DEFAULT_REGION = "us-east-1";

  public ArtifactStoreSettings {
    if (endpoint == null || bucket == null || bucket.isBlank()) {
      throw new IllegalArgumentException("the artifact store needs an endpoint and a bucket: set " + URL_VARIABLE
          + " to recordStore.blobs.s3.url, e.g. https://s3.example.com/varroa-records");
    }
    if (cellPrefix == null || !cellPrefix.endsWith("/") || cellPrefix.startsWith("/")
        || !("/" + cellPrefix).contains("/" + ArtifactPrefixes.ROOT) || cellPrefix.contains("*")
        || ("/" + cellPrefix).contains("/../") || ("/" + cellPrefix).contains("/./") || cellPrefix.contains("//")) {
      throw new IllegalArgumentException(PREFIX_VARIABLE + "='" + cellPrefix + "' is not a cell's artifact prefix: "
          + "the operator sets it to <url prefix>artifacts/<cluster>/<namespace>/<pool>/<cell>/");
    }
    if (region == null || region.isBlank()) {
      throw new IllegalArgumentException(REGION_VARIABLE + " is empty: unset it for " + DEFAULT_REGION
          + " or name the bucket's region");
    }
    if (accessKeyId == null || accessKeyId.isBlank() || secretAccessKey == null || secretAccessKey.isBlank()) {
      throw new IllegalArgumentException("the artifact store needs " + ACCESS_KEY_VARIABLE + " and "
          + SECRET_KEY_VARIABLE + ": the operator sets them from the pool's Secret <artifactSecret>-<pool> "
          + "(keys access-key-id, secret-access-key)");
    }
    sessionToken = sessionToken == null || sessionToken.isBlank() ? null : sessionToken;
  }

  /**
   * Reads {@value #URL_VARIABLE}, {@value #PREFIX_VARIABLE}, {@value #REGION_VARIABLE} and the AWS_* credential
   * variables; empty when {@value #URL_VARIABLE} is unset (the controller is no cell: artifacts stay in Jenkins).
   */
  public static Optional<ArtifactStoreSettings> fromEnvironment(Map<String, String> env) {
    String url = text(env, URL_VARIABLE);
    if (url == null) {
      return Optional.empty();
    }
    ArtifactPrefixes.BucketUrl bucketUrl = ArtifactPrefixes.BucketUrl.parse(url);
    String prefix = text(env, PREFIX_VARIABLE);
    if (prefix == null) {
      throw new IllegalArgumentException(URL_VARIABLE + " is set but " + PREFIX_VARIABLE + " is not: the operator "
          + "sets both on a cell; a cell writes only under its own prefix");
    }
    if (!prefix.startsWith(bucketUrl.keyPrefix() + ArtifactPrefixes.ROOT)) {
      throw new IllegalArgumentException(PREFIX_VARIABLE + "='" + prefix + "' does not start with "
          + bucketUrl.keyPrefix() + ArtifactPrefixes.ROOT + ", the artifact folder under " + URL_VARIABLE
          + "'s key prefix: set both from the same recordStore.blobs.s3.url");
    }
    String region = text(env, REGION_VARIABLE);
    return Optional.of(new ArtifactStoreSettings(bucketUrl.endpoint(), bucketUrl.bucket(), prefix,
        region == null ? DEFAULT_REGION : region, text(env, ACCESS_KEY_VARIABLE), text(env, SECRET_KEY_VARIABLE),
        text(env, SESSION_TOKEN_VARIABLE)));
  }

  public static Optional<ArtifactStoreSettings> fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  /** The same store and credential under another prefix (tests aim a credential at another pool's prefix). */
  public ArtifactStoreSettings withCellPrefix(String prefix) {
    return new ArtifactStoreSettings(endpoint, bucket, prefix, region, accessKeyId, secretAccessKey, sessionToken);
  }

  /** Endpoint and bucket, for messages. */
  public String bucketUrl() {
    return endpoint + "/" + bucket;
  }

  private static String text(Map<String, String> env, String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? null : value.strip();
  }

  @Override
  public String toString() {
    return "ArtifactStoreSettings[" + bucketUrl() + " prefix " + cellPrefix + " region " + region + " access key "
        + accessKeyId + (sessionToken == null ? "" : " (session)") + ", secret ***]";
  }
}
