package dev.varroa.dashboard.identity;

import com.nimbusds.jwt.JWTParser;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A browser's login: the authorization code flow with PKCE (S256), a state bound to the browser and a nonce bound
 * to the ID token. The ID token that comes back passes the same checks as a bearer token before a session opens.
 */
public final class AuthorizationCodeLogin {

  /** How long a browser may take at the provider's login page. */
  public static final Duration PENDING_LIFETIME = Duration.ofMinutes(10);
  static final int MAX_PENDING = 10_000;

  /** A login that went to the provider and has not come back yet. */
  private record Pending(CodeVerifier verifier, Nonce nonce, String returnTo, Instant startedAt) {}

  /** Where to send the browser, and the state the callback must bring back (kept in a cookie too). */
  public record Started(URI authorizationUri, String state) {}

  /** The callback could not end in a session; the message says why, in the user's terms. */
  public static final class LoginFailed extends Exception {
    public LoginFailed(String message, Throwable cause) {
      super(message, cause);
    }
  }

  public record Completed(Caller caller, Instant tokenExpiry, String returnTo, String idToken) {}

  private final OidcSettings settings;
  private final IssuerEndpoints endpoints;
  private final BearerTokenVerifier verifier;
  private final Clock clock;
  private final Map<String, Pending> pending = new ConcurrentHashMap<>();

  public AuthorizationCodeLogin(OidcSettings settings, IssuerEndpoints endpoints, BearerTokenVerifier verifier,
      Clock clock) {
    this.settings = settings;
    this.endpoints = endpoints;
    this.verifier = verifier;
    this.clock = clock;
  }

  /** @param returnTo a path on the BFF to land on after the login (anything else becomes "/": {@link ReturnPath}) */
  public Started start(String returnTo) {
    Instant now = clock.instant();
    pending.values().removeIf(p -> p.startedAt().plus(PENDING_LIFETIME).isBefore(now));
    if (pending.size() >= MAX_PENDING) {
      pending.clear();
    }
    CodeVerifier codeVerifier = new CodeVerifier();
    Nonce nonce = new Nonce();
    State state = new State();
    String landing = ReturnPath.landing(returnTo);
    pending.put(state.getValue(), new Pending(codeVerifier, nonce, landing, now));
    AuthenticationRequest request = new AuthenticationRequest.Builder(ResponseType.CODE,
        new Scope(settings.scopes().toArray(String[]::new)), new ClientID(settings.clientId()), settings.redirectUri())
        .endpointURI(endpoints.authorization())
        .state(state)
        .nonce(nonce)
        .codeChallenge(codeVerifier, CodeChallengeMethod.S256)
        .build();
    return new Started(request.toURI(), state.getValue());
  }

  /**
   * @param browserState the state the browser's login cookie carries: a callback not started by this browser fails
   */
  public Completed complete(String code, String state, Optional<String> browserState) throws LoginFailed {
    if (state == null || code == null) {
      throw new LoginFailed("the provider's answer has no code or state", null);
    }
    if (browserState.isEmpty() || !browserState.get().equals(state)) {
      throw new LoginFailed("this login was not started by this browser (state does not match its cookie)", null);
    }
    Pending started = pending.remove(state);
    if (started == null || started.startedAt().plus(PENDING_LIFETIME).isBefore(clock.instant())) {
      throw new LoginFailed("the login expired or was already used; start it again", null);
    }
    try {
      AuthorizationCodeGrant grant = new AuthorizationCodeGrant(new AuthorizationCode(code), settings.redirectUri(),
          started.verifier());
      TokenRequest request = settings.clientSecretFile().isPresent()
          ? new TokenRequest(endpoints.token(), new ClientSecretBasic(new ClientID(settings.clientId()),
              new Secret(Files.readString(settings.clientSecretFile().get(), StandardCharsets.UTF_8).trim())), grant)
          : new TokenRequest(endpoints.token(), new ClientID(settings.clientId()), grant);
      TokenResponse response = OIDCTokenResponseParser.parse(request.toHTTPRequest().send());
      if (!response.indicatesSuccess()) {
        var error = response.toErrorResponse().getErrorObject();
        throw new LoginFailed("the provider refused the code: " + error.getCode()
            + (error.getDescription() == null ? "" : " (" + error.getDescription() + ")"), null);
      }
      String idToken = ((OIDCTokenResponse) response.toSuccessResponse()).getOIDCTokens().getIDTokenString();
      Caller caller = verifier.verify(idToken);
      var claims = JWTParser.parse(idToken).getJWTClaimsSet();
      if (!started.nonce().getValue().equals(claims.getStringClaim("nonce"))) {
        throw new LoginFailed("the ID token's nonce is not this login's", null);
      }
      Date expiry = claims.getExpirationTime();
      // checked again where it is used, so no other path into Pending can bring an unchecked Location
      return new Completed(caller, expiry.toInstant(), ReturnPath.landing(started.returnTo()), idToken);
    } catch (BearerTokenVerifier.Refused e) {
      throw new LoginFailed("the provider's ID token was refused: " + e.getMessage(), e);
    } catch (IOException | ParseException | java.text.ParseException e) {
      throw new LoginFailed("the code could not be exchanged at " + endpoints.token() + ": " + e.getMessage(), e);
    }
  }
}
