package dev.varroa.benchmarks;

import dev.varroa.benchmarks.channel.ControllerEnrolment;
import com.google.protobuf.ByteString;
import dev.varroa.benchmarks.channel.ChildJvm;
import dev.varroa.benchmarks.channel.FleetPhase;
import dev.varroa.benchmarks.channel.GatewayDialer;
import dev.varroa.benchmarks.channel.ModuleClasspath;
import dev.varroa.benchmarks.channel.ProcessGauge;
import dev.varroa.benchmarks.channel.SimulatedMite;
import dev.varroa.benchmarks.channel.Teardown;
import dev.varroa.benchmarks.latency.Percentiles;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.channel.BootstrapTokenIssuer;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.LogChunk;
import dev.varroa.protocol.builds.v1.LogChunkAck;
import dev.varroa.protocol.builds.v1.LogChunkBatch;
import dev.varroa.protocol.builds.v1.LogChunkBatchAck;
import dev.varroa.recorder.RecorderSettings;
import dev.varroa.recorder.logs.BlobStoreSettings;
import dev.varroa.recorder.logs.LogExtent;
import dev.varroa.recorder.logs.LogKey;
import dev.varroa.recorder.logs.LogReader;
import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.logs.LogStores;
import dev.varroa.recorder.logs.LogTail;
import dev.varroa.recorder.store.RecordStore;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;
import dev.varroa.testfixtures.s3.S3Server;
import dev.varroa.testfixtures.s3.S3ServerProcess;
import io.nats.client.Connection;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue 12's console log figures, against the real gateway (its own JVM and runtime classpath), s3proxy, PostgreSQL
 * and NATS: write throughput through the gateway into each blob tier (runs streamed as the plugin does, one batch
 * in flight per run, every byte read back and compared), live-tail latency from the append leaving the mite to the
 * bytes reaching a {@link LogTail}, and the gateway's heap with 1,000 streams each in the middle of a log.
 * Prints its figures last, as {@code figure: NAME VALUE UNIT}.
 */
public final class ConsoleLogsBenchmark {

  /** The plugin's chunk and batch sizes (docs/build-logs.md). */
  private static final int CHUNK_BYTES = 256 * 1024;
  private static final int CHUNKS_PER_BATCH = 4;
  private static final int THROUGHPUT_RUNS = 4;
  private static final long THROUGHPUT_BYTES_PER_RUN = 32L << 20;
  private static final int TAIL_SAMPLES = 300;
  private static final Duration TAIL_EVERY = Duration.ofMillis(20);
  private static final int HEAP_STREAMS = 1_000;
  private static final int HEAP_CHUNK_BYTES = 2 * 1024;
  private static final Duration HEAP_APPEND_EVERY = Duration.ofSeconds(5);
  private static final Duration HEAP_WINDOW = Duration.ofSeconds(60);
  private static final List<String> GATEWAY_JVM_FLAGS = List.of("-Xmx512m");
  private static final Duration ANSWER_WAIT = Duration.ofSeconds(60);
  private static final String CLUSTER = "bench";
  private static final String NAMESPACE = "logs";

