package dev.varroa.testfixtures.jenkins;

/** Who a request to the {@link JenkinsFixture} authenticated as, decided before any route runs. */
public enum Caller {
    /** No credentials: Jenkins' anonymous user, which this fixture grants nothing beyond the always-readable paths. */
    ANONYMOUS,
    /** A bearer token the fixture's verifier accepted; acts as {@value JenkinsFixture#VERIFIED_BEARER_USER}, an administrator. */
    VERIFIED_BEARER,
    /** Credentials that were presented and refused (a rejected bearer, or any Basic header); answered 401. */
    REJECTED_CREDENTIALS
}
