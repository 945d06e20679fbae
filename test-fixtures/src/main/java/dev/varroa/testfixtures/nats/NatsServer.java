package dev.varroa.testfixtures.nats;

import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A running nats-server with JetStream, as tests see it: its URL, a way to connect, and the store
 * directory, which tests scan to prove what never reaches JetStream.
 */
public record NatsServer(String url, Path storeDirectory) {

    public NatsServer(String url) {
        this(url, null);
    }

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    /** Opens a new connection; the caller closes it. */
    public Connection connect() throws IOException, InterruptedException {
        return Nats.connect(options().build());
    }

    /** Connection options pointing at this server, for tests that need to tune them before connecting. */
    public Options.Builder options() {
        return Options.builder()
                .server(url)
                .connectionName("varroa-test")
                .connectionTimeout(CONNECT_TIMEOUT);
    }
}
