package dev.varroa.plugin.auth;

/**
 * Decides whether a POST may skip Jenkins' crumb check: only when it carries a bearer token that
 * {@link JenkinsTokenVerifier} accepts. A crumb protects cookie sessions from cross-site requests; a
 * verified bearer token cannot come from a browser's ambient credentials, so it needs none. Jenkins'
 * {@code CrumbExclusion} glue passes the request's {@code Authorization} header here.
 */
public final class BearerCrumbExclusion {

  private final JenkinsTokenVerifier verifier;

  public BearerCrumbExclusion(JenkinsTokenVerifier verifier) {
    this.verifier = verifier;
  }

  /** True only when the header holds a bearer token that verifies; absent, other schemes and refused tokens are false. */
  public boolean exempts(String authorizationHeader) {
    return BearerCredentials.fromAuthorizationHeader(authorizationHeader)
        .map(credentials -> verifier.verify(credentials.token()).accepted())
        .orElse(false);
  }
}
