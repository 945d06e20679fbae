package dev.varroa.dashboard.identity;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.net.MalformedURLException;
import java.net.URI;
import java.text.ParseException;
import java.time.Clock;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks a bearer token an API client sends: a JWT (the provider's ID token) signed by a key of the issuer's JWKS,
 * issued by that issuer for this audience, and not expired. Anything else is refused with the reason.
 */
public final class BearerTokenVerifier {

  /** What a token says about its caller once it passed every check. */
  public record Caller(String subject, String email, List<String> groups) {
  }

  /** The token was refused; the message says which check failed, never the token. */
  public static final class Refused extends Exception {
    public Refused(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();

  /**
   * @param jwksUri the issuer's jwks_uri (from its discovery document)
   * @param clock the verifier's idea of now, so a test can see a token expire
   */
  public BearerTokenVerifier(String issuer, String audience, URI jwksUri, Clock clock) {
    JWKSource<SecurityContext> keys;
    try {
      keys = JWKSourceBuilder.create(jwksUri.toURL()).retrying(true).build();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException("the issuer's jwks_uri is not a URL: " + jwksUri, e);
    }
    processor.setJWSKeySelector(new JWSVerificationKeySelector<>(Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384,
        JWSAlgorithm.RS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.PS256), keys));
    processor.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(audience,
        new JWTClaimsSet.Builder().issuer(issuer).build(), new HashSet<>(List.of("sub", "exp", "iat"))) {
      @Override
      protected Date currentTime() {
        return Date.from(clock.instant());
      }
    });
  }

  public Caller verify(String token) throws Refused {
    try {
      JWTClaimsSet claims = processor.process(token, null);
      List<String> groups = claims.getStringListClaim("groups");
      return new Caller(claims.getSubject(), claims.getStringClaim("email"), groups == null ? List.of() : groups);
    } catch (ParseException e) {
      throw new Refused("the bearer token is not a JWT", e);
    } catch (BadJOSEException e) {
      throw new Refused("the bearer token was refused: " + e.getMessage(), e);
    } catch (JOSEException e) {
      throw new Refused("the bearer token could not be checked: " + e.getMessage(), e);
    }
  }
}
