package dev.varroa.testfixtures.nats;

import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;

import java.io.IOException;
import java.time.Duration;

/** A running nats-server with JetStream, as tests see it: its URL and a way to connect. */
public record NatsServer(String url) {

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
