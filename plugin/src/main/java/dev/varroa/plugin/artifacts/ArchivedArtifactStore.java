package dev.varroa.plugin.artifacts;

import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Archived artifacts of a cell's builds, written straight from the Jenkins process to the object store under the
 * cell's own prefix: {@code <cell prefix><job full name>/<build number>/<relative path>}. The credential is the
 * pool's, scoped by the store to the pool's prefix, so a cell can reach no other pool's artifacts.
 */
public final class ArchivedArtifactStore implements AutoCloseable {

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration CALL_TIMEOUT = Duration.ofMinutes(10);
  // S3's limit on a key, in UTF-8 bytes.
  private static final int MAX_KEY_BYTES = 1024;

  private final S3Client client;
  private final ArtifactStoreSettings settings;

  ArchivedArtifactStore(S3Client client, ArtifactStoreSettings settings) {
    this.client = client;
    this.settings = settings;
  }

  /** Builds the client without a request: the store may become reachable after Jenkins starts. */
  public static ArchivedArtifactStore open(ArtifactStoreSettings settings) {
    AwsCredentials credentials = settings.sessionToken() == null
        ? AwsBasicCredentials.create(settings.accessKeyId(), settings.secretAccessKey())
        : AwsSessionCredentials.create(settings.accessKeyId(), settings.secretAccessKey(), settings.sessionToken());
    S3Client client = S3Client.builder()
        .endpointOverride(settings.endpoint())
        .region(Region.of(settings.region()))
        .forcePathStyle(true)
        // Many S3-compatible stores reject the SDK's default flexible checksums; send them only where S3 requires them.
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .credentialsProvider(StaticCredentialsProvider.create(credentials))
        .httpClient(UrlConnectionHttpClient.builder()
            .connectionTimeout(CONNECT_TIMEOUT)
            .socketTimeout(SOCKET_TIMEOUT)
            .build())
        .overrideConfiguration(override -> override.apiCallTimeout(CALL_TIMEOUT))
        .build();
    return new ArchivedArtifactStore(client, settings);
  }

  /** Uploads one archived file; returns its object key. */
  public String upload(String jobFullName, int buildNumber, String relativePath, Path file)
      throws ArtifactStoreException {
    String key = objectKey(settings.cellPrefix(), jobFullName, buildNumber, relativePath);
    if (!Files.isRegularFile(file)) {
      throw new ArtifactStoreException("cannot upload " + file + " to " + key + " in bucket " + settings.bucketUrl()
          + ": it is not a readable file; fix: archive files that exist in the workspace", 0, null);
    }
    try {
      client.putObject(put -> put.bucket(settings.bucket()).key(key), RequestBody.fromFile(file));
      return key;
    } catch (SdkException e) {
      throw failure("write", key, e);
    }
  }

  /** The build's archived files, sorted by key. */
  public List<StoredArtifact> list(String jobFullName, int buildNumber) throws ArtifactStoreException {
    String buildPrefix = buildPrefix(settings.cellPrefix(), jobFullName, buildNumber);
    List<StoredArtifact> artifacts = new ArrayList<>();
    String token = null;
    try {
      do {
        String continuation = token;
        ListObjectsV2Response page = client.listObjectsV2(list -> list.bucket(settings.bucket())
            .prefix(buildPrefix).continuationToken(continuation));
        for (S3Object object : page.contents()) {
          artifacts.add(new StoredArtifact(object.key().substring(buildPrefix.length()), object.key(), object.size(),
              object.lastModified()));
        }
        token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
      } while (token != null);
    } catch (SdkException e) {
      throw failure("list", buildPrefix, e);
    }
    return artifacts;
  }

  /** The archived file's content; the caller closes the stream. */
  public InputStream open(String jobFullName, int buildNumber, String relativePath) throws ArtifactStoreException {
    String key = objectKey(settings.cellPrefix(), jobFullName, buildNumber, relativePath);
    try {
      return client.getObject(get -> get.bucket(settings.bucket()).key(key));
    } catch (SdkException e) {
      throw failure("read", key, e);
    }
  }

  /**
   * Deletes the build's archived files; returns how many there were. One request per file: the batch delete needs a
   * checksum header that not every S3-compatible store accepts, and a build archives few files.
   */
  public int delete(String jobFullName, int buildNumber) throws ArtifactStoreException {
    List<StoredArtifact> artifacts = list(jobFullName, buildNumber);
    for (StoredArtifact artifact : artifacts) {
      try {
        client.deleteObject(delete -> delete.bucket(settings.bucket()).key(artifact.key()));
      } catch (SdkException e) {
        throw failure("delete", artifact.key(), e);
      }
    }
    return artifacts.size();
  }