  private ConsoleLogsBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int heapStreams = args.length > 0 ? Integer.parseInt(args[0]) : HEAP_STREAMS;
    Map<String, String> figures = new java.util.LinkedHashMap<>();
    try (Teardown teardown = new Teardown()) {
      run(teardown, heapStreams, figures);
    }
    System.out.println();
    figures.forEach((name, value) -> System.out.println("figure: " + name + " " + value));
    // Netty and gRPC leave non-daemon threads behind; the teardown has stopped what matters.
    System.exit(0);
  }

  private record Environment(Path work, NatsServerProcess nats, PostgresServer postgres, S3Server s3,
      Path caCert, Path caKey, CertificateAuthority ca, Path logs, Path credentials) {
  }

  private static void run(Teardown teardown, int heapStreams, Map<String, String> figures) throws Exception {
    System.out.printf("machine: %d cores, %s, load average %s%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.vm.version"), loadAverage());
    Path logs = Files.createDirectories(ProjectLayout.root().resolve("benchmarks/target/log-benchmarks"));
    ThrowawayDirectory work = teardown.add(ThrowawayDirectory.create("varroa-bench-logs-"));
    NatsServerProcess nats = teardown.add(NatsServerProcess.start());
    PostgresServer postgres = teardown.add(PostgresServerProcess.start()).value();
    S3ServerProcess s3Process = teardown.add(S3ServerProcess.start());
    S3Server s3 = s3Process.value();
    try (RecordStore schema = RecordStore.open(RecorderSettings.of(postgres.jdbcUrl(), postgres.user(),
        postgres.password(), nats.value().url()))) {
      schema.migrate();
    }
    Path credentials = Files.createDirectories(work.resolve("blob-credentials"));
    Files.writeString(credentials.resolve("access-key-id"), s3.accessKeyId());
    Files.writeString(credentials.resolve("secret-access-key"), s3.secretAccessKey());
    Files.writeString(work.resolve("pg-password"), postgres.password());
    Path caCert = work.resolve("ca.crt");
    Path caKey = work.resolve("ca.key");
    CertificateAuthority ca = CertificateAuthority.createFiles(caCert, caKey);
    Environment env = new Environment(work.path(), nats, postgres, s3, caCert, caKey, ca, logs, credentials);
    System.out.printf("s3proxy %s (started in %d ms), PostgreSQL %s, NATS %s%n", s3.bucketUrl(),
        s3Process.lastStartup().toMillis(), postgres.jdbcUrl(), nats.value().url());

    for (String tier : List.of("s3", "postgres")) {
      throughput(teardown, env, tier, figures);
      tail(teardown, env, tier, figures);
    }
    heap(teardown, env, heapStreams, figures);
  }

  private static Map<String, String> blobEnv(Environment env, String tier) {
    Map<String, String> blob = new HashMap<>();
    blob.put(BlobStoreSettings.MODE, tier);
    if (tier.equals("s3")) {
      blob.put(BlobStoreSettings.S3_URL, env.s3().bucketUrl());
      blob.put(BlobStoreSettings.S3_REGION, env.s3().region());
      blob.put(BlobStoreSettings.S3_CREDENTIALS_DIR, env.credentials().toString());
    } else {
      blob.put(BlobStoreSettings.POSTGRES_DSN, env.postgres().jdbcUrl());
      blob.put(BlobStoreSettings.POSTGRES_USER, env.postgres().user());
      blob.put(BlobStoreSettings.POSTGRES_PASSWORD_FILE, env.work().resolve("pg-password").toString());
    }
    return blob;
  }

  private static LogStore harnessStore(Environment env, String tier) {
    BlobStoreSettings settings = tier.equals("s3")
        ? BlobStoreSettings.s3(env.s3().bucketUrl(), env.s3().region(), env.credentials())
        : BlobStoreSettings.postgresWithPassword(env.postgres().jdbcUrl(), env.postgres().user(),
            env.postgres().password());
    return LogStores.open(settings).orElseThrow();
  }

  /** A gateway of its own per phase, so one phase's heap and caches do not carry into the next. */
  private static Gateway gateway(Teardown teardown, Environment env, String tier, String phase) throws Exception {
    int port = LoopbackPort.pickFree();
    Map<String, String> vars = new HashMap<>(blobEnv(env, tier));
    vars.put("VARROA_GATEWAY_ID", "gateway-" + phase);
    vars.put("VARROA_GATEWAY_LISTEN", LoopbackPort.HOST + ":" + port);
    vars.put("VARROA_NATS_URL", env.nats().value().url());
    vars.put("VARROA_CA_CERT_FILE", env.caCert().toString());
    vars.put("VARROA_CA_KEY_FILE", env.caKey().toString());
    vars.put("VARROA_TLS_IP_ADDRESSES", LoopbackPort.HOST);
    vars.put("VARROA_CLUSTER_NAME", CLUSTER);
    Path log = env.logs().resolve("gateway-" + phase + "-" + Instant.now().getEpochSecond() + ".log");
    ChildJvm jvm = teardown.add(ChildJvm.start("gateway-" + phase, GATEWAY_JVM_FLAGS,
        String.join(File.pathSeparator, ModuleClasspath.of("gateway", "varroa-gateway")),
        "dev.varroa.gateway.GatewayMain", vars, log, Duration.ofSeconds(30)));
    jvm.awaitListening(port, Duration.ofSeconds(60));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (jvm.logLinesContaining("gateway log writer enabled") == 0) {
      jvm.requireAlive();
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the gateway did not log 'gateway log writer enabled'\n" + jvm.logTail());
      }
      Thread.sleep(100);
    }
    Connection operator = env.nats().value().connect();
    teardown.then(operator::close);
    BusTopology.ensure(operator);
    GatewayDialer dialer = teardown.add(new GatewayDialer(new InetSocketAddress(LoopbackPort.HOST, port),
        certificate(env.ca().certificatePem()), 2, 2));
    return new Gateway(jvm, dialer, new ControllerEnrolment(operator));
  }

  private record Gateway(ChildJvm jvm, GatewayDialer dialer, ControllerEnrolment tokens) {
    List<SimulatedMite> connect(Teardown teardown, String prefix, int count, int parallelism) throws Exception {
      List<SimulatedMite> mites = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        mites.add(new SimulatedMite(new ControllerIdentity(NAMESPACE, String.format("%s-%05d", prefix, i),
            UUID.randomUUID().toString())));
      }
      teardown.then(() -> mites.forEach(SimulatedMite::close));
      FleetPhase.run(prefix + " register", count, parallelism, i -> {
        SimulatedMite mite = mites.get(i);
        mite.register(dialer, tokens.token(mite.identity()));
      }).requireAllDone();
      FleetPhase.run(prefix + " connect", count, parallelism, i -> mites.get(i).connect(dialer, status -> { }))
          .requireAllDone();
      return mites;
    }
  }

  /** The runs' logs: Jenkins-like lines, different per run, so a mix-up between runs cannot compare equal. */
  private static byte[] logText(String runId, long bytes) {
    StringBuilder text = new StringBuilder((int) bytes + 200);
    long line = 0;
    while (text.length() < bytes) {
      text.append(String.format("[%s] %08d [Pipeline] sh + ./gradlew test --tests 'dev.varroa.*' # run %s%n",
          "2026-12-01T20:00:00Z", ++line, runId));
    }
    text.setLength((int) bytes);
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static LogChunkBatch batch(String runId, byte[] log, long offset, int chunks, boolean lastBatch) {
    LogChunkBatch.Builder batch = LogChunkBatch.newBuilder();
    long position = offset;
    for (int i = 0; i < chunks && position < log.length; i++) {
      int length = (int) Math.min(CHUNK_BYTES, log.length - position);
      boolean last = lastBatch && position + length == log.length;
      batch.addChunks(LogChunk.newBuilder().setRunId(runId).setJob("bench/app/main").setOffset(position)
          .setData(ByteString.copyFrom(log, (int) position, length)).setLast(last)
          .setEmittedAtEpochMillis(System.currentTimeMillis()));
      position += length;
    }
    return batch.build();
  }

  /** Streams one run's log the way the plugin ships it: one batch in flight, the next from stored_through. */
  private static void stream(SimulatedMite mite, String runId, byte[] log) throws Exception {
    long position = 0;
    boolean complete = false;
    while (!complete) {
      LogChunkBatch batch = batch(runId, log, position, CHUNKS_PER_BATCH, true);
      LogChunkBatchAck ack = mite.appendLog(batch).get(ANSWER_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      for (LogChunkAck chunk : ack.getAcksList()) {
        if (chunk.getResult() != LogChunkAck.Result.STORED && chunk.getResult() != LogChunkAck.Result.DUPLICATE) {
          throw new IllegalStateException(mite.identity().routeKey() + " run " + runId + ": chunk at "
              + chunk.getOffset() + " answered " + chunk.getResult() + " " + chunk.getMessage());
        }
        position = chunk.getStoredThrough();
        complete = chunk.getComplete();
      }
    }
  }

  private static void throughput(Teardown teardown, Environment env, String tier, Map<String, String> figures)
      throws Exception {
    Gateway gateway = gateway(teardown, env, tier, "throughput-" + tier);
    List<SimulatedMite> mites = gateway.connect(teardown, "tp-" + tier, THROUGHPUT_RUNS, THROUGHPUT_RUNS);
    List<String> runIds = new ArrayList<>();
    List<byte[]> texts = new ArrayList<>();
    for (int i = 0; i < THROUGHPUT_RUNS; i++) {
      runIds.add(UUID.randomUUID().toString());
      texts.add(logText(runIds.get(i), THROUGHPUT_BYTES_PER_RUN));
    }
    System.out.printf("%n[%s] %d runs stream %d MiB each through the gateway (%d KiB chunks, %d a batch, one batch "
        + "in flight per run)%n", tier, THROUGHPUT_RUNS, THROUGHPUT_BYTES_PER_RUN >> 20, CHUNK_BYTES >> 10,
        CHUNKS_PER_BATCH);
    long start = System.nanoTime();
    List<CompletableFuture<Void>> runs = new ArrayList<>();
    for (int i = 0; i < THROUGHPUT_RUNS; i++) {
      int run = i;
      runs.add(CompletableFuture.runAsync(() -> {
        try {
          stream(mites.get(run), runIds.get(run), texts.get(run));
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }));
    }
    CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).get(30, TimeUnit.MINUTES);
    double seconds = (System.nanoTime() - start) / 1e9;
    double mib = THROUGHPUT_RUNS * THROUGHPUT_BYTES_PER_RUN / (double) (1 << 20);
    double rate = mib / seconds;
    System.out.printf("[%s] %.0f MiB in %.1f s = %.1f MiB/s%n", tier, mib, seconds, rate);
    try (LogStore store = harnessStore(env, tier)) {
      for (int i = 0; i < THROUGHPUT_RUNS; i++) {
        LogKey key = new LogKey(CLUSTER, NAMESPACE, mites.get(i).identity().name(), runIds.get(i));
        String written = sha256(texts.get(i));
        String read = sha256(readAll(store, key));
        if (!written.equals(read)) {
          throw new IllegalStateException("[" + tier + "] " + key + " read back differs: wrote " + written
              + ", read " + read);
        }
      }
    }
    System.out.printf("[%s] every log read back by byte range, byte-identical (SHA-256)%n", tier);
    figures.put("log_write_" + tier, String.format("%.1f MiB/s", rate));
    mites.forEach(SimulatedMite::close);
    gateway.jvm().close();
  }

  private static void tail(Teardown teardown, Environment env, String tier, Map<String, String> figures)
      throws Exception {
    Gateway gateway = gateway(teardown, env, tier, "tail-" + tier);
    SimulatedMite mite = gateway.connect(teardown, "tail-" + tier, 1, 1).get(0);
    Connection nats = env.nats().value().connect();
    teardown.then(nats::close);
    String runId = UUID.randomUUID().toString();
    LogKey key = new LogKey(CLUSTER, NAMESPACE, mite.identity().name(), runId);
    Map<Long, Long> sentAt = new ConcurrentHashMap<>();
    List<Duration> latencies = new CopyOnWriteArrayList<>();
    AtomicLong seen = new AtomicLong();
    try (LogStore store = harnessStore(env, tier); LogReader reader = new LogReader(store, nats);
        LogTail tail = reader.tail(key, 0, (offset, data) -> {
          long now = System.nanoTime();
          // every appended line that ends inside these bytes has now been seen
          long end = offset + data.length;
          sentAt.entrySet().removeIf(line -> {
            if (line.getKey() < end) {
              latencies.add(Duration.ofNanos(now - line.getValue()));
              return true;
            }
            return false;
          });
          seen.set(end);
        })) {
      System.out.printf("%n[%s] live tail: %d lines appended %d ms apart, each timed from leaving the mite to "
          + "reaching the tail%n", tier, TAIL_SAMPLES, TAIL_EVERY.toMillis());
      long position = 0;
      for (int i = 0; i < TAIL_SAMPLES; i++) {
        byte[] line = String.format("%05d [Pipeline] echo still building%n", i).getBytes(StandardCharsets.UTF_8);
        long end = position + line.length;
        sentAt.put(end - 1, System.nanoTime());
        LogChunkBatchAck ack = mite.appendLog(LogChunkBatch.newBuilder().addChunks(LogChunk.newBuilder()
            .setRunId(runId).setJob("bench/app/main").setOffset(position).setData(ByteString.copyFrom(line))
            .setLast(i == TAIL_SAMPLES - 1)).build()).get(ANSWER_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        position = ack.getAcks(0).getStoredThrough();
        Thread.sleep(TAIL_EVERY.toMillis());
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (seen.get() < position && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      if (latencies.size() < TAIL_SAMPLES) {
        throw new IllegalStateException("[" + tier + "] the tail saw " + latencies.size() + " of " + TAIL_SAMPLES
            + " lines (at byte " + seen.get() + " of " + position + ")");
      }
    }
    Duration p50 = Percentiles.of(latencies, 0.50);
    Duration p95 = Percentiles.of(latencies, 0.95);
    Duration max = Percentiles.of(latencies, 1.0);
    System.out.printf("[%s] tail latency p50 %.1f ms, p95 %.1f ms, max %.1f ms%n", tier, millis(p50), millis(p95),
        millis(max));
    figures.put("live_tail_p95_" + tier, String.format("%.1f ms", millis(p95)));
    mite.close();
    gateway.jvm().close();
  }

  private static void heap(Teardown teardown, Environment env, int streams, Map<String, String> figures)
      throws Exception {
    Gateway gateway = gateway(teardown, env, "s3", "heap");
    ProcessGauge gauge = new ProcessGauge(gateway.jvm().pid());
    System.out.printf("%n[s3] %d mites connect to one gateway (%s)%n", streams, GATEWAY_JVM_FLAGS);
    List<SimulatedMite> mites = gateway.connect(teardown, "heap", streams, 16);
    ProcessGauge.HeapFigures idle = gauge.heapAfterFullGc();
    System.out.printf("[s3] %d idle streams: gateway heap after a full GC %.1f MiB%n", streams,
        idle.heapUsedKib() / 1024.0);
    List<String> runIds = new ArrayList<>();
    long[] positions = new long[streams];
    for (int i = 0; i < streams; i++) {
      runIds.add(UUID.randomUUID().toString());
    }
    System.out.printf("[s3] every stream has a running build appending %d KiB every %d s, for %d s%n",
        HEAP_CHUNK_BYTES >> 10, HEAP_APPEND_EVERY.toSeconds(), HEAP_WINDOW.toSeconds());
    byte[] chunk = logText("heap", HEAP_CHUNK_BYTES);
    AtomicLong appended = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    long windowEnd = System.nanoTime() + HEAP_WINDOW.toNanos();
    long roundNanos = HEAP_APPEND_EVERY.toNanos();
    while (System.nanoTime() < windowEnd) {
      long roundStart = System.nanoTime();
      List<CompletableFuture<?>> round = new ArrayList<>(streams);
      for (int i = 0; i < streams; i++) {
        int stream = i;
        round.add(mites.get(i).appendLog(LogChunkBatch.newBuilder().addChunks(LogChunk.newBuilder()
                .setRunId(runIds.get(i)).setJob("bench/app/main").setOffset(positions[i])
                .setData(ByteString.copyFrom(chunk))).build())
            .thenAccept(ack -> {
              LogChunkAck answer = ack.getAcks(0);
              if (answer.getResult() == LogChunkAck.Result.STORED) {
                appended.incrementAndGet();
              } else {
                failed.incrementAndGet();
              }
              positions[stream] = answer.getStoredThrough();
            }));
        // spread the round over its interval, as builds writing at their own pace would
        long due = roundStart + roundNanos * (i + 1) / streams;
        long wait = due - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
      }
      CompletableFuture.allOf(round.toArray(CompletableFuture[]::new)).get(ANSWER_WAIT.toMillis(),
          TimeUnit.MILLISECONDS);
      gateway.jvm().requireAlive();
    }
    ProcessGauge.HeapFigures busy = gauge.heapAfterFullGc();
    long rss = gauge.residentKib();
    System.out.printf("[s3] %d chunks stored, %d not; gateway heap after a full GC %.1f MiB with %d logs open "
            + "(%.1f MiB idle, %.1f KiB more a stream); resident %.1f MiB%n", appended.get(), failed.get(),
        busy.heapUsedKib() / 1024.0, streams, idle.heapUsedKib() / 1024.0,
        (busy.heapUsedKib() - idle.heapUsedKib()) / (double) streams, rss / 1024.0);
    if (failed.get() > 0) {
      throw new IllegalStateException(failed.get() + " chunks were not stored; see " + gateway.jvm().log());
    }
    figures.put("gateway_heap_" + streams + "_log_streams", String.format("%.1f MiB", busy.heapUsedKib() / 1024.0));
    figures.put("gateway_heap_" + streams + "_idle_streams", String.format("%.1f MiB", idle.heapUsedKib() / 1024.0));
  }

  private static byte[] readAll(LogStore store, LogKey key) throws Exception {
    LogExtent extent = store.extent(key);
    if (!extent.complete()) {
      throw new IllegalStateException(key + " is not complete in the store: " + extent);
    }
    java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream((int) extent.storedThrough());
    long position = 0;
    while (position < extent.storedThrough()) {
      byte[] range = store.read(key, position, LogReader.MAX_READ_BYTES);
      if (range.length == 0) {
        throw new IllegalStateException(key + ": nothing at byte " + position + " of " + extent.storedThrough());
      }
      all.write(range);
      position += range.length;
    }
    return all.toByteArray();
  }

  private static String sha256(byte[] bytes) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
  }

  private static X509Certificate certificate(String pem) throws Exception {
    return (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
  }

  private static double millis(Duration duration) {
    return duration.toNanos() / 1e6;
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }
}
