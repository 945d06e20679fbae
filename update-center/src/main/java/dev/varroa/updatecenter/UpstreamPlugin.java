package dev.varroa.updatecenter;

import java.net.URI;

/**
 * A plugin version an upstream update site offers: where to download it and the SHA-256 the site
 * publishes for it, which every download is checked against.
 */
public record UpstreamPlugin(PluginCoordinates coordinates, URI url, byte[] sha256) {}
