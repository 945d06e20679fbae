package dev.varroa.operator.render.resolve;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How people sign in to every Controller's Jenkins: the OpenID provider the operator is configured with
 * (chart: {@code jenkinsLogin.*}), rendered as the oic-auth security realm next to the JenkinsRoleBindings.
 * Jenkins signs in as a public client with PKCE: every tenant's Jenkins admin can read what the realm holds, so it
 * holds no client secret (a shared one would let any tenant act as every tenant's Jenkins at the provider).
 *
 * @param issuer the provider's issuer URL, or its well-known configuration URL
 * @param clientId the public OIDC client Jenkins signs in with
 * @param usernameClaim the claim Jenkins takes as the user name (JenkinsRoleBinding subjects of kind User)
 * @param groupsClaim the claim Jenkins takes the groups from (subjects of kind Group)
 * @param scopes the scopes Jenkins asks for, space-separated
 */
public record JenkinsLogin(String issuer, String clientId, String usernameClaim, String groupsClaim, String scopes) {
  public static final String ENV_ISSUER = "VARROA_JENKINS_OIDC_ISSUER";
  public static final String ENV_CLIENT_ID = "VARROA_JENKINS_OIDC_CLIENT_ID";
  public static final String ENV_USERNAME_CLAIM = "VARROA_JENKINS_OIDC_USERNAME_CLAIM";
  public static final String ENV_GROUPS_CLAIM = "VARROA_JENKINS_OIDC_GROUPS_CLAIM";
  public static final String ENV_SCOPES = "VARROA_JENKINS_OIDC_SCOPES";
  /** Named the confidential client's Secret before issue 24; set now, the operator refuses to start. */
  static final List<String> RETIRED_SECRET_VARIABLES = List.of("VARROA_JENKINS_OIDC_CLIENT_SECRET_NAME",
      "VARROA_JENKINS_OIDC_CLIENT_SECRET_KEY");
  public static final String DEFAULT_CLIENT_ID = "varroa-jenkins";
  /** The same claims the dashboard reads (VARROA_OIDC_USERNAME_CLAIM, VARROA_OIDC_GROUPS_CLAIM), so subjects mean one thing. */
  public static final String DEFAULT_USERNAME_CLAIM = "email";
  public static final String DEFAULT_GROUPS_CLAIM = "groups";
  public static final String DEFAULT_SCOPES = "openid profile email groups";
  static final String WELL_KNOWN_PATH = "/.well-known/openid-configuration";

  public JenkinsLogin {
    URI parsed;
    try {
      parsed = URI.create(issuer);
    } catch (IllegalArgumentException e) {
      parsed = null;
    }
    if (parsed == null || parsed.getHost() == null || !("https".equals(parsed.getScheme())
        || "http".equals(parsed.getScheme()))) {
      throw new IllegalArgumentException(ENV_ISSUER + " (chart value jenkinsLogin.issuer) is '" + issuer
          + "'; fix: give the OpenID provider's issuer URL, e.g. https://dex.example.com/dex");
    }
  }

  /**
   * The settings, or empty when no issuer is set: then Varroa renders no security realm. A variable that named the
   * old client secret is refused, so an installation never believes Jenkins still authenticates with one.
   */
  public static Optional<JenkinsLogin> fromEnv(Map<String, String> env) {
    for (String retired : RETIRED_SECRET_VARIABLES) {
      if (!value(env, retired, "").isEmpty()) {
        throw new IllegalArgumentException(retired + " is set, but Jenkins signs in as a public OIDC client with PKCE"
            + " and holds no client secret (every tenant's Jenkins admin could read it); fix: unset " + retired
            + " (chart: remove jenkinsLogin.clientSecret), make client " + value(env, ENV_CLIENT_ID, DEFAULT_CLIENT_ID)
            + " public at the provider, and delete the old secret there (docs/identity.md)");
      }
    }
    String issuer = value(env, ENV_ISSUER, "");
    if (issuer.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new JenkinsLogin(issuer, value(env, ENV_CLIENT_ID, DEFAULT_CLIENT_ID),
        value(env, ENV_USERNAME_CLAIM, DEFAULT_USERNAME_CLAIM), value(env, ENV_GROUPS_CLAIM, DEFAULT_GROUPS_CLAIM),
        value(env, ENV_SCOPES, DEFAULT_SCOPES)));
  }

  /** The provider's discovery document, which oic-auth reads its endpoints from. */
  public String wellKnownUrl() {
    String trimmed = issuer.replaceAll("/+$", "");
    return trimmed.endsWith(WELL_KNOWN_PATH) ? trimmed : trimmed + WELL_KNOWN_PATH;
  }

  private static String value(Map<String, String> env, String name, String fallback) {
    String value = env.getOrDefault(name, "").strip();
    return value.isEmpty() ? fallback : value;
  }
}
