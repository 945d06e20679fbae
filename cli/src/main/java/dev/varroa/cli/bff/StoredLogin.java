package dev.varroa.cli.bff;

import java.net.URI;
import java.time.Instant;

/**
 * What {@code varroactl login} keeps in config.json: the BFF, the OIDC ID token the BFF accepts as a bearer token,
 * when that token expires and who issued it.
 */
public record StoredLogin(URI server, String idToken, Instant expiry, String issuer) {}
