/**
 * Sources: turn one ComposedBundle input into a {@link dev.varroa.bundle.ResolvedInput} (the files of
 * its bundle directory plus the revision as Flux writes it). No Kubernetes client here; credentials
 * arrive as values the caller read from Secrets ({@link dev.varroa.bundle.source.GitCredentials},
 * {@link dev.varroa.bundle.source.OciCredentials}).
 *
 * <ul>
 *   <li>{@link dev.varroa.bundle.source.GitBundleSource}: {@code main@sha1:<40 hex>}, {@code <tag>@sha1:<40 hex>},
 *       {@code sha1:<40 hex>}.</li>
 *   <li>{@link dev.varroa.bundle.source.OciBundleSource}: {@code <tag>@sha256:<64 hex>}, {@code sha256:<64 hex>}.</li>
 *   <li>{@link dev.varroa.bundle.source.FluxArtifactSource}: the artifact's own revision.</li>
 * </ul>
 *
 * <p>Failures: a {@link dev.varroa.bundle.SourceUnavailableException} when the source cannot be read
 * right now (network, timeout, refused credentials or host key, server error: keep the last good
 * render); a plain {@link dev.varroa.bundle.BundleException} (INVALID) when the spec or the content is
 * wrong (no such ref, empty or missing path, digest mismatch, unsafe archive, a limit exceeded). Both
 * name the input by {@link dev.varroa.bundle.InputRef#describe()} and carry a fix.
 *
 * <p>Untrusted content is bounded by {@link dev.varroa.bundle.source.SourceLimits}; links inside a
 * bundle folder are refused, never followed.
 */
package dev.varroa.bundle.source;
