package dev.varroa.testfixtures.postgres;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One PostgreSQL cluster made by {@code initdb} in a throwaway directory and run by {@code pg_ctl}: data in
 * {@code data/}, the server log in {@code postgres.log}, what initdb, pg_ctl and psql print in
 * {@code commands.log}, the unix sockets in the directory itself. Closing stops it and deletes the directory.
 */
public final class PostgresServerProcess implements ClassScopedFixtureExtension.Running<PostgresServer> {

    public static final String DATABASE = "varroa";
    public static final String USER = "varroa";
    private static final String SUPERUSER = "postgres";
    private static final Duration COMMAND_DEADLINE = Duration.ofSeconds(60);
    private static final Duration KILL_WAIT = Duration.ofSeconds(10);
    private static final int LOG_TAIL_LINES = 30;
    // /tmp is traversable by every user; java.io.tmpdir may sit under a home the fixture's OS user cannot enter.
    private static final Path SHARED_TEMP = Path.of("/tmp");

    private final PostgresBinaries binaries;
    private final ThrowawayDirectory directory;
    private final int port;
    private PostgresServer server;

    private PostgresServerProcess(PostgresBinaries binaries, ThrowawayDirectory directory, int port) {
        this.binaries = binaries;
        this.directory = directory;
        this.port = port;
    }

    /** initdb, start, then the test's role and database; on failure the directory is kept for its logs. */
    public static PostgresServerProcess start() throws InterruptedException {
        PostgresBinaries binaries = PostgresBinaries.require();
        ThrowawayDirectory directory = binaries.osUser() == null ? ThrowawayDirectory.create("varroa-pg-")
                : ThrowawayDirectory.create(SHARED_TEMP, "varroa-pg-");
        if (binaries.osUser() != null) {
            handOver(directory.path(), binaries.osUser());
        }
        PostgresServerProcess process = new PostgresServerProcess(binaries, directory, LoopbackPort.pickFree());
        process.run("initdb", List.of("-D", process.dataDirectory().toString(), "-U", SUPERUSER,
                // The superuser comes in over the unix socket only; the test's role over TCP with its password.
                "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8", "--no-locale", "--no-sync"));
        process.startServer();
        String password = randomPassword();
        try {
            process.psql("CREATE ROLE " + USER + " LOGIN PASSWORD '" + password + "'");
            process.psql("CREATE DATABASE " + DATABASE + " OWNER " + USER);
        } catch (RuntimeException | InterruptedException e) {
            // The server must not outlive a failed start; its directory stays for the logs.
            process.killServer();
            throw e;
        }
        process.server = new PostgresServer(process, process.port, DATABASE, USER, password);
        return process;
    }

    void startServer() throws InterruptedException {
        run("pg_ctl", List.of("-D", dataDirectory().toString(), "-l", directory.resolve("postgres.log").toString(),
                "-w", "-t", Long.toString(COMMAND_DEADLINE.toSeconds()),
                "-o", "-p " + port + " -k " + directory.path() + " -c listen_addresses=" + LoopbackPort.HOST,
                "start"));
    }

    void stop(String mode) throws InterruptedException {
        run("pg_ctl", List.of("-D", dataDirectory().toString(), "-m", mode, "-w",
                "-t", Long.toString(COMMAND_DEADLINE.toSeconds()), "stop"));
    }

    /** True while the postmaster named in postmaster.pid lives (a killed one leaves the file behind). */
    boolean isRunning() {
        return postmaster().map(ProcessHandle::isAlive).orElse(false);
    }

