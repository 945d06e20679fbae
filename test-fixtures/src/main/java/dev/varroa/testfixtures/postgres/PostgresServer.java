package dev.varroa.testfixtures.postgres;

/**
 * A running PostgreSQL cluster as tests see it: a database and a password user made for the test, the
 * JDBC URL on 127.0.0.1, and control of the same cluster (stop, crash, kill, start again on the same port and
 * data directory) for tests and benchmarks that take the database away mid-stream.
 */
public final class PostgresServer {

    private final PostgresServerProcess process;
    private final int port;
    private final String database;
    private final String user;
    private final String password;

    PostgresServer(PostgresServerProcess process, int port, String database, String user, String password) {
        this.process = process;
        this.port = port;
        this.database = database;
        this.user = user;
        this.password = password;
    }

    /** e.g. {@code jdbc:postgresql://127.0.0.1:54321/varroa}. */
    public String jdbcUrl() {
        return jdbcUrl(database);
    }

    public String jdbcUrl(String otherDatabase) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + otherDatabase;
    }

    public int port() {
        return port;
    }

    public String database() {
        return database;
    }

    /** The test's login role (password authentication over TCP); it owns {@link #database()}. */
    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    /** Creates another empty database owned by {@link #user()}, e.g. one per test; returns its JDBC URL. */
    public String createDatabase(String name) throws InterruptedException {
        process.createDatabase(name, user);
        return jdbcUrl(name);
    }

    /**
     * Creates a login role with no privileges, as an installation's admin (or CloudNativePG) would, e.g. a
     * component's own role that the schema owner grants tables to. Made by the superuser: the test's role may not.
     */
    public void createLoginRole(String name, String password) throws InterruptedException {
        process.createLoginRole(name, password);
    }

    /** Shuts down cleanly ({@code pg_ctl stop -m fast}): sessions are ended, data checkpointed. */
    public void stop() throws InterruptedException {
        process.stop("fast");
    }

    /** Stops as a crash would ({@code pg_ctl stop -m immediate}): no checkpoint, recovery at the next start. */
    public void crash() throws InterruptedException {
        process.stop("immediate");
    }

    /** Kills the postmaster and every backend with SIGKILL, as {@code kill -9} would; the next start recovers. */
    public void kill() throws InterruptedException {
        process.killServer();
    }

    /** Starts the same cluster again on the same port; returns once it accepts connections. */
    public void start() throws InterruptedException {
        process.startServer();
    }

    public boolean isRunning() {
        return process.isRunning();
    }

    @Override
    public String toString() {
        return jdbcUrl() + " (user " + user + ")";
    }
}
