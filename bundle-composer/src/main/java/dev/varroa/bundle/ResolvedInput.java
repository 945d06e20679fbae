package dev.varroa.bundle;

/**
 * One input after its source was read: where it came from, the revision as Flux writes it
 * ({@code main@sha1:<40 hex>}, {@code 1.4.0@sha256:<64 hex>}, or the catalog source's revision),
 * and the files of its bundle directory.
 */
public record ResolvedInput(InputRef ref, String revision, BundleFiles files) {}
