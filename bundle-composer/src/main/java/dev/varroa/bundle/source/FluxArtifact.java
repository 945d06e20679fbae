package dev.varroa.bundle.source;

/**
 * The {@code status.artifact} of a Flux source object, as the caller read it from the cluster.
 *
 * @param url where source-controller serves the tar.gz, e.g. http://source-controller.flux-system.svc/…/abc.tar.gz
 * @param digest {@code sha256:<64 hex>} of the archive
 * @param revision the source revision, e.g. {@code main@sha1:<40 hex>}; it becomes the input's revision
 */
public record FluxArtifact(String url, String digest, String revision) {}
