package dev.varroa.testfixtures.jenkins;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * HTTP sessions and the crumbs bound to them, as hudson.security.csrf.DefaultCrumbIssuer#issueCrumb computes them:
 * SHA-256 over "user;clientIP;sessionId" followed by the instance's salt.
 */
final class SessionCrumbIssuer {

    /** CrumbIssuer.DEFAULT_CRUMB_NAME, the header and form field CrumbFilter reads. */
    static final String CRUMB_REQUEST_FIELD = "Jenkins-Crumb";

    private static final String X_FORWARDED_FOR = "X-Forwarded-For";

    private final SecureRandom random = new SecureRandom();
    private final Set<String> sessions = ConcurrentHashMap.newKeySet();
    // Jenkins' Jetty names its session cookie JSESSIONID.<hex> so two controllers on one host keep apart.
    private final String cookieName = "JSESSIONID." + hex(4);
    // DefaultCrumbIssuer.DescriptorImpl's salt is a 16-byte HexStringConfidentialKey.
    private final String salt = hex(16);

    /** The session the request's cookie names, if this server issued it. */
    Optional<String> existingSession(IncomingRequest request) {
        for (String header : request.headers().getOrDefault("Cookie", List.of())) {
            for (String pair : header.split(";")) {
                String[] nameValue = pair.trim().split("=", 2);
                if (nameValue.length == 2 && nameValue[0].equals(cookieName) && sessions.contains(nameValue[1])) {
                    return Optional.of(nameValue[1]);
                }
            }
        }
        return Optional.empty();
    }

    /** HttpServletRequest#getSession(): the existing session, or a new one announced on the reply. */
    String session(IncomingRequest request, HttpReply reply) {
        return existingSession(request).orElseGet(() -> {
            String id = hex(16);
            sessions.add(id);
            reply.header("Set-Cookie", cookieName + "=" + id + "; Path=/; HttpOnly");
            return id;
        });
    }

    /** A restarted Jenkins keeps no HTTP session (the salt, a persisted confidential key, stays). */
    void forgetSessions() {
        sessions.clear();
    }

    String crumb(String user, IncomingRequest request, String session) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update((user + ';' + clientIp(request) + ';' + session).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha256.digest(salt.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** DefaultCrumbIssuer#validateCrumb; without a known session Jenkins would open a fresh one, so nothing matches. */
    boolean valid(String user, IncomingRequest request, String presented) {
        if (presented == null) {
            return false;
        }
        return existingSession(request)
                .map(session -> MessageDigest.isEqual(
                        crumb(user, request, session).getBytes(StandardCharsets.US_ASCII),
                        presented.getBytes(StandardCharsets.US_ASCII)))
                .orElse(false);
    }

    // DefaultCrumbIssuer#getClientIP: the first X-Forwarded-For hop wins over the socket address.
    private static String clientIp(IncomingRequest request) {
        List<String> forwarded = request.headers().get(X_FORWARDED_FOR);
        if (forwarded != null && !forwarded.isEmpty()) {
            return forwarded.get(0).split(",")[0];
        }
        return request.remoteAddress();
    }

    private String hex(int bytes) {
        byte[] value = new byte[bytes];
        random.nextBytes(value);
        return HexFormat.of().formatHex(value);
    }
}