  /**
   * Where the build's file lies in the store, for messages and as its identity in Jenkins' file views; an empty
   * relative path is the build's folder. Carries no credential.
   */
  public URI location(String jobFullName, int buildNumber, String relativePath) {
    String key = relativePath == null || relativePath.isEmpty()
        ? buildPrefix(settings.cellPrefix(), jobFullName, buildNumber)
        : objectKey(settings.cellPrefix(), jobFullName, buildNumber, relativePath);
    URI endpoint = settings.endpoint();
    String base = endpoint.getPath() == null ? "" : endpoint.getPath().replaceAll("/+$", "");
    try {
      // The multi-argument constructor quotes what a key may hold and a URI may not (spaces, '#', '?').
      return new URI(endpoint.getScheme(), endpoint.getAuthority(), base + "/" + settings.bucket() + "/" + key,
          null, null);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("the object key " + key + " does not make a URI under " + endpoint + ": "
          + e.getMessage() + "; fix: rename the job or the archived path", e);
    }
  }

  /**
   * {@code <cell prefix><job full name>/<build number>/<relative path>}. Job names and paths are kept as Jenkins
   * spells them (S3 keys take any UTF-8), but no segment may be empty, '.' or '..': a key must not climb out of the
   * build's folder into another job's or another cell's.
   */
  static String objectKey(String cellPrefix, String jobFullName, int buildNumber, String relativePath) {
    String path = relativePath == null ? null : relativePath.replace('\\', '/');
    checkSegments(path, "relative path '" + relativePath + "'", "the file's path inside the build's artifacts");
    String key = buildPrefix(cellPrefix, jobFullName, buildNumber) + path;
    int bytes = key.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_KEY_BYTES) {
      throw new IllegalArgumentException("the object key for " + jobFullName + " #" + buildNumber + " " + relativePath
          + " is " + bytes + " bytes, over the object store's " + MAX_KEY_BYTES + ": shorten the archived path");
    }
    return key;
  }

  static String buildPrefix(String cellPrefix, String jobFullName, int buildNumber) {
    checkSegments(jobFullName, "job full name '" + jobFullName + "'", "a Jenkins job's full name such as team-a/build");
    if (buildNumber < 1) {
      throw new IllegalArgumentException("build number " + buildNumber + " of " + jobFullName
          + " is not a Jenkins build number: give the run's number, 1 or more");
    }
    return cellPrefix + jobFullName + "/" + buildNumber + "/";
  }

  private static void checkSegments(String value, String what, String expected) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("the " + what + " is empty: give " + expected);
    }
    for (String segment : value.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException("the " + what + " has an empty, '.' or '..' segment: give " + expected
            + ", relative and without '..'");
      }
    }
  }

  private ArtifactStoreException failure(String verb, String key, SdkException e) {
    String where = key + " in bucket " + settings.bucketUrl();
    if (e instanceof S3Exception s3) {
      int status = s3.statusCode();
      String code = s3.awsErrorDetails() == null ? "" : s3.awsErrorDetails().errorCode();
      String fix;
      if (status == 403) {
        fix = "the credential " + settings.accessKeyId() + " may not " + verb + " there; fix: the pool's Secret "
            + "<artifactSecret>-<pool> must hold a credential scoped to the pool's prefix"
            + (verb.equals("delete") ? " that may also delete there (s3:DeleteObject)" : "") + ", and "
            + ArtifactStoreSettings.PREFIX_VARIABLE + " (" + settings.cellPrefix() + ") must be this cell's prefix "
            + "under it";
      } else if ("NoSuchBucket".equals(code)) {
        fix = "the bucket does not exist; fix: create it, or set " + ArtifactStoreSettings.URL_VARIABLE
            + " to recordStore.blobs.s3.url";
      } else if (status == 404) {
        fix = "no such object; fix: list the build's artifacts for the paths it archived";
      } else {
        String answer = s3.awsErrorDetails() == null ? s3.getMessage() : s3.awsErrorDetails().errorMessage();
        fix = "the object store answered '" + answer + "'; fix: retry once the store is healthy, or correct "
            + ArtifactStoreSettings.URL_VARIABLE + " and " + ArtifactStoreSettings.REGION_VARIABLE;
      }
      return new ArtifactStoreException("cannot " + verb + " " + where + ": " + status + " " + code + ": " + fix,
          status, e);
    }
    return new ArtifactStoreException("cannot " + verb + " " + where + ": " + e.getMessage() + "; fix: the cell must "
        + "reach " + settings.endpoint() + " (networkPolicy.recordStoreBlobEgress when cells are isolated)", 0, e);
  }

  @Override
  public void close() {
    client.close();
  }

  @Override
  public String toString() {
    return "ArchivedArtifactStore[" + settings.bucketUrl() + " prefix " + settings.cellPrefix() + "]";
  }
}
