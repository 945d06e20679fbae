package dev.varroa.testfixtures.seaweed;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;
import dev.varroa.testfixtures.process.LocalProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * SeaweedFS ({@code weed server}: master, volume server, filer and S3 gateway in one process) on free loopback ports,
 * its data under a throwaway directory, its S3 identities in {@code s3.json} as the test gives them, its output in
 * {@code weed.log}. The binary is built from Go modules by test-fixtures/s3/install-seaweedfs.sh. Closing stops it
 * and deletes the directory.
 */
public final class SeaweedS3ServerProcess implements ClassScopedFixtureExtension.Running<SeaweedS3Server> {

  /** The module version test-fixtures/s3/install-seaweedfs.sh builds (github.com/seaweedfs/seaweedfs). */
  public static final String VERSION = "v0.0.0-20261109003541-7506e5f91cd6";
  public static final String BUCKET = "varroa-records";
  private static final Duration READY_DEADLINE = Duration.ofSeconds(90);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
  private static final HttpClient PROBE = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();

  private final SeaweedS3Server server;
  private final LocalProcess process;
  private final ThrowawayDirectory directory;

  private SeaweedS3ServerProcess(SeaweedS3Server server, LocalProcess process, ThrowawayDirectory directory) {
    this.server = server;
    this.process = process;
    this.directory = directory;
  }

  /**
   * Starts SeaweedFS with these identities and an empty bucket {@value #BUCKET}; returns once the gateway answers
   * and the bucket exists. On failure the directory is kept for its log.
   */
  public static SeaweedS3ServerProcess start(List<SeaweedS3Identity> identities) throws InterruptedException {
    if (identities.stream().noneMatch(identity -> identity.actions().contains("Admin"))) {
      throw new IllegalArgumentException("give SeaweedFS one Admin identity (SeaweedS3Identity.admin): without one "
          + "it runs with authentication off for some requests, and nothing could create the bucket");
    }
    Path binary = installDirectory().resolve("bin").resolve("weed");
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException("SeaweedFS is not built: " + binary + " is missing; run "
          + "test-fixtures/s3/install-seaweedfs.sh (make deps)");
    }
    ThrowawayDirectory directory = ThrowawayDirectory.create("varroa-seaweed-");
    Path data = directory.resolve("data");
    Path config = directory.resolve("s3.json");
    try {
      Files.createDirectories(data);
      Files.writeString(config, configuration(identities));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare SeaweedFS's directory " + directory, e);
    }
    int master = LoopbackPort.pickFree();
    int volume = LoopbackPort.pickFree();
    int filer = LoopbackPort.pickFree();
    int s3 = LoopbackPort.pickFree();
    String host = LoopbackPort.HOST;
    SeaweedS3Server server = new SeaweedS3Server("http://" + host + ":" + s3, BUCKET, identities);
    // Every port is named: SeaweedFS's defaults (9333, 8080, 8888, 8333, gRPC at +10000) would collide between JVMs.
    List<String> command = new ArrayList<>(List.of(binary.toString(), "server",
        "-ip=" + host, "-ip.bind=" + host, "-dir=" + data,
        "-master.port=" + master, "-master.port.grpc=" + LoopbackPort.pickFree(),
        "-master.volumeSizeLimitMB=64", "-master.telemetry=false",
        "-volume.port=" + volume, "-volume.port.grpc=" + LoopbackPort.pickFree(), "-volume.max=16",
        "-volume.preStopSeconds=0",
        "-filer", "-filer.port=" + filer, "-filer.port.grpc=" + LoopbackPort.pickFree(),
        "-filer.localSocket=" + directory.resolve("filer.sock"),
        "-s3", "-s3.port=" + s3, "-s3.port.grpc=" + LoopbackPort.pickFree(), "-s3.config=" + config,
        "-s3.port.iceberg=0", "-s3.port.lance=0", "-s3.iam=false", "-s3.localSocket=" + directory.resolve("s3.sock")));
    String bucketDirectory = "http://" + host + ":" + filer + "/buckets/" + BUCKET + "/";
    LocalProcess process = LocalProcess.start("seaweedfs", command, directory.resolve("weed.log"), READY_DEADLINE,
        () -> bucketCreated(bucketDirectory) && s3Answers(server.endpoint()));
    return new SeaweedS3ServerProcess(server, process, directory);
  }

  // A bucket is a folder under the filer's /buckets; making it through the filer needs no signed request. The probe
  // runs until the gateway answers too, so a folder an earlier poll made (409 Conflict) counts as made.
  private static boolean bucketCreated(String bucketDirectory) throws IOException, InterruptedException {
    HttpResponse<Void> made = PROBE.send(HttpRequest.newBuilder(URI.create(bucketDirectory))
        .timeout(PROBE_TIMEOUT).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.discarding());
    return made.statusCode() / 100 == 2 || made.statusCode() == 409;
  }

  // Any S3 answer (AccessDenied to an unsigned request) means the gateway runs with its identities loaded.
  private static boolean s3Answers(String endpoint) throws IOException, InterruptedException {
    HttpResponse<Void> response = PROBE.send(HttpRequest.newBuilder(URI.create(endpoint + "/" + BUCKET + "/"))
        .timeout(PROBE_TIMEOUT).GET().build(), HttpResponse.BodyHandlers.discarding());
    return response.statusCode() == 403;
  }

  static String configuration(List<SeaweedS3Identity> identities) {
    StringBuilder json = new StringBuilder("{\"identities\":[");
    for (int i = 0; i < identities.size(); i++) {
      json.append(i == 0 ? "" : ",").append(identities.get(i).toJson());
    }
    return json.append("]}\n").toString();
  }

  /** Where install-seaweedfs.sh puts the binary: ${VARROA_CACHE:-~/.cache/varroa}/seaweedfs/&lt;version&gt;/bin. */
  static Path installDirectory() {
    String cache = System.getenv("VARROA_CACHE");
    Path root = cache == null || cache.isBlank()
        ? Path.of(System.getProperty("user.home"), ".cache", "varroa") : Path.of(cache);
    return root.resolve("seaweedfs").resolve(VERSION);
  }

  @Override
  public SeaweedS3Server value() {
    return server;
  }

  @Override
  public void close() throws InterruptedException {
    // SIGKILL: the data goes with the directory, and weed's polite stop takes over 15 s here.
    process.kill();
    directory.close();
  }

  @Override
  public String toString() {
    return "SeaweedFS on " + server.endpoint() + " in " + directory;
  }
}
