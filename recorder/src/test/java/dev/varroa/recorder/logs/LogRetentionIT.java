package dev.varroa.recorder.logs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.recorder.RecorderSettings;
import dev.varroa.recorder.retention.RetentionRules;
import dev.varroa.recorder.retention.RetentionSweeper;
import dev.varroa.recorder.store.RecordStore;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import dev.varroa.testfixtures.s3.S3ServerExtension;
import dev.varroa.testfixtures.s3.S3Server;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recorder's retention sweep against the real log tiers: a log last written longer ago than the logs age goes
 * whole, a newer one and a running build's log stay byte for byte, with the default rules (logs 30 days).
 */
class LogRetentionIT {

  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  @RegisterExtension
  static final S3ServerExtension S3 = new S3ServerExtension();

  @TempDir
  static Path credentials;

  private static final byte[] LOG = "Started by timer\n[Pipeline] sh: make\nFinished: SUCCESS\n"
      .getBytes(StandardCharsets.UTF_8);

  @Test
  void theS3TierLosesOnlyTheLogOlderThanTheLogsAge() throws Exception {
    S3Server s3 = S3.server();
    Files.writeString(credentials.resolve("access-key-id"), s3.accessKeyId());
    Files.writeString(credentials.resolve("secret-access-key"), s3.secretAccessKey());
    try (RecordStore records = records(POSTGRES.server().createDatabase("retention_s3"));
        LogStore store = LogStores.open(BlobStoreSettings.s3(s3.bucketUrl(), s3.region(), credentials))
            .orElseThrow()) {
      // the filesystem backend reports a file's modification time as the object's LastModified
      sweepKeepsOnlyTheNew(records, store, (key, age) -> {
        Path run = s3.dataDirectory().resolve(s3.bucket()).resolve(((S3LogStore) store).runPrefix(key));
        try (Stream<Path> files = Files.list(run)) {
          for (Path file : files.toList()) {
            Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
          }
        }
      });
    }
  }

  @Test
  void thePostgresTierLosesOnlyTheLogOlderThanTheLogsAge() throws Exception {
    PostgresServer postgres = POSTGRES.server();
    String url = postgres.createDatabase("retention_pg");
    try (RecordStore records = records(url);
        LogStore store = LogStores.open(BlobStoreSettings.postgresWithPassword(url, postgres.user(),
            postgres.password())).orElseThrow()) {
      sweepKeepsOnlyTheNew(records, store, (key, age) -> {
        try (Connection connection = DriverManager.getConnection(url, postgres.user(), postgres.password());
            PreparedStatement update = connection.prepareStatement("UPDATE run_logs SET last_written_at = now() - ? "
                + "* interval '1 second' WHERE cluster = ? AND namespace = ? AND controller = ? AND run_id = ?")) {
          update.setLong(1, age.toSeconds());
          update.setString(2, key.cluster());
          update.setString(3, key.namespace());
          update.setString(4, key.controller());
          update.setString(5, key.runId());
          assertThat(update.executeUpdate()).isEqualTo(1);
        }
      });
    }
  }

  @FunctionalInterface
  private interface Ageing {
    void age(LogKey key, Duration age) throws Exception;
  }

  private static void sweepKeepsOnlyTheNew(RecordStore records, LogStore store, Ageing ageing) throws Exception {
    String id = UUID.randomUUID().toString().substring(0, 8);
    LogKey old = new LogKey("local", "team-a", "ci", "old-" + id);
    LogKey recent = new LogKey("local", "team-a", "ci", "recent-" + id);
    LogKey running = new LogKey("local", "team-a", "ci", "running-" + id);
    store.write(old, 0, LOG, true);
    store.write(recent, 0, LOG, true);
    store.write(running, 0, LOG, false);
    ageing.age(old, Duration.ofDays(31));
    ageing.age(recent, Duration.ofDays(29));

    RetentionSweeper.Swept swept = new RetentionSweeper(records.dataSource(), RetentionRules.defaults(),
        Optional.of(store), Clock.systemUTC()).sweep();

    assertThat(swept.logs()).isEqualTo(1);
    assertThat(store.extent(old)).isEqualTo(LogExtent.EMPTY);
    assertThat(store.read(old, 0, 1024)).isEmpty();
    assertThat(store.extent(recent)).isEqualTo(new LogExtent(LOG.length, true));
    assertThat(store.read(recent, 0, 1024)).isEqualTo(LOG);
    assertThat(store.extent(running)).isEqualTo(new LogExtent(LOG.length, false));
  }

  private static RecordStore records(String url) {
    PostgresServer postgres = POSTGRES.server();
    RecordStore store = RecordStore.open(RecorderSettings.of(url, postgres.user(), postgres.password(),
        "nats://127.0.0.1:4222"));
    store.migrate();
    return store;
  }
}
