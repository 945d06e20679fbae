package dev.varroa.benchmarks.events;

import dev.varroa.testfixtures.process.Executable;
import dev.varroa.testfixtures.process.LocalProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** nats-server with JetStream on a fixed loopback port and store folder, so a restart finds its streams again. */
final class NatsTier implements Tier {

  private static final Duration READY = Duration.ofSeconds(30);

  private final Path directory;
  private final int port;
  private int starts;
  private LocalProcess process;

  NatsTier(Path directory) {
    this.directory = directory;
    this.port = LoopbackPort.pickFree();
  }

  String url() {
    return "nats://" + LoopbackPort.HOST + ":" + port;
  }

  @Override
  public String name() {
    return "nats-server";
  }

  @Override
  public void start() throws Exception {
    Executable binary = Executable.require("nats-server", "nats-server");
    List<String> command = List.of(binary.toString(), "-a", LoopbackPort.HOST, "-p", Integer.toString(port), "-js",
        "-sd", directory.resolve("jetstream").toString());
    process = LocalProcess.start("nats-server", command, directory.resolve("nats-server-" + (++starts) + ".log"),
        READY, this::servesJetStream);
  }

  // JetStream answers after the client port opens: ready once the account's JetStream info comes back.
  private boolean servesJetStream() throws Exception {
    try (Connection connection = Nats.connect(new Options.Builder().server(url())
        .connectionTimeout(Duration.ofSeconds(1)).noReconnect().errorListener(new ErrorListener() { }).build())) {
      connection.jetStreamManagement().getAccountStatistics();
      return true;
    }
  }

  @Override
  public void kill() throws Exception {
    process.kill();
  }

  @Override
  public void close() throws Exception {
    if (process != null) {
      process.close();
    }
  }
}
