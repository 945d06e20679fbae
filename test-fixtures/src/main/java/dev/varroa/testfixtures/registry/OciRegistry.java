package dev.varroa.testfixtures.registry;

import java.net.URI;

/**
 * A running OCI distribution registry, as tests see it. {@code host} is what goes into an image
 * reference ({@code 127.0.0.1:PORT/name:tag}); {@code url} is the plain-HTTP base for API calls.
 */
public record OciRegistry(String host, URI url) {

    /** {@code host/repository:tag}, the reference form OCI clients and Flux take. */
    public String reference(String repository, String tag) {
        return host + "/" + repository + ":" + tag;
    }

    /** The distribution API base {@code http://host/v2/}. */
    public URI apiBase() {
        return url.resolve("/v2/");
    }
}
