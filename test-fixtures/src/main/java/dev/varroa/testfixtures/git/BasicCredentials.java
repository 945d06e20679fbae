package dev.varroa.testfixtures.git;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Optional;

/** A username and password for HTTP basic auth on a served repository. */
record BasicCredentials(String username, String password) {

    private static final String SCHEME = "Basic ";

    /** Reads an {@code Authorization} header; anything that is not well-formed basic auth yields empty. */
    static Optional<BasicCredentials> fromAuthorizationHeader(String header) {
        if (header == null || !header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return Optional.empty();
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(header.substring(SCHEME.length()).trim()),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            // A garbled header is the same as no credentials: the client gets a 401 challenge.
            return Optional.empty();
        }
        int colon = decoded.indexOf(':');
        return colon < 0
                ? Optional.empty()
                : Optional.of(new BasicCredentials(decoded.substring(0, colon), decoded.substring(colon + 1)));
    }

    // Constant-time comparison, so the fixture behaves like a server that cares.
    boolean matches(BasicCredentials presented) {
        return MessageDigest.isEqual(bytes(username), bytes(presented.username))
                & MessageDigest.isEqual(bytes(password), bytes(presented.password));
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "BasicCredentials[username=" + username + ", password=***]";
    }
}
