package dev.varroa.plugin.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.protocol.ArtifactPrefixes;
import dev.varroa.testfixtures.seaweed.SeaweedS3Identity;
import dev.varroa.testfixtures.seaweed.SeaweedS3Server;
import dev.varroa.testfixtures.seaweed.SeaweedS3ServerExtension;
import dev.varroa.testfixtures.seaweed.SeaweedS3ServerProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Two pools' credentials against a real SeaweedFS S3 gateway whose identities are limited to their pool's prefix, as
 * the pool's Secret {@code <artifactSecret>-<pool>} would be on the core object store: each writes, lists and reads
 * its own cells' artifacts, and is refused (403) reading, writing and listing under the other pool's prefix. The
 * pools are "shared" and "shared-2", so the proof covers a pool name that extends another.
 */
class ArchivedArtifactsAcrossPoolsIT {

  // The bucket URL carries its own key prefix, as recordStore.blobs.s3.url may.
  private static final String URL_PATH = "/" + SeaweedS3ServerProcess.BUCKET + "/member-eu";
  private static final String NAMES_URL = "http://127.0.0.1" + URL_PATH;
  private static final String POOL_A = "shared";
  private static final String POOL_B = "shared-2";
  private static final String PREFIX_A = ArtifactPrefixes.poolPrefix(NAMES_URL, "eu-1", "ci", POOL_A);
  private static final String PREFIX_B = ArtifactPrefixes.poolPrefix(NAMES_URL, "eu-1", "ci", POOL_B);

  @RegisterExtension
  static final SeaweedS3ServerExtension S3 = new SeaweedS3ServerExtension(List.of(
      SeaweedS3Identity.admin("core-admin"),
      SeaweedS3Identity.limitedToPrefix(POOL_A, SeaweedS3ServerProcess.BUCKET, PREFIX_A),
      SeaweedS3Identity.limitedToPrefix(POOL_B, SeaweedS3ServerProcess.BUCKET, PREFIX_B)));

  @TempDir
  Path workspace;

  @Test
  void eachPoolWritesListsAndReadsItsOwnCellsArtifacts(SeaweedS3Server s3) throws Exception {
    Path report = file("report.html", "<p>green</p>");
    try (ArchivedArtifactStore a = store(s3, POOL_A, POOL_A + "-0");
         ArchivedArtifactStore b = store(s3, POOL_B, POOL_B + "-1")) {
      String key = a.upload("payments/build", 7, "target/report.html", report);
      assertThat(key).isEqualTo("member-eu/artifacts/eu-1/ci/shared/shared-0/payments/build/7/target/report.html");
      b.upload("search/build", 3, "out/app.jar", file("app.jar", "jar bytes"));

      assertThat(a.list("payments/build", 7)).singleElement().satisfies(stored -> {
        assertThat(stored.relativePath()).isEqualTo("target/report.html");
        assertThat(stored.key()).isEqualTo(key);
        assertThat(stored.size()).isEqualTo(Files.size(report));
        assertThat(stored.lastModified()).isNotNull();
      });
      assertThat(read(a, "payments/build", 7, "target/report.html")).isEqualTo("<p>green</p>");
      assertThat(read(b, "search/build", 3, "out/app.jar")).isEqualTo("jar bytes");
    }
  }

  @Test
  void aPoolsCredentialIsRefusedReadingWritingAndListingUnderTheOtherPoolsPrefix(SeaweedS3Server s3)
      throws Exception {
    try (ArchivedArtifactStore a = store(s3, POOL_A, POOL_A + "-0");
         ArchivedArtifactStore b = store(s3, POOL_B, POOL_B + "-0")) {
      a.upload("payments/build", 1, "a.txt", file("a.txt", "pool a"));
      b.upload("search/build", 1, "b.txt", file("b.txt", "pool b"));
      assertRefused(s3, POOL_A, b, PREFIX_B + POOL_B + "-0/", "search/build", "b.txt", "pool b");
      assertRefused(s3, POOL_B, a, PREFIX_A + POOL_A + "-0/", "payments/build", "a.txt", "pool a");
    }
  }

  @Test
  void deletingABuildsArtifactsRemovesItsFilesAndNoOtherBuilds(SeaweedS3Server s3) throws Exception {
    try (ArchivedArtifactStore a = store(s3, POOL_A, POOL_A + "-2")) {
      a.upload("payments/build", 7, "report.html", file("r7.html", "7"));
      a.upload("payments/build", 7, "logs/test.log", file("t7.log", "7"));
      // Build 70's folder starts with build 7's digits: the build prefix ends in '/', so it is not touched.
      a.upload("payments/build", 70, "report.html", file("r70.html", "70"));

      assertThat(a.delete("payments/build", 7)).isEqualTo(2);

      assertThat(a.list("payments/build", 7)).isEmpty();
      assertThat(a.list("payments/build", 70)).extracting(StoredArtifact::relativePath).containsExactly("report.html");
      assertThat(read(a, "payments/build", 70, "report.html")).isEqualTo("70");
      assertThat(a.delete("payments/build", 7)).isZero();
    }
  }

