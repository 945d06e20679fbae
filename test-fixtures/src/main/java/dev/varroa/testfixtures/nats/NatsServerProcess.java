package dev.varroa.testfixtures.nats;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;
import dev.varroa.testfixtures.process.Executable;
import dev.varroa.testfixtures.process.LocalProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;
import io.nats.client.Connection;
import io.nats.client.Nats;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/** The nats-server child process and its store directory; closing stops one and deletes the other. */
public final class NatsServerProcess implements ClassScopedFixtureExtension.Running<NatsServer> {

    private static final Pattern TOP_LEVEL_TLS = Pattern.compile("(?m)^tls \\{");
    private static final Duration READY_DEADLINE = Duration.ofSeconds(30);
    private static final Duration PROBE_CONNECT_TIMEOUT = Duration.ofSeconds(1);

    private final NatsServer server;
    private final LocalProcess process;
    private final ThrowawayDirectory directory;

    private NatsServerProcess(NatsServer server, LocalProcess process, ThrowawayDirectory directory) {
        this.server = server;
        this.process = process;
        this.directory = directory;
    }

    /** Starts {@code nats-server -js} on a free loopback port; on failure the directory is kept for its log. */
    public static NatsServerProcess start() throws InterruptedException {
        return startOn(LoopbackPort.pickFree());
    }

    /** Starts {@code nats-server -js} on this loopback port, e.g. one a client was already told to wait for. */
    public static NatsServerProcess startOn(int port) throws InterruptedException {
        Executable binary = Executable.require("nats-server", "nats-server");
        ThrowawayDirectory directory = ThrowawayDirectory.create("varroa-nats-");
        NatsServer server = new NatsServer("nats://" + LoopbackPort.HOST + ":" + port, directory.resolve("jetstream"));
        List<String> command = List.of(binary.toString(),
                "-a", LoopbackPort.HOST,
                "-p", Integer.toString(port),
                "-js",
                "-sd", directory.resolve("jetstream").toString());
        LocalProcess process = LocalProcess.start("nats-server", command, directory.resolve("nats-server.log"),
                READY_DEADLINE, () -> servesJetStream(server));
        return new NatsServerProcess(server, process, directory);
    }

    /**
     * Starts {@code nats-server -c config} (e.g. the chart's nats.conf with TLS and users) on a free loopback port
     * with its own store directory; the command-line listen address, port and store override the file's.
     * Ready once the server logs so: TLS and users make the plain client probe fail. The URL is tls:// when the
     * file has a top-level tls block.
     */
    public static NatsServerProcess startWithConfig(String config) throws InterruptedException {
        Executable binary = Executable.require("nats-server", "nats-server");
        ThrowawayDirectory directory = ThrowawayDirectory.create("varroa-nats-");
        int port = LoopbackPort.pickFree();
        Path file = directory.resolve("nats.conf");
        try {
            Files.writeString(file, config);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        String scheme = TOP_LEVEL_TLS.matcher(config).find() ? "tls" : "nats";
        NatsServer server = new NatsServer(scheme + "://" + LoopbackPort.HOST + ":" + port, directory.resolve("jetstream"));
        List<String> command = List.of(binary.toString(), "-c", file.toString(),
                "-a", LoopbackPort.HOST,
                "-p", Integer.toString(port),
                "-js",
                "-sd", directory.resolve("jetstream").toString());
        Path log = directory.resolve("nats-server.log");
        LocalProcess process = LocalProcess.start("nats-server", command, log, READY_DEADLINE,
                () -> Files.exists(log) && Files.readString(log).contains("Server is ready"));
        return new NatsServerProcess(server, process, directory);
    }

    /** The server's log so far, e.g. to find permission violations. */
    public String log() throws IOException {
        return Files.readString(process.logFile());
    }

    // JetStream answers later than the client port, so readiness asks for the account's JetStream info.
    private static boolean servesJetStream(NatsServer server) throws Exception {
        try (Connection connection = Nats.connect(server.options()
                .connectionTimeout(PROBE_CONNECT_TIMEOUT)
                .noReconnect()
                .build())) {
            connection.jetStreamManagement().getAccountStatistics();
            return true;
        }
    }

    @Override
    public NatsServer value() {
        return server;
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
        directory.close();
    }

    @Override
    public String toString() {
        return server.url() + " " + process;
    }
}
