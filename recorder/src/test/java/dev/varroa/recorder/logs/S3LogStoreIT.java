package dev.varroa.recorder.logs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.testfixtures.s3.S3Server;
import dev.varroa.testfixtures.s3.S3ServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class S3LogStoreIT extends LogStoreContract {

  @RegisterExtension
  static final S3ServerExtension S3 = new S3ServerExtension();

  @TempDir
  static Path credentials;

  static BlobStoreSettings settings(S3Server s3, Path credentialsDir, String keyPrefix) throws IOException {
    Files.writeString(credentialsDir.resolve("access-key-id"), s3.accessKeyId());
    Files.writeString(credentialsDir.resolve("secret-access-key"), s3.secretAccessKey());
    return BlobStoreSettings.s3(s3.bucketUrl() + keyPrefix, s3.region(), credentialsDir);
  }

  @Override
  LogStore open() throws IOException {
    return LogStores.open(settings(S3.server(), credentials, "")).orElseThrow();
  }

  // The filesystem backend reports a file's modification time as the object's LastModified.
  @Override
  void age(LogKey key, Duration age) throws IOException {
    Path run = S3.server().dataDirectory().resolve(S3.server().bucket())
        .resolve(((S3LogStore) open()).runPrefix(key));
    FileTime then = FileTime.from(Instant.now().minus(age));
    try (Stream<Path> files = Files.list(run)) {
      for (Path file : files.toList()) {
        Files.setLastModifiedTime(file, then);
      }
    }
  }

  @Test
  void keepsTheDocumentedLayoutUnderTheUrlsKeyPrefix() throws Exception {
    LogKey key = new LogKey("local", "team-a", "ci", "folder/job#42");
    try (LogStore store = LogStores.open(settings(S3.server(), credentials, "/site-a")).orElseThrow()) {
      store.write(key, 0, bytes(10, 8), false);
      store.write(key, 10, bytes(5, 9), true);
    }
    Path run = S3.server().dataDirectory().resolve(S3.server().bucket())
        .resolve("site-a/logs/local/team-a/ci/folder%2Fjob%2342");
    try (Stream<Path> files = Files.list(run)) {
      assertThat(files.map(file -> file.getFileName().toString()).sorted())
          .containsExactly("00000000000000000000", "00000000000000000010", "complete");
    }
    assertThat(Files.readString(run.resolve("complete"))).isEqualTo("15");
  }
}
