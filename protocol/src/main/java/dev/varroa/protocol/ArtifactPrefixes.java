package dev.varroa.protocol;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where cells keep archived artifacts in the record store's bucket, shared by the operator (which scopes each pool's
 * credential and tells a cell its prefix) and the uploading process (which writes under it).
 *
 * <p>A pool's prefix is {@code <url prefix>artifacts/<cluster>/<namespace>/<pool>/} and a cell's is the pool's prefix
 * followed by {@code <cell>/}, where {@code <url prefix>} is the key prefix recordStore.blobs.s3.url carries after its
 * bucket (empty when the URL names the bucket only). The pool's credential lives in the Secret
 * {@code <artifactSecret>-<pool>}. Every name is checked, not encoded: a prefix is also an access-policy pattern, and
 * it must read the same in both places.
 */
public final class ArtifactPrefixes {

  /** The folder every archived artifact sits under, after the bucket URL's own key prefix. */
  public static final String ROOT = "artifacts/";

  // The cluster name is a NATS subject token elsewhere: letters, digits, '-' and '_'.
  private static final Pattern CLUSTER = Pattern.compile("[A-Za-z0-9_-]{1,63}");
  // Namespaces and CellPool names are DNS-1123 labels; a cell is its pool's name and an ordinal.
  private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Pattern SUBDOMAIN = Pattern.compile(
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final int MAX_SECRET_NAME = 253;

  private ArtifactPrefixes() {
  }

  /**
   * recordStore.blobs.s3.url taken apart, path-style: {@code https://s3.example.com/varroa-records/team-a} is the
   * endpoint {@code https://s3.example.com}, the bucket {@code varroa-records} and the key prefix {@code team-a/}.
   */
  public record BucketUrl(URI endpoint, String bucket, String keyPrefix) {

    /** Parses the URL; throws IllegalArgumentException naming the value and the fix. */
    public static BucketUrl parse(String url) {
      if (url == null || url.isBlank()) {
        throw new IllegalArgumentException("the artifact bucket URL is empty: give recordStore.blobs.s3.url, "
            + "path-style, e.g. https://s3.example.com/varroa-records");
      }
      URI uri;
      try {
        uri = new URI(url.strip());
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException("the artifact bucket URL '" + url + "' is not a URL: give the endpoint "
            + "and bucket, path-style, e.g. https://s3.example.com/varroa-records");
      }
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
        throw new IllegalArgumentException("the artifact bucket URL '" + url + "' must be an http:// or https:// URL "
            + "with a host, e.g. https://s3.example.com/varroa-records");
      }
      if (uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
        throw new IllegalArgumentException("the artifact bucket URL must not carry credentials, a query or a "
            + "fragment: the pool's keys belong in its Secret <artifactSecret>-<pool>");
      }
      String path = uri.getPath() == null ? "" : uri.getPath().replaceAll("^/+", "").replaceAll("/+$", "");
      if (path.isEmpty()) {
        throw new IllegalArgumentException("the artifact bucket URL '" + url + "' names no bucket: its first path "
            + "segment is the bucket (path-style), e.g. https://s3.example.com/varroa-records");
      }
      int slash = path.indexOf('/');
      String bucket = slash < 0 ? path : path.substring(0, slash);
      String keyPrefix = slash < 0 ? "" : path.substring(slash + 1) + "/";
      return new BucketUrl(URI.create(scheme + "://" + uri.getRawAuthority()), bucket, keyPrefix);
    }

    /** The URL without its key prefix, for messages: endpoint and bucket. */
    public String bucketUrl() {
      return endpoint + "/" + bucket;
    }
  }

  /** The pool's prefix, e.g. {@code artifacts/prod/ci/shared/}: what the pool's credential may read, write and list. */
  public static String poolPrefix(String bucketUrl, String cluster, String namespace, String pool) {
    return BucketUrl.parse(bucketUrl).keyPrefix() + ROOT + check(cluster, CLUSTER, "cluster name",
        "letters, digits, '-' and '_' (VARROA_CLUSTER_NAME)")
        + "/" + check(namespace, LABEL, "namespace", "a DNS-1123 label")
        + "/" + check(pool, LABEL, "CellPool name", "a DNS-1123 label") + "/";
  }

  /** The cell's prefix, e.g. {@code artifacts/prod/ci/shared/shared-0/}: where that cell writes. */
  public static String cellPrefix(String bucketUrl, String cluster, String namespace, String pool, String cell) {
    String poolPrefix = poolPrefix(bucketUrl, cluster, namespace, pool);
    if (cell == null || !cell.matches(Pattern.quote(pool) + "-(0|[1-9][0-9]{0,8})")) {
      throw new IllegalArgumentException("cell '" + cell + "' is not a cell of CellPool " + namespace + "/" + pool
          + ": cells are named <pool>-<ordinal>, e.g. " + pool + "-0");
    }
    return poolPrefix + cell + "/";
  }

  /** The Secret holding the pool's scoped credential: {@code <artifactSecret>-<pool>}. */
  public static String secretName(String artifactSecret, String pool) {
    check(artifactSecret, SUBDOMAIN, "recordStore.blobs.s3.artifactSecret",
        "a Secret name prefix: lowercase letters, digits, '-' and '.'");
    check(pool, LABEL, "CellPool name", "a DNS-1123 label");
    String name = artifactSecret + "-" + pool;
    if (name.length() > MAX_SECRET_NAME) {
      throw new IllegalArgumentException("the artifact Secret name " + name + " is longer than " + MAX_SECRET_NAME
          + " characters: shorten recordStore.blobs.s3.artifactSecret");
    }
    return name;
  }

  private static String check(String value, Pattern pattern, String what, String rule) {
    if (value == null || !pattern.matcher(value).matches()) {
      throw new IllegalArgumentException("the " + what + " '" + value + "' cannot be part of an artifact prefix: "
          + "use " + rule);
    }
    return value;
  }
}
