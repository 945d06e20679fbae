package dev.varroa.operator.manifests;

/**
 * What is wrong with a manifest, for the person who wrote it.
 *
 * @param field the offending field, e.g. {@code spec.miteSpec.imagePullPolicy}
 * @param message what is wrong
 * @param fix what to write instead
 */
public record ManifestProblem(String field, String message, String fix) {}
