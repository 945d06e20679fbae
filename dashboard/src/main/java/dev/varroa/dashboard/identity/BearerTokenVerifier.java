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
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks a bearer token an API client sends: a JWT (the provider's ID token) signed by a key of the issuer's JWKS,
 * issued by that issuer for one of the accepted audiences, and not expired. Anything else is refused with the reason.
 */
public final class BearerTokenVerifier {

  /** The token was refused; the message says which check failed, never the token. */
  public static final class Refused extends Exception {
    public Refused(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** A verified token: who it names and when it stops being accepted. */
  public record Verified(Caller caller, java.time.Instant expiresAt) {}

  private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
  private final Clock clock;
  private final String usernameClaim;
  private final String groupsClaim;

  /**
   * @param audiences the aud values accepted (the BFF's client id, and any other client whose tokens it takes)
   * @param jwksUri the issuer's jwks_uri (from its discovery document)
   * @param usernameClaim the claim that names the user (VARROA_OIDC_USERNAME_CLAIM)
   * @param groupsClaim the claim that lists the user's groups (VARROA_OIDC_GROUPS_CLAIM); absent means no groups
   * @param clock the verifier's idea of now, so a test can see a token expire
   */
  public BearerTokenVerifier(String issuer, Set<String> audiences, URI jwksUri, String usernameClaim,
      String groupsClaim, Clock clock) {
    this.usernameClaim = usernameClaim;
    this.groupsClaim = groupsClaim;
    this.clock = clock;
    JWKSource<SecurityContext> keys;
    try {
      keys = JWKSourceBuilder.create(jwksUri.toURL()).retrying(true).build();
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException("the issuer's jwks_uri is not a URL: " + jwksUri, e);
    }
    processor.setJWSKeySelector(new JWSVerificationKeySelector<>(Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384,
        JWSAlgorithm.RS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.PS256), keys));
    processor.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(audiences,
        new JWTClaimsSet.Builder().issuer(issuer).build(), new HashSet<>(List.of("sub", "exp", "iat")), null) {
      @Override
      protected Date currentTime() {
        return Date.from(clock.instant());
      }
    });
  }

  public Caller verify(String token) throws Refused {
    return check(token).caller();
  }

  /** The verifier's now, against which {@link Verified#expiresAt()} is compared. */
  public java.time.Instant now() {
    return clock.instant();
  }

  public Verified check(String token) throws Refused {
    JWTClaimsSet claims;
    try {
      claims = processor.process(token, null);
    } catch (ParseException e) {
      throw new Refused("the bearer token is not a JWT", e);
    } catch (BadJOSEException e) {
      throw new Refused("the bearer token was refused: " + e.getMessage(), e);
    } catch (JOSEException e) {
      throw new Refused("the bearer token could not be checked: " + e.getMessage(), e);
    }
    // exp is a required claim (see the claims verifier), so a verified token has one
    return new Verified(caller(claims), claims.getExpirationTime().toInstant());
  }

  /** The caller a verified token names; refused when the username claim is missing. */
  Caller caller(JWTClaimsSet claims) throws Refused {
    Object user = claims.getClaim(usernameClaim);
    if (!(user instanceof String name) || name.isBlank()) {
      throw new Refused("the token has no '" + usernameClaim + "' claim to name the user; fix: ask the provider for"
          + " it (scopes), or set VARROA_OIDC_USERNAME_CLAIM to a claim it sends (e.g. sub)", null);
    }
    Object groups = claims.getClaim(groupsClaim);
    List<String> names = new ArrayList<>();
    if (groups instanceof List<?> list) {
      list.stream().filter(String.class::isInstance).map(String.class::cast).forEach(names::add);
    } else if (groups instanceof String one) {
      names.add(one);
    }
    return new Caller(name, names);
  }
}
