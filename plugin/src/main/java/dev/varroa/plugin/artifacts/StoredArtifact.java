package dev.varroa.plugin.artifacts;

import java.time.Instant;

/**
 * One archived file of a build in the object store.
 *
 * @param relativePath its path in the build's artifacts, as Jenkins archived it
 * @param key its full object key in the bucket
 * @param size its length in bytes
 * @param lastModified when the store last wrote it (Jenkins shows it and serves it as Last-Modified)
 */
public record StoredArtifact(String relativePath, String key, long size, Instant lastModified) {
}
