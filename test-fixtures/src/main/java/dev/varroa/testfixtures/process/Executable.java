package dev.varroa.testfixtures.process;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A program installed on this machine, found on PATH or in the Debian system directories. */
public record Executable(Path path) {

    // Debian puts daemons in /usr/sbin, which is often missing from a user's PATH.
    private static final List<Path> SYSTEM_DIRECTORIES = List.of(Path.of("/usr/sbin"), Path.of("/usr/bin"));

    /** Finds {@code name}, or fails with the {@code make deps} hint naming the Debian package that installs it. */
    public static Executable require(String name, String debianPackage) {
        return find(name, System.getenv("PATH")).orElseThrow(() -> new IllegalStateException(
                name + " not found: run `make deps` (installs the Debian package " + debianPackage + ")"));
    }

    static Optional<Executable> find(String name, String searchPath) {
        List<Path> directories = new ArrayList<>();
        if (searchPath != null) {
            for (String entry : searchPath.split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    directories.add(Path.of(entry));
                }
            }
        }
        directories.addAll(SYSTEM_DIRECTORIES);
        return directories.stream()
                .map(directory -> directory.resolve(name))
                .filter(candidate -> Files.isRegularFile(candidate) && Files.isExecutable(candidate))
                .findFirst()
                .map(Executable::new);
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
