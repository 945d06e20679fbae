package dev.varroa.testfixtures.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** A temporary directory that is deleted, with everything in it, when closed. */
public final class ThrowawayDirectory implements AutoCloseable {

    private final Path path;

    private ThrowawayDirectory(Path path) {
        this.path = path;
    }

    public static ThrowawayDirectory create(String prefix) {
        try {
            return new ThrowawayDirectory(Files.createTempDirectory(prefix));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory with prefix " + prefix, e);
        }
    }

    /** The same, under {@code parent} instead of java.io.tmpdir. */
    public static ThrowawayDirectory create(Path parent, String prefix) {
        try {
            return new ThrowawayDirectory(Files.createTempDirectory(parent, prefix));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory with prefix " + prefix + " in " + parent, e);
        }
    }

    public Path path() {
        return path;
    }

    public Path resolve(String name) {
        return path.resolve(name);
    }

    @Override
    public void close() {
        if (!Files.exists(path)) {
            return;
        }
        List<Path> deepestFirst;
        try (Stream<Path> walk = Files.walk(path)) {
            deepestFirst = walk.sorted(Comparator.reverseOrder()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + path + " for deletion", e);
        }
        for (Path entry : deepestFirst) {
            try {
                Files.deleteIfExists(entry);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete " + entry, e);
            }
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
