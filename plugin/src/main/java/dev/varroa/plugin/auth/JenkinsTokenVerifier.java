package dev.varroa.plugin.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.text.ParseException;
import java.time.Clock;
import java.util.Map;

/**
 * Verifies the bearer token the mite presents to Jenkins: an ES256 JWT the operator minted for this
 * controller. Thread-safe; one instance serves every request.
 */
public final class JenkinsTokenVerifier {

  /** The only algorithm accepted; {@code none}, HMAC and every other algorithm are refused. */
  public static final JWSAlgorithm ALGORITHM = JWSAlgorithm.ES256;

  private static final int MAX_QUOTED_LENGTH = 80;
  // Token parts shorter than this are not looked for in messages: they would match ordinary words.
  private static final int MIN_REDACTED_PART_LENGTH = 8;

  private final PublicKeyRing keys;
  private final String audience;
  private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();

  public JenkinsTokenVerifier(PublicKeyRing keys, ControllerIdentity controller, Clock clock) {
    this.keys = keys;
    this.audience = controller.uri();
    processor.setJWSKeySelector(new KidPreferringKeySelector(keys));
    processor.setJWTClaimsSetVerifier(new ControllerClaimsCheck(audience, clock));
  }

  /** The verifier for the controller and key file named by the Jenkins container's environment. */
  public static JenkinsTokenVerifier fromEnvironment(Map<String, String> env, Clock clock) {
    return new JenkinsTokenVerifier(
        PublicKeyRing.fromEnvironment(env, clock), ControllerIdentity.fromEnvironment(env), clock);
  }

  public static JenkinsTokenVerifier fromEnvironment() {
    return fromEnvironment(System.getenv(), Clock.systemUTC());
  }

  /** The audience a token must name: this controller's identity URI. */
  public String audience() {
    return audience;
  }

  public TokenVerification verify(String bearer) {
    if (bearer == null || bearer.isBlank()) {
      return refuse(RefusalReason.MALFORMED, "no bearer token", "");
    }
    String token = bearer.strip();
    JWT parsed;
    try {
      parsed = JWTParser.parse(token);
    } catch (ParseException e) {
      return refuse(RefusalReason.MALFORMED, "token is not a compact JWT: " + e.getMessage(), token);
    }
    if (!(parsed instanceof SignedJWT signed)) {
      String kind = parsed instanceof PlainJWT ? "unsigned (alg none)" : "encrypted";
      return refuse(RefusalReason.ALGORITHM_NOT_ALLOWED, "token is " + kind + "; only " + ALGORITHM + " is accepted", token);
    }
    JWSAlgorithm algorithm = signed.getHeader().getAlgorithm();
    if (!ALGORITHM.equals(algorithm)) {
      return refuse(RefusalReason.ALGORITHM_NOT_ALLOWED,
          "token is signed with " + quoted(algorithm.getName()) + "; only " + ALGORITHM + " is accepted", token);
    }
    try {
      JWTClaimsSet claims = processor.process(signed, null);
      return new TokenVerification.Accepted(
          claims.getSubject(), claims.getAudience().get(0), claims.getExpirationTime().toInstant(), claims.getJWTID());
    } catch (ClaimsRefused e) {
      return refuse(e.reason(), e.getMessage(), token);
    } catch (BadJWSException e) {
      return refuseSignature(signed.getHeader().getKeyID(), token);
    } catch (BadJOSEException e) {
      return refuse(RefusalReason.MALFORMED, "token rejected: " + e.getMessage(), token);
    } catch (KeySourceException e) {
      return refuse(RefusalReason.UNKNOWN_KEY, "no public key to check the token with: " + e.getMessage(), token);
    } catch (JOSEException e) {
      return refuse(RefusalReason.BAD_SIGNATURE, "token signature could not be checked: " + e.getMessage(), token);
    }
  }

  private TokenVerification refuseSignature(String kid, String token) {
    if (kid == null) {
      return refuse(RefusalReason.BAD_SIGNATURE,
          "token names no kid and its signature verifies with no key in " + keys.file(), token);
    }
    boolean held;
    try {
      held = keys.keyIds().contains(kid);
    } catch (KeySourceException e) {
      // The file changed into something unusable since the signature check.
      return refuse(RefusalReason.UNKNOWN_KEY, "no public key to check the token with: " + e.getMessage(), token);
    }
    return held
        ? refuse(RefusalReason.BAD_SIGNATURE, "token signature does not verify with key " + quoted(kid), token)
        : refuse(RefusalReason.UNKNOWN_KEY, "token names key " + quoted(kid) + ", which " + keys.file()
            + " does not hold (a rotation the file has not caught up with, or a foreign signer)", token);
  }

  private static TokenVerification.Refused refuse(RefusalReason reason, String message, String token) {
    return new TokenVerification.Refused(reason, withoutToken(message, token));
  }

  /** Library messages can echo input; no part of the token may reach a log line. */
  private static String withoutToken(String message, String token) {
    String safe = message == null ? "" : message;
    if (!token.isEmpty()) {
      safe = safe.replace(token, "<token>");
    }
    for (String part : token.split("\\.")) {
      if (part.length() >= MIN_REDACTED_PART_LENGTH) {
        safe = safe.replace(part, "<redacted>");
      }
    }
    return safe;
  }

  private static String quoted(String headerValue) {
    String shown = headerValue.length() > MAX_QUOTED_LENGTH ? headerValue.substring(0, MAX_QUOTED_LENGTH) + "..." : headerValue;
    return "'" + shown + "'";
  }
}
