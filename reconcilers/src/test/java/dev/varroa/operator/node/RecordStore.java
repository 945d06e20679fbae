package dev.varroa.operator.node;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.net.URI;
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
  private RecordStore() {}

  /** The results of the runs of a job, as the recorder wrote them. */
  static List<String> results(String postgresAddress, String job) throws Exception {
    try (Connection db = DriverManager.getConnection("jdbc:postgresql://" + postgresAddress + ":5432/varroa",
        "varroa_dashboard", "varroa-test-dashboard-password");
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

  /** Every object key in the console-log bucket. */
  static List<String> blobKeys(String s3Address) {
    try (S3Client s3 = S3Client.builder().endpointOverride(URI.create("http://" + s3Address + ":8080"))
        .region(Region.US_EAST_1).forcePathStyle(true)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create("varroa-test", "varroa-test-s3-secret-access-key")))
        .build()) {
      return s3.listObjectsV2(b -> b.bucket(TestServices.BUCKET)).contents().stream().map(S3Object::key).toList();
    }
  }
}
