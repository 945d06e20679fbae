package dev.varroa.testfixtures.nats;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;

/**
 * Starts one real {@code nats-server} with JetStream per test class, on a free loopback port with a
 * throwaway store directory, and stops it after the class (even when a test or the start fails).
 *
 * <p>Use {@code @ExtendWith(NatsServerExtension.class)} and take a {@link NatsServer} parameter, or
 * keep it in a {@code static @RegisterExtension} field and call {@link #server()}.
 */
public final class NatsServerExtension extends ClassScopedFixtureExtension<NatsServer> {

    public NatsServerExtension() {
        super(NatsServer.class, "nats-server");
    }

    @Override
    protected Running<NatsServer> start() throws InterruptedException {
        return NatsServerProcess.start();
    }

    /** The server started for the current test class. */
    public NatsServer server() {
        return current();
    }
}