    private Optional<ProcessHandle> postmaster() {
        Path pidFile = dataDirectory().resolve("postmaster.pid");
        try {
            List<String> lines = Files.readAllLines(pidFile);
            return lines.isEmpty() ? Optional.empty() : ProcessHandle.of(Long.parseLong(lines.get(0).strip()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException("cannot read " + pidFile + ": " + e, e);
        }
    }

    void createDatabase(String name, String owner) throws InterruptedException {
        if (!name.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("database name '" + name + "' must be lowercase letters, digits and _");
        }
        psql("CREATE DATABASE " + name + " OWNER " + owner);
    }

    void createLoginRole(String name, String password) throws InterruptedException {
        if (!name.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("role name '" + name + "' must be lowercase letters, digits and _");
        }
        if (!password.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("the role's password must be letters, digits, _ and -");
        }
        psql("CREATE ROLE " + name + " LOGIN PASSWORD '" + password + "'");
    }

    private void psql(String sql) throws InterruptedException {
        run("psql", List.of("-h", directory.path().toString(), "-p", Integer.toString(port), "-U", SUPERUSER,
                "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-q", "-c", sql));
    }

    private Path dataDirectory() {
        return directory.resolve("data");
    }

    private void run(String program, List<String> args) throws InterruptedException {
        List<String> command = binaries.command(program, args);
        Path log = directory.resolve("commands.log");
        Process process;
        try {
            Files.writeString(log, "$ " + String.join(" ", command) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            process = new ProcessBuilder(command)
                    .directory(directory.path().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            process.getOutputStream().close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command + "; log: " + log, e);
        }
        if (!process.waitFor(COMMAND_DEADLINE.toMillis() + 5_000, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(program + " did not finish within " + COMMAND_DEADLINE + "; logs in "
                    + directory + "\n" + tail(log) + tail(directory.resolve("postgres.log")));
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(program + " exited with code " + process.exitValue() + "; logs in "
                    + directory + "\n" + tail(log) + tail(directory.resolve("postgres.log")));
        }
    }

    @Override
    public PostgresServer value() {
        return server;
    }

    /** Stops the cluster (fast, then immediate, then SIGKILL of the postmaster) and deletes the directory. */
    @Override
    public void close() throws InterruptedException {
        if (isRunning()) {
            try {
                stop("fast");
            } catch (IllegalStateException fastFailed) {
                try {
                    stop("immediate");
                } catch (IllegalStateException immediateFailed) {
                    killServer();
                }
            }
        }
        directory.close();
    }

    /** SIGKILL to the postmaster and every backend, as kill -9 of the whole server; the next start recovers. */
    void killServer() throws InterruptedException {
        Optional<ProcessHandle> postmaster = postmaster();
        if (postmaster.isEmpty()) {
            return;
        }
        // The backends first: a surviving backend keeps the shared memory and the next start refuses to run.
        List<ProcessHandle> tree = new ArrayList<>(postmaster.get().descendants().toList());
        tree.add(postmaster.get());
        tree.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle process : tree) {
            try {
                process.onExit().get(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("PostgreSQL process " + process.pid() + " in " + directory
                        + " survived SIGKILL for " + KILL_WAIT, e);
            }
        }
    }

    // The directory is root's 0700 temp directory; the server's user must own it to create data/ and sockets.
    private static void handOver(Path path, String osUser) {
        try {
            UserPrincipalLookupService lookup = path.getFileSystem().getUserPrincipalLookupService();
            PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
            view.setOwner(lookup.lookupPrincipalByName(osUser));
            GroupPrincipal group = lookup.lookupPrincipalByGroupName(osUser);
            view.setGroup(group);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot hand " + path + " over to the OS user " + osUser, e);
        }
    }

    private static String randomPassword() {
        String alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        SecureRandom random = new SecureRandom();
        StringBuilder password = new StringBuilder();
        for (int i = 0; i < 24; i++) {
            password.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return password.toString();
    }

    private static String tail(Path log) {
        try {
            if (!Files.exists(log)) {
                return "";
            }
            List<String> lines = new ArrayList<>(List.of(Files.readString(log, StandardCharsets.UTF_8).split("\\R")));
            List<String> tail = lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
            return "--- last lines of " + log.getFileName() + " ---\n" + String.join("\n", tail) + "\n";
        } catch (IOException e) {
            return "--- " + log.getFileName() + " unreadable: " + e + " ---\n";
        }
    }

    @Override
    public String toString() {
        return "PostgreSQL on " + LoopbackPort.HOST + ":" + port + " in " + directory;
    }
}
