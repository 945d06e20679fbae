package dev.varroa.operator.node;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import dev.varroa.recorder.logs.BlobStoreSettings;
import dev.varroa.recorder.logs.LogExtent;
import dev.varroa.recorder.logs.LogKey;
import dev.varroa.recorder.logs.S3LogStore;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/**
 * The record store of the real-node install, read from this machine through the Services' ClusterIPs: PostgreSQL as
 * the dashboard's read-only role, and the S3 bucket of the console logs (test-fixtures/node/manifests/).
 */
final class RecordStore {
  /** test-fixtures/node/manifests/s3.yaml's pair. */
  private static final String ACCESS_KEY = "varroa-test";
  private static final String SECRET_KEY = "varroa-test-s3-secret-access-key";
  private RecordStore() {}

  /** The results of the runs of a job, as the recorder wrote them. */
  static List<String> results(String postgresAddress, String job) throws Exception {
    try (Connection db = connect(postgresAddress);
        PreparedStatement query = db.prepareStatement("SELECT result FROM runs WHERE job = ? AND result IS NOT NULL")) {
      query.setString(1, job);
      List<String> results = new ArrayList<>();
      try (ResultSet rows = query.executeQuery()) {
        while (rows.next()) {
          results.add(rows.getString(1));
        }
      }
      return results;
    }
  }

  /** What the record store holds of a job's runs: how many run and stage rows, finalized, and the run's keys. */
  record RunCounts(int runs, int stages, boolean finalized, String controllerUid, String runId) {}

  static RunCounts counts(String postgresAddress, String job) throws Exception {
    try (Connection db = connect(postgresAddress);
        PreparedStatement runs = db.prepareStatement(
            "SELECT controller_uid, run_id, finalized_at IS NOT NULL FROM runs WHERE job = ?");
        PreparedStatement stages = db.prepareStatement(
            "SELECT count(*) FROM stages WHERE controller_uid = ? AND run_id = ?")) {
      runs.setString(1, job);
      int count = 0;
      String controllerUid = null;
      String runId = null;
      boolean finalized = false;
      try (ResultSet rows = runs.executeQuery()) {
        while (rows.next()) {
          count++;
          controllerUid = rows.getString(1);
          runId = rows.getString(2);
          finalized = rows.getBoolean(3);
        }
      }
      int stageRows = 0;
      if (runId != null) {
        stages.setString(1, controllerUid);
        stages.setString(2, runId);
        try (ResultSet rows = stages.executeQuery()) {
          rows.next();
          stageRows = rows.getInt(1);
        }
      }
      return new RunCounts(count, stageRows, finalized, controllerUid, runId);
    }
  }

  /** How many bytes of a run's console log the blob store holds, read as the BFF reads it (S3LogStore). */
  static long logBytes(String s3Address, String namespace, String controller, String runId) throws Exception {
    Path credentials = Files.createTempDirectory("varroa-node-s3-");
    try {
      Files.writeString(credentials.resolve("access-key-id"), ACCESS_KEY);
      Files.writeString(credentials.resolve("secret-access-key"), SECRET_KEY);
      try (S3LogStore store = S3LogStore.open(BlobStoreSettings.s3("http://" + s3Address + ":8080/"
          + TestServices.BUCKET, "us-east-1", credentials))) {
        LogExtent extent = store.extent(new LogKey("core", namespace, controller, runId));
        return extent.complete() ? extent.storedThrough() : -1;
      }
    } finally {
      try (var files = Files.list(credentials)) {
        for (Path file : files.toList()) {
          Files.delete(file);
        }
      }
      Files.delete(credentials);
    }
  }

  private static Connection connect(String postgresAddress) throws Exception {
    return DriverManager.getConnection("jdbc:postgresql://" + postgresAddress + ":5432/varroa", "varroa_dashboard",
        "varroa-test-dashboard-password");
  }

  /** Every object key in the console-log bucket. */
  static List<String> blobKeys(String s3Address) {
    try (S3Client s3 = S3Client.builder().endpointOverride(URI.create("http://" + s3Address + ":8080"))
        .region(Region.US_EAST_1).forcePathStyle(true)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        .build()) {
      return s3.listObjectsV2(b -> b.bucket(TestServices.BUCKET)).contents().stream().map(S3Object::key).toList();
    }
  }
}
