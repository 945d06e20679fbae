package dev.varroa.gateway;

import dev.varroa.testfixtures.process.Executable;
import dev.varroa.testfixtures.process.LocalProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A nats-server with JetStream whose one user needs a password, started from a config file so the
 * password can be changed and the server reloaded (it then drops clients that no longer authenticate).
 */
final class PasswordProtectedNatsServer implements AutoCloseable {

  private static final Duration READY_DEADLINE = Duration.ofSeconds(30);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

  private final String user;
  private final List<String> deniedSubscriptions;
  private final int port;
  private final ThrowawayDirectory directory;
  private LocalProcess process;

  private PasswordProtectedNatsServer(String user, List<String> deniedSubscriptions, int port,
      ThrowawayDirectory directory) {
    this.user = user;
    this.deniedSubscriptions = deniedSubscriptions;
    this.port = port;
    this.directory = directory;
  }

  static PasswordProtectedNatsServer start(String user, String password) throws IOException, InterruptedException {
    return start(user, password, List.of());
  }

  /** As {@link #start(String, String)}, but the user may not subscribe to these subjects (a missing NATS grant). */
  static PasswordProtectedNatsServer start(String user, String password, List<String> deniedSubscriptions)
      throws IOException, InterruptedException {
    PasswordProtectedNatsServer server = new PasswordProtectedNatsServer(user, deniedSubscriptions,
        LoopbackPort.pickFree(), ThrowawayDirectory.create("varroa-nats-auth-"));
    server.writeConfig(password);
    server.process = LocalProcess.start("nats-server",
        List.of(Executable.require("nats-server", "nats-server").toString(), "-c", server.config().toString()),
        server.directory.resolve("nats-server.log"), READY_DEADLINE, () -> server.acceptsPassword(password));
    return server;
  }

  String url() {
    return "nats://" + LoopbackPort.HOST + ":" + port;
  }

  /** Rewrites the config with the new password and makes the running server reload it. */
  void changePassword(String newPassword) throws IOException, InterruptedException {
    writeConfig(newPassword);
    Process signal = new ProcessBuilder(Executable.require("nats-server", "nats-server").toString(), "--signal",
        "reload=" + process.pid()).redirectErrorStream(true).start();
    if (signal.waitFor() != 0) {
      throw new IllegalStateException("nats-server --signal reload failed: "
          + new String(signal.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  /** How many times the server refused this client connection name for bad credentials (from its log). */
  long authenticationErrors(String connectionName) throws IOException {
    try (var lines = Files.lines(directory.resolve("nats-server.log"), StandardCharsets.UTF_8)) {
      return lines.filter(line -> line.contains(connectionName) && line.contains("authentication error")).count();
    }
  }

  Connection connect(String password) throws IOException, InterruptedException {
    return Nats.connect(options(password).build());
  }

  /** True when a fresh client with this password connects and reaches JetStream. */
  boolean acceptsPassword(String password) {
    try (Connection probe = Nats.connect(options(password).connectionTimeout(PROBE_TIMEOUT).noReconnect().build())) {
      probe.jetStreamManagement().getAccountStatistics();
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  private Options.Builder options(String password) {
    return Options.builder().server(url()).userInfo(user, password).connectionName("varroa-test")
        .errorListener(new io.nats.client.ErrorListener() { });
  }

  private Path config() {
    return directory.resolve("nats-server.conf");
  }

  private void writeConfig(String password) throws IOException {
    Path temporary = directory.resolve("nats-server.conf.new");
    Files.writeString(temporary, String.join("\n",
        "listen: \"" + LoopbackPort.HOST + ":" + port + "\"",
        "jetstream {",
        "  store_dir: \"" + directory.resolve("jetstream") + "\"",
        "}",
        "authorization {",
        "  users: [",
        "    { user: \"" + user + "\", password: \"" + password + "\", permissions: {",
        "        publish: { allow: [\">\"] }",
        "        subscribe: { allow: [\">\"], deny: [" + deniedSubscriptions.stream()
            .map(subject -> "\"" + subject + "\"").collect(java.util.stream.Collectors.joining(", ")) + "] }",
        "    } }",
        "  ]",
        "}",
        ""), StandardCharsets.UTF_8);
    Files.move(temporary, config(), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /** Stops the server; the gateway sees NATS vanish. */
  void stop() throws InterruptedException {
    process.close();
  }

  @Override
  public void close() throws InterruptedException {
    if (process != null) {
      process.close();
    }
    directory.close();
  }
}
