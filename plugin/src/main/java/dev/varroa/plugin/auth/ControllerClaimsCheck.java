package dev.varroa.plugin.auth;

import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimNames;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.ExpiredJWTException;
import com.nimbusds.jwt.proc.JWTClaimsSetVerifier;
import java.time.Clock;
import java.util.Date;
import java.util.Set;

/**
 * The claims of a Jenkins token, checked one nimbus rule at a time so that each refusal has exactly
 * one reason. Runs only after the signature verified, so claim values in messages are the operator's.
 */
final class ControllerClaimsCheck implements JWTClaimsSetVerifier<SecurityContext> {

  static final String ISSUER = "varroa-operator";
  static final String SUBJECT = "mite";
  static final int MAX_CLOCK_SKEW_SECONDS = 30;
  static final Set<String> REQUIRED_CLAIMS = Set.of(
      JWTClaimNames.ISSUER, JWTClaimNames.SUBJECT, JWTClaimNames.AUDIENCE, JWTClaimNames.ISSUED_AT,
      JWTClaimNames.NOT_BEFORE, JWTClaimNames.EXPIRATION_TIME, JWTClaimNames.JWT_ID);

  private final String audience;
  private final ClaimsRule presence = new ClaimsRule(null, null, REQUIRED_CLAIMS, null);
  private final ClaimsRule issuer = new ClaimsRule(null, new JWTClaimsSet.Builder().issuer(ISSUER).build(), null, null);
  private final ClaimsRule subject = new ClaimsRule(null, new JWTClaimsSet.Builder().subject(SUBJECT).build(), null, null);
  private final ClaimsRule audienceRule;
  private final ClaimsRule validityWindow;

  ControllerClaimsCheck(String audience, Clock clock) {
    this.audience = audience;
    this.audienceRule = new ClaimsRule(Set.of(audience), null, null, null);
    this.validityWindow = new ClaimsRule(null, null, null, clock);
  }

  @Override
  public void verify(JWTClaimsSet claims, SecurityContext context) throws BadJWTException {
    try {
      presence.verify(claims, context);
    } catch (BadJWTException e) {
      throw new ClaimsRefused(RefusalReason.MALFORMED, "token lacks a required claim (" + e.getMessage() + ")");
    }
    try {
      issuer.verify(claims, context);
    } catch (BadJWTException e) {
      throw new ClaimsRefused(RefusalReason.WRONG_ISSUER,
          "token issuer is '" + claims.getIssuer() + "', expected '" + ISSUER + "'");
    }
    try {
      subject.verify(claims, context);
    } catch (BadJWTException e) {
      throw new ClaimsRefused(RefusalReason.WRONG_SUBJECT,
          "token subject is '" + claims.getSubject() + "', expected '" + SUBJECT + "'");
    }
    try {
      audienceRule.verify(claims, context);
    } catch (BadJWTException e) {
      throw new ClaimsRefused(RefusalReason.WRONG_AUDIENCE,
          "token audience " + claims.getAudience() + " is not this controller " + audience);
    }
    if (claims.getAudience().size() != 1) {
      // The operator mints one token per controller; a shared token would work on every controller it names.
      throw new ClaimsRefused(RefusalReason.WRONG_AUDIENCE, "token names " + claims.getAudience().size()
          + " audiences; a Varroa token names only this controller " + audience);
    }
    try {
      validityWindow.verify(claims, context);
    } catch (ExpiredJWTException e) {
      throw new ClaimsRefused(RefusalReason.EXPIRED, "token expired at "
          + claims.getExpirationTime().toInstant() + ", beyond the " + MAX_CLOCK_SKEW_SECONDS + " s clock skew");
    } catch (BadJWTException e) {
      throw new ClaimsRefused(RefusalReason.NOT_YET_VALID, "token is not valid before "
          + claims.getNotBeforeTime().toInstant() + ", beyond the " + MAX_CLOCK_SKEW_SECONDS + " s clock skew");
    }
  }

  /** One nimbus claims rule; it checks the validity window only when given a clock. */
  private static final class ClaimsRule extends DefaultJWTClaimsVerifier<SecurityContext> {
    private final Clock clock;

    ClaimsRule(Set<String> audience, JWTClaimsSet exactMatch, Set<String> required, Clock clock) {
      super(audience, exactMatch, required, null);
      this.clock = clock;
      setMaxClockSkew(MAX_CLOCK_SKEW_SECONDS);
    }

    @Override
    protected Date currentTime() {
      return clock == null ? null : Date.from(clock.instant());
    }
  }
}
