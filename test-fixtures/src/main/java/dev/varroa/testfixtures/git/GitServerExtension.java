package dev.varroa.testfixtures.git;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;

/**
 * Gives each test class a {@link GitServer}: bare JGit repositories in a throwaway directory, served as
 * {@code file://} and over smart HTTP (JGit's GitServlet in Jetty) on a free loopback port.
 *
 * <p>Use {@code @ExtendWith(GitServerExtension.class)} and take a {@link GitServer} parameter, or keep
 * it in a {@code static @RegisterExtension} field and call {@link #server()}.
 */
public final class GitServerExtension extends ClassScopedFixtureExtension<GitServer> {

    public GitServerExtension() {
        super(GitServer.class, "Git server");
    }

    @Override
    protected Running<GitServer> start() throws Exception {
        return GitHttpServer.start();
    }

    /** The Git server started for the current test class. */
    public GitServer server() {
        return current();
    }
}
