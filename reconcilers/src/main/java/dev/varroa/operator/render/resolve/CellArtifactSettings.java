package dev.varroa.operator.render.resolve;

import java.util.Map;
import java.util.Optional;

/**
 * Where cells write archived artifacts (docs/cells.md, "Archived artifacts"): the record store's bucket
 * (recordStore.blobs.s3.url, region), the cluster the prefixes are named after, and how a pool gets its credential:
 * the Secret {@code <artifactSecret>-<pool>} in the release namespace, or an STS issuing identity.
 */
public record CellArtifactSettings(String bucketUrl, String region, String cluster, Optional<String> artifactSecret,
    Optional<String> artifactSts) {
  public static final String ENV_BLOB_MODE = "VARROA_BLOB_MODE";
  public static final String ENV_BLOB_URL = "VARROA_BLOB_S3_URL";
  public static final String ENV_BLOB_REGION = "VARROA_BLOB_S3_REGION";
  /** recordStore.blobs.s3.artifactSecret: the prefix of the per-pool Secrets. */
  public static final String ENV_ARTIFACT_SECRET = "VARROA_CELL_ARTIFACT_SECRET";
  /** recordStore.blobs.s3.artifactSTS: the Secret of the identity that issues each pool a session credential. */
  public static final String ENV_ARTIFACT_STS = "VARROA_CELL_ARTIFACT_STS";
  static final String ENV_CLUSTER_NAME = "VARROA_CLUSTER_NAME";
  /** The pool's credential, copied beside its cells: pods read Secrets of their own namespace only. */
  private static final String COPY_PREFIX = "varroa-artifacts-";

  /** Present when the record store keeps blobs in S3 and the chart names how pools get artifact credentials. */
  public static Optional<CellArtifactSettings> fromEnv(Map<String, String> env) {
    String url = env.getOrDefault(ENV_BLOB_URL, "").strip();
    Optional<String> secret = nonBlank(env.get(ENV_ARTIFACT_SECRET));
    Optional<String> sts = nonBlank(env.get(ENV_ARTIFACT_STS));
    if (!"s3".equals(env.getOrDefault(ENV_BLOB_MODE, "").strip()) || url.isEmpty()
        || secret.isEmpty() && sts.isEmpty()) {
      return Optional.empty();
    }
    String cluster = nonBlank(env.get(ENV_CLUSTER_NAME)).orElse("local");
    return Optional.of(new CellArtifactSettings(url, nonBlank(env.get(ENV_BLOB_REGION)).orElse("us-east-1"), cluster,
        secret, sts));
  }

  /**
   * Why the installation cannot host cells: its record store keeps blobs in PostgreSQL, and cells write archived
   * artifacts straight to an object store under their own prefixes (seed 002: postgres blob mode cannot host cells).
   */
  public static Optional<String> cellsRefused(Map<String, String> env) {
    if (!"postgres".equals(env.getOrDefault(ENV_BLOB_MODE, "").strip())) {
      return Optional.empty();
    }
    return Optional.of("this installation keeps its blobs in PostgreSQL (recordStore.blobs.mode=postgres), which cannot"
        + " host cells: a cell writes archived artifacts straight to an object store under its own prefix; fix:"
        + " install with recordStore.blobs.mode=s3 and recordStore.blobs.s3.artifactSecret or artifactSTS");
  }

  /** The Secret in the release namespace that holds the pool's credential. */
  public Optional<String> poolSecret(String pool) {
    return artifactSecret.map(prefix -> dev.varroa.protocol.ArtifactPrefixes.secretName(prefix, pool));
  }

  /** The copy of the pool's credential in the pool's namespace, which the cells' pods read. */
  public static String copyName(String pool) {
    return COPY_PREFIX + pool;
  }

  public String cellPrefix(String namespace, String pool, String cell) {
    return dev.varroa.protocol.ArtifactPrefixes.cellPrefix(bucketUrl, cluster, namespace, pool, cell);
  }

  private static Optional<String> nonBlank(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
  }
}
