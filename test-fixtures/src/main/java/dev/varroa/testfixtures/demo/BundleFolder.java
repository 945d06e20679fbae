package dev.varroa.testfixtures.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/** One folder of gitops-examples/bundles/: its files by path relative to the folder ('/'-separated), as UTF-8 text. */
record BundleFolder(Path root) {

    /** Every regular file below the folder, sorted by path; an empty or missing folder is an error. */
    SortedMap<String, String> files() throws IOException {
        if (!Files.isDirectory(root)) {
            throw new IOException("example bundle folder " + root + " does not exist");
        }
        List<Path> regularFiles;
        try (Stream<Path> walk = Files.walk(root)) {
            regularFiles = walk.filter(Files::isRegularFile).toList();
        }
        SortedMap<String, String> files = new TreeMap<>();
        for (Path file : regularFiles) {
            files.put(relativePath(file), Files.readString(file));
        }
        if (files.isEmpty()) {
            throw new IOException("example bundle folder " + root + " holds no files");
        }
        return files;
    }

    // Git tree paths and OCI layer titles both use '/', whatever the platform's separator.
    private String relativePath(Path file) {
        StringBuilder path = new StringBuilder();
        for (Path segment : root.relativize(file)) {
            path.append(path.isEmpty() ? "" : "/").append(segment);
        }
        return path.toString();
    }
}
