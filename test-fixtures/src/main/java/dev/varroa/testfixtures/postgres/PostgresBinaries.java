package dev.varroa.testfixtures.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Debian's PostgreSQL server programs (initdb, pg_ctl, psql) of the newest version under
 * /usr/lib/postgresql, and the OS user they run as when the JVM is root (PostgreSQL refuses root).
 */
public record PostgresBinaries(Path directory, String osUser) {

    /** Created by test-fixtures/postgres/install.sh; change both together. */
    public static final String OS_USER = "varroa-postgres";
    private static final Path DEBIAN_ROOT = Path.of("/usr/lib/postgresql");
    private static final String INSTALL_HINT =
            "run `make deps` (test-fixtures/postgres/install.sh installs the Debian package postgresql and creates the OS user "
                    + OS_USER + ")";

    /** The newest installed version; osUser is null when the JVM is not root and runs the programs itself. */
    public static PostgresBinaries require() {
        Path bin = newestBinDirectory();
        for (String program : List.of("initdb", "pg_ctl", "psql", "postgres")) {
            if (!Files.isExecutable(bin.resolve(program))) {
                throw new IllegalStateException(bin.resolve(program) + " is missing: " + INSTALL_HINT);
            }
        }
        if (!runningAsRoot()) {
            return new PostgresBinaries(bin, null);
        }
        if (!osUserExists(OS_USER)) {
            throw new IllegalStateException("the OS user " + OS_USER + " does not exist (initdb cannot run as root): "
                    + INSTALL_HINT);
        }
        return new PostgresBinaries(bin, OS_USER);
    }

    /** The command line that runs {@code program} with {@code args} as the fixture's OS user. */
    public List<String> command(String program, List<String> args) {
        List<String> command = new ArrayList<>();
        if (osUser != null) {
            // runuser -u execs the program directly, without the user's (nologin) shell.
            command.addAll(List.of("runuser", "-u", osUser, "--"));
        }
        command.add(directory.resolve(program).toString());
        command.addAll(args);
        return command;
    }

    private static Path newestBinDirectory() {
        if (!Files.isDirectory(DEBIAN_ROOT)) {
            throw new IllegalStateException("PostgreSQL is not installed (no " + DEBIAN_ROOT + "): " + INSTALL_HINT);
        }
        try (Stream<Path> versions = Files.list(DEBIAN_ROOT)) {
            return versions
                    .filter(version -> version.getFileName().toString().matches("\\d+(\\.\\d+)?"))
                    .filter(version -> Files.isExecutable(version.resolve("bin/initdb")))
                    .max(Comparator.comparingDouble(version -> Double.parseDouble(version.getFileName().toString())))
                    .map(version -> version.resolve("bin"))
                    .orElseThrow(() -> new IllegalStateException("no " + DEBIAN_ROOT + "/<version>/bin/initdb: " + INSTALL_HINT));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + DEBIAN_ROOT, e);
        }
    }

    private static boolean runningAsRoot() {
        return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
    }

    private static boolean osUserExists(String user) {
        try {
            return Files.readAllLines(Path.of("/etc/passwd")).stream().anyMatch(line -> line.startsWith(user + ":"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /etc/passwd to find the OS user " + user, e);
        }
    }
}