  @Test
  void aPoolsCredentialCannotListTheArtifactsRoot(SeaweedS3Server s3) {
    try (S3Client a = client(s3, s3.identity(POOL_A))) {
      assertThatThrownBy(() -> a.listObjectsV2(list -> list.bucket(s3.bucket()).prefix("member-eu/artifacts/")))
          .isInstanceOf(S3Exception.class)
          .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(403));
    }
  }

  @Test
  void theCoreAdminIdentitySeesBothPools(SeaweedS3Server s3) throws Exception {
    try (ArchivedArtifactStore a = store(s3, POOL_A, POOL_A + "-1");
         ArchivedArtifactStore b = store(s3, POOL_B, POOL_B + "-1");
         S3Client admin = client(s3, s3.identity("core-admin"))) {
      String keyA = a.upload("docs/site", 2, "index.html", file("index.html", "a"));
      String keyB = b.upload("docs/site", 2, "index.html", file("index2.html", "b"));
      List<String> keys = admin.listObjectsV2(list -> list.bucket(s3.bucket()).prefix("member-eu/artifacts/"))
          .contents().stream().map(S3Object::key).toList();
      assertThat(keys).contains(keyA, keyB);
      assertThat(admin.getObjectAsBytes(get -> get.bucket(s3.bucket()).key(keyB)).asUtf8String()).isEqualTo("b");
    }
  }

  // The credential of `pool`, aimed at another pool's cell prefix: every call is refused by the server itself.
  private void assertRefused(SeaweedS3Server s3, String pool, ArchivedArtifactStore owner, String otherCellPrefix,
      String otherJob, String otherFile, String otherContent) throws Exception {
    ArtifactStoreSettings aimed = settings(s3, pool, pool + "-0").withCellPrefix(otherCellPrefix);
    try (ArchivedArtifactStore trespasser = ArchivedArtifactStore.open(aimed)) {
      String otherKey = otherCellPrefix + otherJob + "/1/" + otherFile;
      assertThatThrownBy(() -> trespasser.open(otherJob, 1, otherFile))
          .isInstanceOf(ArtifactStoreException.class)
          .hasMessageContaining("cannot read " + otherKey + " in bucket " + s3.bucketUrl())
          .hasMessageContaining("403")
          .hasMessageContaining("may not read")
          .satisfies(e -> assertThat(((ArtifactStoreException) e).statusCode()).isEqualTo(403));
      assertThatThrownBy(() -> trespasser.upload(otherJob, 1, otherFile, file("overwrite.txt", "overwritten")))
          .isInstanceOf(ArtifactStoreException.class)
          .hasMessageContaining("cannot write " + otherKey)
          .satisfies(e -> assertThat(((ArtifactStoreException) e).statusCode()).isEqualTo(403));
      assertThatThrownBy(() -> trespasser.list(otherJob, 1))
          .isInstanceOf(ArtifactStoreException.class)
          .hasMessageContaining("cannot list " + otherCellPrefix + otherJob + "/1/")
          .satisfies(e -> assertThat(((ArtifactStoreException) e).statusCode()).isEqualTo(403));
      assertThatThrownBy(() -> trespasser.delete(otherJob, 1))
          .isInstanceOf(ArtifactStoreException.class)
          .satisfies(e -> assertThat(((ArtifactStoreException) e).statusCode()).isEqualTo(403));
    }
    // The refused write and delete changed nothing: the owner still reads its own bytes.
    assertThat(read(owner, otherJob, 1, otherFile)).isEqualTo(otherContent);
  }

  private static String url(SeaweedS3Server s3) {
    return s3.endpoint() + URL_PATH;
  }

  // What the operator gives a cell of `pool`: the bucket URL, the cell's prefix and the pool's credential.
  private static ArtifactStoreSettings settings(SeaweedS3Server s3, String pool, String cell) {
    SeaweedS3Identity identity = s3.identity(pool);
    return ArtifactStoreSettings.fromEnvironment(Map.of(
        ArtifactStoreSettings.URL_VARIABLE, url(s3),
        ArtifactStoreSettings.PREFIX_VARIABLE, ArtifactPrefixes.cellPrefix(url(s3), "eu-1", "ci", pool, cell),
        ArtifactStoreSettings.ACCESS_KEY_VARIABLE, identity.accessKeyId(),
        ArtifactStoreSettings.SECRET_KEY_VARIABLE, identity.secretAccessKey())).orElseThrow();
  }

  private static ArchivedArtifactStore store(SeaweedS3Server s3, String pool, String cell) {
    assertThat(ArtifactPrefixes.poolPrefix(url(s3), "eu-1", "ci", pool))
        .isEqualTo(pool.equals(POOL_A) ? PREFIX_A : PREFIX_B);
    return ArchivedArtifactStore.open(settings(s3, pool, cell));
  }

  private static String read(ArchivedArtifactStore store, String job, int build, String path) throws Exception {
    try (InputStream in = store.open(job, build, path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private Path file(String name, String content) throws IOException {
    return Files.writeString(workspace.resolve(name), content);
  }

  private static S3Client client(SeaweedS3Server s3, SeaweedS3Identity identity) {
    return S3Client.builder()
        .endpointOverride(URI.create(s3.endpoint()))
        .region(Region.of(s3.region()))
        .forcePathStyle(true)
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create(identity.accessKeyId(), identity.secretAccessKey())))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }
}
