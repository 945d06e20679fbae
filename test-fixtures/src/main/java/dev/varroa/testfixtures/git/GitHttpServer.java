package dev.varroa.testfixtures.git;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;
import jakarta.servlet.DispatcherType;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jgit.http.server.GitServlet;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.transport.ReceivePack;
import org.eclipse.jgit.transport.resolver.FileResolver;

import java.net.URI;
import java.nio.file.Path;
import java.util.EnumSet;

/** An embedded Jetty serving JGit's smart HTTP protocol for a {@link GitServer}'s repositories. */
public final class GitHttpServer implements ClassScopedFixtureExtension.Running<GitServer> {

    private static final String SERVLET_PATH = "/git/*";

    private final GitServer gitServer;
    private final Server jetty;
    private final ThrowawayDirectory directory;

    private GitHttpServer(GitServer gitServer, Server jetty, ThrowawayDirectory directory) {
        this.gitServer = gitServer;
        this.jetty = jetty;
        this.directory = directory;
    }

    /** Starts Jetty on a free loopback port, serving an empty throwaway directory of repositories. */
    public static GitHttpServer start() throws Exception {
        ThrowawayDirectory directory = ThrowawayDirectory.create("varroa-git-");
        RepositoryCredentials credentials = new RepositoryCredentials();
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost(LoopbackPort.HOST);
        connector.setPort(0);
        jetty.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler("/");
        context.addFilter(new FilterHolder(new BasicAuthFilter(credentials)), SERVLET_PATH,
                EnumSet.of(DispatcherType.REQUEST));
        context.addServlet(new ServletHolder(gitServlet(directory.path())), SERVLET_PATH);
        jetty.setHandler(context);
        try {
            jetty.start();
        } catch (Exception e) {
            stopAfterFailedStart(jetty, directory, e);
            throw e;
        }
        URI httpBase = URI.create("http://" + LoopbackPort.HOST + ":" + connector.getLocalPort() + "/git/");
        return new GitHttpServer(new GitServer(directory.path(), httpBase, credentials), jetty, directory);
    }

    private static GitServlet gitServlet(Path root) {
        GitServlet servlet = new GitServlet();
        servlet.setRepositoryResolver(new FileResolver<>(root.toFile(), true));
        // JGit's default factory refuses anonymous pushes; tests push without credentials too.
        servlet.setReceivePackFactory((request, repository) -> {
            String user = request.getRemoteUser() == null ? "anonymous" : request.getRemoteUser();
            ReceivePack receivePack = new ReceivePack(repository);
            receivePack.setRefLogIdent(new PersonIdent(user, user + "@varroa.test"));
            return receivePack;
        });
        return servlet;
    }

    private static void stopAfterFailedStart(Server jetty, ThrowawayDirectory directory, Exception cause) {
        try {
            jetty.stop();
            directory.close();
        } catch (Exception stopFailure) {
            cause.addSuppressed(stopFailure);
        }
    }

    @Override
    public GitServer value() {
        return gitServer;
    }

    @Override
    public void close() throws Exception {
        jetty.stop();
        directory.close();
    }

    @Override
    public String toString() {
        return gitServer.toString();
    }
}
