package dev.varroa.recorder.logs;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Where console logs are kept, read from the same environment by the gateway, the operator and the recorder.
 *
 * @param mode the tier, or {@link Mode#NONE} when VARROA_BLOB_MODE is unset or empty (no console logs are kept)
 * @param s3Endpoint the S3 endpoint without the bucket, e.g. {@code https://s3.example.com} (s3 tier)
 * @param s3Bucket the first path segment of VARROA_BLOB_S3_URL
 * @param s3KeyPrefix the rest of that path with a trailing '/', or "" (every key starts with it)
 * @param s3Region the signing region (VARROA_BLOB_S3_REGION, default us-east-1)
 * @param s3CredentialsDir holds access-key-id, secret-access-key and optionally session-token (re-read on change)
 * @param postgresDsn the JDBC URL of the postgres tier (VARROA_BLOB_POSTGRES_DSN)
 * @param postgresUser the role (VARROA_BLOB_POSTGRES_USER); null when the DSN names it
 * @param postgresPassword the password as a value (only the recorder's VARROA_RECORDER_DB_PASSWORD fallback); null otherwise
 * @param postgresPasswordFile file holding the password, read for every new connection; null for none
 */
public record BlobStoreSettings(
    Mode mode,
    URI s3Endpoint,
    String s3Bucket,
    String s3KeyPrefix,
    String s3Region,
    Path s3CredentialsDir,
    String postgresDsn,
    String postgresUser,
    String postgresPassword,
    Path postgresPasswordFile) {

  /** recordStore.blobs.mode as the environment carries it. */
  public enum Mode {
    NONE(""), S3("s3"), POSTGRES("postgres");

    private final String value;

    Mode(String value) {
      this.value = value;
    }

    public String value() {
      return value;
    }
  }

  public static final String MODE = "VARROA_BLOB_MODE";
  public static final String S3_URL = "VARROA_BLOB_S3_URL";
  public static final String S3_REGION = "VARROA_BLOB_S3_REGION";
  public static final String S3_CREDENTIALS_DIR = "VARROA_BLOB_S3_CREDENTIALS_DIR";
  public static final String POSTGRES_DSN = "VARROA_BLOB_POSTGRES_DSN";
  public static final String POSTGRES_USER = "VARROA_BLOB_POSTGRES_USER";
  public static final String POSTGRES_PASSWORD_FILE = "VARROA_BLOB_POSTGRES_PASSWORD_FILE";
  public static final String DEFAULT_S3_REGION = "us-east-1";
  /** Where the chart mounts recordStore.blobs.s3.existingSecret. */
  public static final Path DEFAULT_S3_CREDENTIALS_DIR = Path.of("/var/run/varroa/blob-credentials");
  static final String DSN_PREFIX = "jdbc:postgresql://";

  /** No console logs are kept. */
  public static final BlobStoreSettings NONE = new BlobStoreSettings(Mode.NONE, null, null, "", DEFAULT_S3_REGION,
      DEFAULT_S3_CREDENTIALS_DIR, null, null, null, null);

  public BlobStoreSettings {
    if (mode == null) {
      throw new IllegalArgumentException(MODE + " must be s3, postgres or unset");
    }
    s3KeyPrefix = s3KeyPrefix == null ? "" : s3KeyPrefix;
    if (mode == Mode.S3) {
      if (s3Endpoint == null || s3Bucket == null || s3Bucket.isBlank()) {
        throw new IllegalArgumentException(MODE + "=s3 needs " + S3_URL + ": the endpoint and bucket, path-style, "
            + "e.g. https://s3.example.com/varroa-records (recordStore.blobs.s3.url)");
      }
      if (s3Region == null || s3Region.isBlank()) {
        throw new IllegalArgumentException(S3_REGION + " is empty: unset it for " + DEFAULT_S3_REGION
            + " or name the bucket's region");
      }
      if (s3CredentialsDir == null) {
        throw new IllegalArgumentException(S3_CREDENTIALS_DIR + " is empty: unset it for " + DEFAULT_S3_CREDENTIALS_DIR);
      }
    }
    if (mode == Mode.POSTGRES) {
      if (postgresDsn == null || postgresDsn.isBlank()) {
        throw new IllegalArgumentException(MODE + "=postgres needs " + POSTGRES_DSN + ": the PostgreSQL JDBC URL, "
            + "e.g. jdbc:postgresql://varroa-recordstore-rw:5432/varroa (Secret varroa-recordstore-gateway, key dsn)");
      }
      if (!postgresDsn.startsWith(DSN_PREFIX) || postgresDsn.length() == DSN_PREFIX.length()) {
        throw new IllegalArgumentException(POSTGRES_DSN + " must be a PostgreSQL JDBC URL such as "
            + "jdbc:postgresql://host:5432/varroa, got '" + withoutQuery(postgresDsn) + "'");
      }
      if (postgresPassword != null && postgresPasswordFile != null) {
        throw new IllegalArgumentException("give the postgres tier's password once: " + POSTGRES_PASSWORD_FILE
            + " or the value, not both");
      }
    }
  }

  /** The s3 tier on a path-style bucket URL, the credentials read from dir. */
  public static BlobStoreSettings s3(String bucketUrl, String region, Path credentialsDir) {
    S3Location location = S3Location.parse(bucketUrl);
    return new BlobStoreSettings(Mode.S3, location.endpoint(), location.bucket(), location.keyPrefix(), region,
        credentialsDir, null, null, null, null);
  }

  /** The postgres tier; passwordFile may be null when the DSN or the server needs none. */
  public static BlobStoreSettings postgres(String dsn, String user, Path passwordFile) {
    return new BlobStoreSettings(Mode.POSTGRES, null, null, "", DEFAULT_S3_REGION, DEFAULT_S3_CREDENTIALS_DIR, dsn,
        user, null, passwordFile);
  }

  /** The postgres tier with the password as a value (tests, and the recorder's own password fallback). */
  public static BlobStoreSettings postgresWithPassword(String dsn, String user, String password) {
    return new BlobStoreSettings(Mode.POSTGRES, null, null, "", DEFAULT_S3_REGION, DEFAULT_S3_CREDENTIALS_DIR, dsn,
        user, password, null);
  }

  /** Reads the process environment; see {@link #fromEnv(Map)}. */
  public static BlobStoreSettings fromEnv() {
    return fromEnv(System.getenv());
  }

  /**
   * VARROA_BLOB_MODE (s3, postgres, unset = none); for s3 VARROA_BLOB_S3_URL (required), VARROA_BLOB_S3_REGION,
   * VARROA_BLOB_S3_CREDENTIALS_DIR; for postgres VARROA_BLOB_POSTGRES_DSN (required), VARROA_BLOB_POSTGRES_USER,
   * VARROA_BLOB_POSTGRES_PASSWORD_FILE. The gateway reads only these.
   */
  public static BlobStoreSettings fromEnv(Map<String, String> env) {
    return fromEnv(env, false);
  }

  /**
   * As {@link #fromEnv(Map)}, but the postgres tier falls back to the recorder's own database settings
   * (VARROA_RECORDER_DSN, VARROA_RECORDER_DB_USER, VARROA_RECORDER_DB_PASSWORD_FILE or VARROA_RECORDER_DB_PASSWORD)
   * when VARROA_BLOB_POSTGRES_DSN is unset: the recorder's own database is then the blob store.
   */
  public static BlobStoreSettings fromRecorderEnv(Map<String, String> env) {
    return fromEnv(env, true);
  }

  private static BlobStoreSettings fromEnv(Map<String, String> env, boolean recorderFallback) {
    Mode mode = mode(text(env, MODE));
    switch (mode) {
      case NONE -> {
        return NONE;
      }
      case S3 -> {
        String url = text(env, S3_URL);
        if (url == null) {
          throw new IllegalArgumentException(MODE + "=s3 needs " + S3_URL + ": the endpoint and bucket, path-style, "
              + "e.g. https://s3.example.com/varroa-records (recordStore.blobs.s3.url)");
        }
        String region = text(env, S3_REGION);
        String dir = text(env, S3_CREDENTIALS_DIR);
        return s3(url, region == null ? DEFAULT_S3_REGION : region, dir == null ? DEFAULT_S3_CREDENTIALS_DIR : Path.of(dir));
      }
      default -> {
        String dsn = text(env, POSTGRES_DSN);
        if (dsn == null && recorderFallback && text(env, "VARROA_RECORDER_DSN") != null) {
          String passwordFile = text(env, "VARROA_RECORDER_DB_PASSWORD_FILE");
          return new BlobStoreSettings(Mode.POSTGRES, null, null, "", DEFAULT_S3_REGION, DEFAULT_S3_CREDENTIALS_DIR,
              text(env, "VARROA_RECORDER_DSN"), text(env, "VARROA_RECORDER_DB_USER"),
              passwordFile == null ? text(env, "VARROA_RECORDER_DB_PASSWORD") : null,
              passwordFile == null ? null : Path.of(passwordFile));
        }
        String passwordFile = text(env, POSTGRES_PASSWORD_FILE);
        return postgres(dsn, text(env, POSTGRES_USER), passwordFile == null ? null : Path.of(passwordFile));
      }
    }
  }

  private static Mode mode(String value) {
    if (value == null) {
      return Mode.NONE;
    }
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "s3" -> Mode.S3;
      case "postgres" -> Mode.POSTGRES;
      default -> throw new IllegalArgumentException(MODE + "='" + value + "' is not a blob store tier: use s3 or "
          + "postgres (recordStore.blobs.mode), or leave it unset to keep no console logs");
    };
  }

  /** What the store is, for a log line: tier and bucket, or tier and DSN without its query (no password, ever). */
  public String describe() {
    return switch (mode) {
      case NONE -> "tier=none";
      case S3 -> "tier=s3 endpoint=" + s3Endpoint + " bucket=" + s3Bucket
          + (s3KeyPrefix.isEmpty() ? "" : " prefix=" + s3KeyPrefix) + " region=" + s3Region;
      case POSTGRES -> "tier=postgres dsn=" + withoutQuery(postgresDsn)
          + (postgresUser == null ? "" : " user=" + postgresUser);
    };
  }

  // A DSN may carry ?password=...; never echo what follows the path.
  static String withoutQuery(String dsn) {
    int query = dsn.indexOf('?');
    return query < 0 ? dsn : dsn.substring(0, query) + "?...";
  }

  private static String text(Map<String, String> env, String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? null : value.strip();
  }

  @Override
  public String toString() {
    return "BlobStoreSettings[" + describe() + ", s3CredentialsDir=" + s3CredentialsDir + ", postgresPassword="
        + (postgresPassword == null ? null : "***") + ", postgresPasswordFile=" + postgresPasswordFile + "]";
  }

  /** VARROA_BLOB_S3_URL taken apart: endpoint, bucket (first path segment), key prefix (the rest). */
  record S3Location(URI endpoint, String bucket, String keyPrefix) {

    static S3Location parse(String url) {
      URI uri;
      try {
        uri = new URI(url.strip());
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException(S3_URL + "='" + url + "' is not a URL: give the endpoint and bucket, "
            + "path-style, e.g. https://s3.example.com/varroa-records");
      }
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
        throw new IllegalArgumentException(S3_URL + "='" + url + "' must be an http:// or https:// URL with a host, "
            + "e.g. https://s3.example.com/varroa-records");
      }
      if (uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
        throw new IllegalArgumentException(S3_URL + " must not carry credentials, a query or a fragment: put the keys "
            + "in recordStore.blobs.s3.existingSecret (files access-key-id, secret-access-key)");
      }
      String path = uri.getPath() == null ? "" : uri.getPath();
      String trimmed = path.replaceAll("^/+", "").replaceAll("/+$", "");
      if (trimmed.isEmpty()) {
        throw new IllegalArgumentException(S3_URL + "='" + url + "' names no bucket: the first path segment is the "
            + "bucket (path-style), e.g. https://s3.example.com/varroa-records");
      }
      int slash = trimmed.indexOf('/');
      String bucket = slash < 0 ? trimmed : trimmed.substring(0, slash);
      String prefix = slash < 0 ? "" : trimmed.substring(slash + 1) + "/";
      URI endpoint = URI.create(scheme + "://" + uri.getRawAuthority());
      return new S3Location(endpoint, bucket, prefix);
    }
  }
}
