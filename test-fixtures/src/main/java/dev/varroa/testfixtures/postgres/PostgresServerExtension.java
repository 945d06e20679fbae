package dev.varroa.testfixtures.postgres;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;

/**
 * Starts one real PostgreSQL cluster per test class (Debian's server, {@code initdb} and {@code pg_ctl} run
 * as the OS user {@value PostgresBinaries#OS_USER} when the JVM is root), on a free loopback port with a
 * throwaway data directory, with a database and a password user for the test; stops it after the class.
 *
 * <p>Use {@code @ExtendWith(PostgresServerExtension.class)} and take a {@link PostgresServer} parameter, or
 * keep it in a {@code static @RegisterExtension} field and call {@link #server()}.
 */
public final class PostgresServerExtension extends ClassScopedFixtureExtension<PostgresServer> {

    public PostgresServerExtension() {
        super(PostgresServer.class, "PostgreSQL");
    }

    @Override
    protected Running<PostgresServer> start() throws InterruptedException {
        return PostgresServerProcess.start();
    }

    /** The cluster started for the current test class. */
    public PostgresServer server() {
        return current();
    }
}
