package dev.varroa.testfixtures.s3;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;
import dev.varroa.testfixtures.process.LocalProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * s3proxy (Maven Central {@code org.gaul:s3proxy}, its self-contained jar) in a child JVM with the jclouds
 * filesystem backend: objects under {@code data/}, the configuration in {@code s3proxy.conf}, its output in
 * {@code s3proxy.log}. A child JVM keeps s3proxy's Jetty, Guava and logback off the test's classpath. Closing stops
 * it and deletes the directory.
 */
public final class S3ServerProcess implements ClassScopedFixtureExtension.Running<S3Server> {

  public static final String BUCKET = "varroa-records";
  private static final String LOCATION = "dev/varroa/testfixtures/s3/s3proxy.properties";
  private static final Duration READY_DEADLINE = Duration.ofSeconds(60);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
  // s3proxy is small; a capped heap and the C1 compiler only keep two shared cores free for the test.
  private static final List<String> JVM_FLAGS = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
  private static final HttpClient PROBE = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();

  private final Path jar;
  private final ThrowawayDirectory directory;
  private final int port;
  private final S3Server server;
  private LocalProcess process;
  private Duration lastStartup = Duration.ZERO;

  private S3ServerProcess(Path jar, ThrowawayDirectory directory, int port, String accessKeyId, String secretKey) {
    this.jar = jar;
    this.directory = directory;
    this.port = port;
    this.server = new S3Server(this, "http://" + LoopbackPort.HOST + ":" + port, BUCKET, accessKeyId, secretKey);
  }

  /** Starts s3proxy with a fresh bucket {@value #BUCKET}; on failure the directory is kept for its log. */
  public static S3ServerProcess start() throws InterruptedException {
    Path jar = s3proxyJar();
    ThrowawayDirectory directory = ThrowawayDirectory.create("varroa-s3-");
    S3ServerProcess started = new S3ServerProcess(jar, directory, LoopbackPort.pickFree(),
        "varroa-" + random(12).toLowerCase(), random(32));
    try {
      Files.createDirectories(started.dataDirectory());
      Files.writeString(directory.resolve("s3proxy.conf"), started.configuration());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare s3proxy's directory " + directory, e);
    }
    started.createBucket(BUCKET);
    started.startServer();
    return started;
  }

  /** How long the last start took, from spawning the JVM to the first answered request. */
  public Duration lastStartup() {
    return lastStartup;
  }

  Path dataDirectory() {
    return directory.resolve("data");
  }

  // The filesystem backend's bucket is a directory under its basedir; made directly, it needs no signed request.
  void createBucket(String name) {
    if (!name.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
      throw new IllegalArgumentException("bucket name '" + name + "' must be 3-63 lowercase letters, digits, '.' or '-'");
    }
    try {
      Files.createDirectories(dataDirectory().resolve(name));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the bucket directory for " + name + " in " + dataDirectory(), e);
    }
  }

  synchronized void startServer() throws InterruptedException {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException("s3proxy on port " + port + " is already running");
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JVM_FLAGS);
    command.addAll(List.of("-jar", jar.toString(), "--properties", directory.resolve("s3proxy.conf").toString()));
    long started = System.nanoTime();
    process = LocalProcess.start("s3proxy", command, directory.resolve("s3proxy.log"), READY_DEADLINE, this::serves);
    lastStartup = Duration.ofNanos(System.nanoTime() - started);
  }

  synchronized void stopServer() throws InterruptedException {
    if (process != null) {
      process.close();
    }
  }

  synchronized void killServer() throws InterruptedException {
    if (process != null) {
      process.kill();
    }
  }

  synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  // Any S3 answer (even AccessDenied) means Jetty runs with s3proxy's handler in place.
  private boolean serves() throws IOException, InterruptedException {
    HttpResponse<Void> response = PROBE.send(HttpRequest.newBuilder(URI.create(server.endpoint() + "/"))
        .timeout(PROBE_TIMEOUT).GET().build(), HttpResponse.BodyHandlers.discarding());
    return response.headers().firstValue("x-amz-request-id").isPresent();
  }

  private String configuration() {
    return String.join("\n",
        "s3proxy.endpoint=" + server.endpoint(),
        "s3proxy.authorization=aws-v2-or-v4",
        "s3proxy.identity=" + server.accessKeyId(),
        "s3proxy.credential=" + server.secretAccessKey(),
        "jclouds.provider=filesystem",
        "jclouds.filesystem.basedir=" + dataDirectory(),
        "");
  }

  private static Path s3proxyJar() {
    Properties properties = new Properties();
    try (InputStream in = S3ServerProcess.class.getClassLoader().getResourceAsStream(LOCATION)) {
      if (in == null) {
        throw new IllegalStateException(LOCATION + " is missing from the classpath: build test-fixtures with Maven "
            + "(its maven-dependency-plugin copies the s3proxy jar and writes the file)");
      }
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + LOCATION, e);
    }
    Path jar = Path.of(properties.getProperty("jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("the s3proxy jar " + jar + " is missing: run `mvn -pl test-fixtures "
          + "generate-resources` (it copies org.gaul:s3proxy:" + properties.getProperty("version")
          + ":jar-with-dependencies there from Maven)");
    }
    return jar;
  }

  private static String random(int length) {
    String alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    SecureRandom random = new SecureRandom();
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }

  @Override
  public S3Server value() {
    return server;
  }

  @Override
  public void close() throws InterruptedException {
    stopServer();
    directory.close();
  }

  @Override
  public String toString() {
    return "s3proxy on " + server.endpoint() + " in " + directory;
  }
}
