package dev.varroa.testfixtures.jenkins.standin;

/** How the stand-in says it is not Jenkins: on every HTTP answer, in its page title and in its first log line. */
final class StandInBanner {

    /** On every answer, Jenkins' routes included. */
    static final String HEADER = "X-Varroa-Stand-In";
    static final String HEADER_VALUE = "jenkins-contract-fixture";
    static final String TITLE = "Varroa Jenkins stand-in (not Jenkins)";
    static final String WHAT = "This is NOT Jenkins: a test image built from Varroa's Jenkins contract fixture"
            + " (test-fixtures JenkinsFixture) and the Varroa plugin core, because Jenkins cannot be fetched where Varroa"
            + " is tested. It answers the endpoints the mite calls as Jenkins does and plays builds through the plugin"
            + " core; it runs no job.";

    private StandInBanner() {
    }
}
