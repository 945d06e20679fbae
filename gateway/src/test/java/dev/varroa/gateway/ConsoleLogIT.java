package dev.varroa.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.builds.v1.LogChunk;
import dev.varroa.protocol.builds.v1.LogChunkAck;
import dev.varroa.protocol.builds.v1.LogChunkAck.Result;
import dev.varroa.protocol.builds.v1.LogChunkBatch;
import dev.varroa.protocol.bus.v1.LogAppended;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.LogAppend;
import dev.varroa.protocol.mite.v1.LogAppendAnswer;
import dev.varroa.protocol.mite.v1.MiteMessage;
import dev.varroa.recorder.logs.BlobStoreSettings;
import dev.varroa.recorder.logs.LogExtent;
import dev.varroa.recorder.logs.LogKey;
import dev.varroa.recorder.logs.LogReader;
import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.logs.LogStores;
import dev.varroa.recorder.logs.LogTail;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import dev.varroa.testfixtures.s3.S3Server;
import dev.varroa.testfixtures.s3.S3ServerExtension;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Console logs through a real gateway: the test plays the mite (its client certificate over mTLS) and the plugin's
 * shipping rules (chunks of 256 KiB, the next chunk from the last ack's stored_through), against real s3proxy,
 * PostgreSQL and NATS.
 */
class ConsoleLogIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  @RegisterExtension
  static final S3ServerExtension S3 = new S3ServerExtension();

  @TempDir
  static Path directory;

  private static final String CLUSTER = "cell-logs";
  private static final int CHUNK = 256 * 1024;
  private static final int CHUNKS_PER_BATCH = 4;
  private static final Duration REPLY = Duration.ofSeconds(30);

  private static CertificateAuthority ca;
  private static Connection bus;
  private static TokenIssuer tokens;
  private static BlobStoreSettings s3;
  private static BlobStoreSettings postgres;

  @BeforeAll
  static void prepare() throws Exception {
    ca = CertificateAuthority.createFiles(directory.resolve("ca.pem"), directory.resolve("ca-key.pem"));
    bus = NATS.server().connect();
    tokens = new TokenIssuer(bus);
    S3Server s3Server = S3.server();
    Path credentials = Files.createDirectory(directory.resolve("blob-credentials"));
    Files.writeString(credentials.resolve("access-key-id"), s3Server.accessKeyId());
    Files.writeString(credentials.resolve("secret-access-key"), s3Server.secretAccessKey());
    s3 = BlobStoreSettings.s3(s3Server.bucketUrl(), s3Server.region(), credentials);
    PostgresServer db = POSTGRES.server();
    Flyway.configure().dataSource(db.jdbcUrl(), db.user(), db.password()).locations("classpath:db/migration").load()
        .migrate();
    Path password = directory.resolve("blob-postgres-password");
    Files.writeString(password, db.password());
    // As the gateway runs: VARROA_BLOB_POSTGRES_* only, the password from its file.
    postgres = BlobStoreSettings.fromEnv(Map.of("VARROA_BLOB_MODE", "postgres",
        "VARROA_BLOB_POSTGRES_DSN", db.jdbcUrl(), "VARROA_BLOB_POSTGRES_USER", db.user(),
        "VARROA_BLOB_POSTGRES_PASSWORD_FILE", password.toString()));
  }

  @AfterAll
  static void close() throws Exception {
    if (bus != null) {
      bus.close();
    }
  }

  @Test
  void a50MegabyteLogArrivesByteIdenticalInTheS3Tier() throws Exception {
    shipsA50MegabyteLog(s3, "s3");
  }

  @Test
  void a50MegabyteLogArrivesByteIdenticalInThePostgresTier() throws Exception {
    shipsA50MegabyteLog(postgres, "postgres");
  }

  private void shipsA50MegabyteLog(BlobStoreSettings tier, String name) throws Exception {
    byte[] log = consoleText(50 * 1024 * 1024, 42);
    String runId = "run-" + UUID.randomUUID();
    try (Gateway gateway = start("gateway-logs-" + name, tier);
        LogStore store = LogStores.open(tier).orElseThrow()) {
      TestMite mite = enroll(gateway);
      List<LogAppended> announced = new CopyOnWriteArrayList<>();
      List<byte[]> raw = new CopyOnWriteArrayList<>();
      Dispatcher viewer = bus.createDispatcher(message -> raw.add(message.getData()));
      viewer.subscribe(BusNames.logAppended(CLUSTER, mite.identity(), runId));
      bus.flush(Duration.ofSeconds(5));
      try (MiteStream stream = mite.connect(gateway, ca)) {
        stream.hello();
        long started = System.nanoTime();
        LogChunkAck last = new Sender(stream, runId, log).sendFrom(0);
        double seconds = (System.nanoTime() - started) / 1e9;

        assertThat(last.getResult()).isEqualTo(Result.STORED);
        assertThat(last.getComplete()).isTrue();
        assertThat(last.getStoredThrough()).isEqualTo(log.length);
        LogKey key = new LogKey(CLUSTER, mite.identity().namespace(), mite.identity().name(), runId);
        assertThat(store.extent(key)).isEqualTo(new LogExtent(log.length, true));
        assertThat(sha256(readAll(store, key))).isEqualTo(sha256(log));
        await().atMost(Duration.ofSeconds(10)).until(() -> raw.stream().anyMatch(data -> parse(data).getComplete()));
        raw.forEach(data -> announced.add(parse(data)));
        LogAppended completion = announced.stream().filter(LogAppended::getComplete).findFirst().orElseThrow();
        assertThat(completion.getStoredThrough()).isEqualTo(log.length);
        assertThat(completion.getController()).isEqualTo(mite.identity().toRef());
        assertThat(completion.getJob()).isEqualTo("team/app/main");
        System.out.printf("figure: %s tier stored a 50 MiB log in 256 KiB chunks at %.1f MB/s (%.1f s)%n", name,
            log.length / 1e6 / seconds, seconds);
      } finally {
        bus.closeDispatcher(viewer);
      }
    }
  }

  @Test
  void aGatewayKilledMidLogLosesNoAcknowledgedChunkAndTheResentLogHasNoDoubledByte() throws Exception {
    byte[] log = consoleText(12 * 1024 * 1024, 7);
    String runId = "run-" + UUID.randomUUID();
    Gateway doomed = start("gateway-logs-doomed", s3);
    TestMite mite = enroll(doomed);
    LogKey key = new LogKey(CLUSTER, mite.identity().namespace(), mite.identity().name(), runId);
    long acknowledged;
    try (MiteStream stream = mite.connect(doomed, ca)) {
      stream.hello();
      // The plugin waits for each ack before the next POST of a run; the gateway dies with one append in flight.
      acknowledged = new Sender(stream, runId, log).sendUntilThenOneInFlight(log.length / 2);
      doomed.crash();
    } finally {
      doomed.crash();
    }
    try (LogStore store = LogStores.open(s3).orElseThrow()) {
      assertThat(store.extent(key).storedThrough()).isGreaterThanOrEqualTo(acknowledged);
    }

    try (Gateway replacement = start("gateway-logs-replacement", s3);
        MiteStream stream = mite.connect(replacement, ca);
        LogStore store = LogStores.open(s3).orElseThrow()) {
      stream.hello();
      LogChunkAck last = new Sender(stream, runId, log).sendFrom(acknowledged);

      assertThat(last.getComplete()).isTrue();
      assertThat(store.extent(key)).isEqualTo(new LogExtent(log.length, true));
      assertThat(sha256(readAll(store, key))).isEqualTo(sha256(log));
    }
  }

  @Test
  void aLiveTailSeesALineTheMiteAppends() throws Exception {
    String runId = "run-" + UUID.randomUUID();
    try (Gateway gateway = start("gateway-logs-tail", postgres);
        LogStore store = LogStores.open(postgres).orElseThrow();
        Connection viewerBus = NATS.server().connect();
        LogReader reader = new LogReader(store, viewerBus)) {
      TestMite mite = enroll(gateway);
      LogKey key = new LogKey(CLUSTER, mite.identity().namespace(), mite.identity().name(), runId);
      ByteArrayOutputStream seen = new ByteArrayOutputStream();
      java.util.concurrent.atomic.AtomicLong arrived = new java.util.concurrent.atomic.AtomicLong();
      try (MiteStream stream = mite.connect(gateway, ca);
          LogTail tail = reader.tail(key, 0, (offset, data) -> {
            synchronized (seen) {
              seen.write(data, 0, data.length);
            }
            arrived.set(System.nanoTime());
          })) {
        stream.hello();
        byte[] first = "Started by timer\n".getBytes(StandardCharsets.UTF_8);
        new Sender(stream, runId, first).append(0, first.length, false);
        await().atMost(Duration.ofSeconds(10)).until(() -> tail.position() == first.length);

        byte[] line = "[Pipeline] sh: make test\n".getBytes(StandardCharsets.UTF_8);
        byte[] whole = (new String(first, StandardCharsets.UTF_8) + new String(line, StandardCharsets.UTF_8))
            .getBytes(StandardCharsets.UTF_8);
        long sent = System.nanoTime();
        new Sender(stream, runId, whole).append(first.length, whole.length, false);

        await().atMost(Duration.ofSeconds(10)).until(() -> tail.position() == whole.length);
        synchronized (seen) {
          assertThat(seen.toString(StandardCharsets.UTF_8)).isEqualTo("Started by timer\n[Pipeline] sh: make test\n");
        }
        System.out.println("figure: live tail saw a new line " + (arrived.get() - sent) / 1_000_000
            + " ms after the mite sent it (postgres tier)");
      }
    }
  }

  /** The plugin's side: chunks of 256 KiB, up to four a batch, each batch a LogAppend answered by request id. */
  private static final class Sender {
    private final MiteStream stream;
    private final String runId;
    private final byte[] log;
    private final Map<String, Integer> inFlight = new ConcurrentHashMap<>();

    Sender(MiteStream stream, String runId, byte[] log) {
      this.stream = stream;
      this.runId = runId;
      this.log = log;
    }

    /** Sends [from, end) and the last chunk, one batch at a time, each from the previous ack's stored_through. */
    LogChunkAck sendFrom(long from) throws InterruptedException {
      long next = from;
      while (true) {
        LogChunkAck ack = append(next, Math.min(log.length, next + (long) CHUNK * CHUNKS_PER_BATCH), true);
        assertThat(ack.getResult()).isIn(Result.STORED, Result.DUPLICATE);
        if (ack.getComplete()) {
          return ack;
        }
        next = ack.getStoredThrough();
      }
    }

    /** One batch of chunks over [from, to); the last chunk marks the log complete when to is its end. */
    LogChunkAck append(long from, long to, boolean lastAtEnd) throws InterruptedException {
      String requestId = send(from, to, lastAtEnd);
      List<LogChunkAck> acks = answer(requestId);
      return acks.get(acks.size() - 1);
    }

    /** Sends batch after batch until an ack reaches target, then one more it does not wait for; returns the ack. */
    long sendUntilThenOneInFlight(long target) throws InterruptedException {
      long acknowledged = 0;
      while (acknowledged < target) {
        LogChunkAck ack = append(acknowledged, Math.min(log.length, acknowledged + (long) CHUNK * CHUNKS_PER_BATCH),
            false);
        assertThat(ack.getResult()).isEqualTo(Result.STORED);
        acknowledged = ack.getStoredThrough();
      }
      send(acknowledged, Math.min(log.length, acknowledged + (long) CHUNK * CHUNKS_PER_BATCH), false);
      return acknowledged;
    }

    private String send(long from, long to, boolean lastAtEnd) {
      LogChunkBatch.Builder batch = LogChunkBatch.newBuilder();
      for (long offset = from; offset < to || (offset == to && batch.getChunksCount() == 0); offset += CHUNK) {
        int length = (int) Math.min(CHUNK, to - offset);
        batch.addChunks(LogChunk.newBuilder().setRunId(runId).setJob("team/app/main").setOffset(offset)
            .setData(ByteString.copyFrom(log, (int) offset, length))
            .setLast(lastAtEnd && offset + length == log.length)
            .setEmittedAtEpochMillis(System.currentTimeMillis()));
        if (length == 0) {
          break;
        }
      }
      String requestId = UUID.randomUUID().toString();
      inFlight.put(requestId, batch.getChunksCount());
      stream.send(MiteMessage.newBuilder().setLogAppend(LogAppend.newBuilder().setRequestId(requestId)
          .setBatch(batch)).build());
      return requestId;
    }

    private final Map<String, LogAppendAnswer> answers = new ConcurrentHashMap<>();

    private List<LogChunkAck> answer(String requestId) throws InterruptedException {
      while (!answers.containsKey(requestId)) {
        GatewayMessage message = stream.next(REPLY);
        if (message.hasLogAppendAnswer()) {
          answers.put(message.getLogAppendAnswer().getRequestId(), message.getLogAppendAnswer());
        }
      }
      LogAppendAnswer answer = answers.remove(requestId);
      assertThat(answer.getAck().getAcksCount()).isEqualTo(inFlight.remove(requestId));
      return answer.getAck().getAcksList();
    }
  }

  private static Gateway start(String id, BlobStoreSettings tier) throws Exception {
    return Gateway.start(GatewaySettings.of(id, NATS.server().url(), directory.resolve("ca.pem"),
            directory.resolve("ca-key.pem"))
        .withListen("127.0.0.1", 0)
        .withTlsNames(List.of("localhost"), List.of("127.0.0.1"))
        .withClusterName(CLUSTER)
        .withBlobStore(tier));
  }

  private static TestMite enroll(Gateway gateway) throws Exception {
    return TestMite.enroll(gateway, ca, tokens, RegistrationIT.newController());
  }

  // Console-like text: lines of printable ASCII, different for every seed, so no two chunks are alike.
  private static byte[] consoleText(int length, long seed) {
    Random random = new Random(seed);
    byte[] text = new byte[length];
    for (int i = 0; i < length; i++) {
      text[i] = random.nextInt(72) == 0 ? (byte) '\n' : (byte) (' ' + random.nextInt(95));
    }
    return text;
  }

  private static byte[] readAll(LogStore store, LogKey key) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      byte[] range = store.read(key, out.size(), LogReader.MAX_READ_BYTES);
      if (range.length == 0) {
        return out.toByteArray();
      }
      out.write(range, 0, range.length);
    }
  }

  private static LogAppended parse(byte[] data) {
    try {
      return LogAppended.parseFrom(data);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new AssertionError("not a LogAppended: " + e.getMessage(), e);
    }
  }

  private static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }
}
