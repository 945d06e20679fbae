package dev.varroa.testfixtures.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

class S3ServerIT {

  @Test
  void servesSignedRequestsKeepsObjectsAcrossAKillAndRefusesAWrongSecret() throws Exception {
    try (S3ServerProcess process = S3ServerProcess.start()) {
      S3Server s3 = process.value();
      Duration firstStart = process.lastStartup();
      try (S3Client client = client(s3, s3.secretAccessKey())) {
        client.putObject(put -> put.bucket(s3.bucket()).key("logs/a/b"),
            RequestBody.fromString("hello", StandardCharsets.UTF_8));
        assertThat(client.getObjectAsBytes(get -> get.bucket(s3.bucket()).key("logs/a/b").range("bytes=1-3"))
            .asUtf8String()).isEqualTo("ell");
      }
      s3.kill();
      assertThat(s3.isRunning()).isFalse();
      s3.start();
      try (S3Client client = client(s3, s3.secretAccessKey())) {
        assertThat(client.getObjectAsBytes(get -> get.bucket(s3.bucket()).key("logs/a/b")).asUtf8String())
            .isEqualTo("hello");
        String other = s3.createBucket("second-bucket");
        assertThat(other).endsWith("/second-bucket");
        assertThat(client.listObjectsV2(list -> list.bucket("second-bucket")).contents()).isEmpty();
      }
      try (S3Client wrong = client(s3, "not-the-secret")) {
        assertThatThrownBy(() -> wrong.getObjectAsBytes(get -> get.bucket(s3.bucket()).key("logs/a/b")))
            .isInstanceOf(S3Exception.class)
            .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(403));
      }
      System.out.println("figure: s3proxy startup first=" + firstStart.toMillis() + "ms restart="
          + process.lastStartup().toMillis() + "ms");
    }
  }

  private static S3Client client(S3Server s3, String secret) {
    return S3Client.builder()
        .endpointOverride(URI.create(s3.endpoint()))
        .region(Region.of(s3.region()))
        .forcePathStyle(true)
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(s3.accessKeyId(), secret)))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }
}
