package dev.varroa.cli.bff;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.GeneralException;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.AuthenticationResponse;
import com.nimbusds.openid.connect.sdk.AuthenticationResponseParser;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import dev.varroa.cli.input.InvalidInputException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code varroactl login}: an OIDC ID token for the BFF, by authorization code with PKCE and a loopback redirect
 * (the provider and client come from the BFF's GET /auth/config), or taken from a file for CI; kept in config.json.
 */
@Command(name = "login", mixinStandardHelpOptions = true,
    description = {"Logs in to a Varroa BFF and keeps its server URL and your ID token in"
        + " ${XDG_CONFIG_HOME:-~/.config}/varroa/config.json (mode 600).",
        "Interactive: asks the BFF (GET /auth/config) for its OpenID provider and varroactl's public client, prints the"
            + " URL to open in a browser on stderr, and waits for the provider to redirect back to"
            + " http://localhost:PORT/callback (PKCE, no client secret).",
        "--token-file: stores an ID token you already have (CI). Either way the BFF is asked who you are before"
            + " anything is stored.",
        "Exit codes: 0 logged in, 1 the server, the provider or the network refused or failed, 2 invalid input"
            + " (unreadable token file, not a JWT, an expired token)."})
public final class LoginCommand implements Callable<Integer> {

  /** The loopback port varroactl's client is registered with (redirect http://localhost:8000/callback). */
  public static final int DEFAULT_LISTEN_PORT = 8000;
  /** How long the person has at the provider's login page. */
  static final Duration LOGIN_WAIT = Duration.ofMinutes(5);
  private static final List<String> DEFAULT_SCOPES = List.of("openid", "profile", "email", "groups");

  @Option(names = "--server", paramLabel = "URL",
      description = "The Varroa BFF (dashboard) URL; default: the server of the last login.")
  URI server;

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "Store the OIDC ID token in FILE instead of logging in interactively (for CI).")
  Path tokenFile;

  @Option(names = "--listen-port", paramLabel = "PORT",
      description = "Loopback port for the provider's redirect; default: ${DEFAULT-VALUE}.")
  int listenPort = DEFAULT_LISTEN_PORT;

  @Option(names = "--issuer", paramLabel = "URL",
      description = "Log in at this OpenID provider instead of the one the BFF names (e.g. when the BFF reaches it by"
          + " an in-cluster name).")
  URI issuer;

  @Option(names = "--client-id", paramLabel = "ID",
      description = "The provider's public client to log in with; default: the one the BFF names (varroactl).")
  String clientId;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    CommandEnvironment root = (CommandEnvironment) spec.root().userObject();
    ConfigFolder config = root.configFolder();
    URI target = server != null ? server : config.read().map(StoredLogin::server).orElseThrow(() ->
        new InvalidInputException("--server URL is required for the first login (the BFF's URL)"));
    StoredLogin login = tokenFile != null ? fromFile(target, root.clock().instant()) : interactive(target);
    JsonNode me = new BffClient(target, Optional.of(login.idToken())).json("/me", Map.of());
    config.write(login);
    PrintWriter out = spec.commandLine().getOut();
    out.println("Logged in to " + target + " as " + me.path("user").asText() + " (token expires at "
        + login.expiry() + ").");
    if (me.path("bindings").isEmpty()) {
      spec.commandLine().getErr().println("warning: no VarroaRoleBinding names " + me.path("user").asText()
          + " or their groups: every read will be refused until an admin binds a VarroaRole");
    }
    out.flush();
    return 0;
  }

  private StoredLogin fromFile(URI target, Instant now) {
    String token;
    try {
      token = Files.readString(tokenFile, StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new InvalidInputException("--token-file " + tokenFile + ": " + e.getMessage());
    }
    JWTClaimsSet claims;
    try {
      claims = JWTParser.parse(token).getJWTClaimsSet();
    } catch (java.text.ParseException e) {
      throw new InvalidInputException("--token-file " + tokenFile + ": not a JWT (" + e.getMessage()
          + "); fix: give the OIDC ID token (three base64url parts), not an access token");
    }
    if (claims.getExpirationTime() == null) {
      throw new InvalidInputException("--token-file " + tokenFile + ": the token has no exp claim");
    }
    Instant expiry = claims.getExpirationTime().toInstant();
    if (!now.isBefore(expiry)) {
      throw new InvalidInputException("--token-file " + tokenFile + ": the token expired at " + expiry
          + "; fix: get a fresh ID token");
    }
    return new StoredLogin(target, token, expiry, Optional.ofNullable(claims.getIssuer()).orElse(""));
  }

  private StoredLogin interactive(URI target) {
    JsonNode bff = new BffClient(target, Optional.empty()).json("/auth/config", Map.of());
    Issuer provider = new Issuer(issuer != null ? issuer.toString() : bff.path("issuer").asText());
    ClientID client = new ClientID(clientId != null ? clientId : bff.path("clientId").asText("varroactl"));
    List<String> scopes = new ArrayList<>();
    bff.path("scopes").forEach(s -> scopes.add(s.asText()));
    if (scopes.isEmpty()) {
      scopes.addAll(DEFAULT_SCOPES);
    }
    OIDCProviderMetadata metadata;
    try {
      metadata = OIDCProviderMetadata.resolve(provider);
    } catch (GeneralException | IOException e) {
      throw BffFailure.local("cannot read the OpenID provider's discovery document at " + provider + ": "
          + e.getMessage() + "; check the BFF's VARROA_OIDC_ISSUER or pass --issuer");
    }
    State state = new State();
    Nonce nonce = new Nonce();
    CodeVerifier verifier = new CodeVerifier();
    try (LoopbackCallback callback = LoopbackCallback.listen(listenPort, state.getValue())) {
      URI redirect = callback.redirectUri();
      AuthenticationRequest request = new AuthenticationRequest.Builder(ResponseType.CODE,
          new Scope(scopes.toArray(String[]::new)), client, redirect)
          .endpointURI(metadata.getAuthorizationEndpointURI())
          .state(state)
          .nonce(nonce)
          .codeChallenge(verifier, CodeChallengeMethod.S256)
          .build();
      PrintWriter err = spec.commandLine().getErr();
      err.println("Open this URL in a browser to log in:");
      err.println();
      err.println("    " + request.toURI());
      err.println();
      err.println("Waiting for the provider to send you back to " + redirect + " ...");
      err.flush();
      AuthenticationResponse answer = AuthenticationResponseParser.parse(callback.await(LOGIN_WAIT));
      if (!state.equals(answer.getState())) {
        throw BffFailure.local("the provider's answer carries another state: not this login's; run varroactl login"
            + " again");
      }
      if (!answer.indicatesSuccess()) {
        throw BffFailure.local("the provider ended the login: " + describe(answer.toErrorResponse().getErrorObject()));
      }
      TokenRequest exchange = new TokenRequest(metadata.getTokenEndpointURI(), client,
          new AuthorizationCodeGrant(answer.toSuccessResponse().getAuthorizationCode(), redirect, verifier));
      TokenResponse tokens = OIDCTokenResponseParser.parse(exchange.toHTTPRequest().send());
      if (!tokens.indicatesSuccess()) {
        throw BffFailure.local("the provider refused the code at " + metadata.getTokenEndpointURI() + ": "
            + describe(tokens.toErrorResponse().getErrorObject()));
      }
      JWT idToken = ((OIDCTokenResponse) tokens.toSuccessResponse()).getOIDCTokens().getIDToken();
      IDTokenClaimsSet claims = new IDTokenValidator(metadata.getIssuer(), client, signingAlgorithm(metadata),
          metadata.getJWKSetURI().toURL()).validate(idToken, nonce);
      return new StoredLogin(target, idToken.serialize(), claims.getExpirationTime().toInstant(),
          metadata.getIssuer().getValue());
    } catch (ParseException | IOException e) {
      throw BffFailure.local("the login with " + provider + " failed: " + e.getMessage());
    } catch (BadJOSEException | JOSEException e) {
      throw BffFailure.local("the provider's ID token did not pass the checks (signature, issuer, audience "
          + client + ", expiry, nonce): " + e.getMessage());
    }
  }

  private static JWSAlgorithm signingAlgorithm(OIDCProviderMetadata metadata) {
    List<JWSAlgorithm> algorithms = metadata.getIDTokenJWSAlgs();
    return algorithms == null || algorithms.isEmpty() ? JWSAlgorithm.RS256 : algorithms.get(0);
  }

  private static String describe(ErrorObject error) {
    return error.getCode() + (error.getDescription() == null ? "" : " (" + error.getDescription() + ")");
  }
}
