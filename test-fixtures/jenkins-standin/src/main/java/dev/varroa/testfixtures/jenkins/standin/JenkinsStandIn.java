package dev.varroa.testfixtures.jenkins.standin;

import dev.varroa.plugin.PluginCore;
import dev.varroa.plugin.auth.JenkinsTokenVerifier;
import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.time.Clock;
import java.util.Optional;

/**
 * The Jenkins container of a Controller's pod when Jenkins cannot be fetched: the {@link JenkinsFixture} on the
 * container's port (0.0.0.0:8080) on JENKINS_HOME, with the plugin core's {@link JenkinsTokenVerifier} as its bearer
 * check (the key file and controller identity the operator renders), the configuration-as-code folder it names,
 * the plugin core sending to the mite's loopback listener, and builds played through that core
 * ({@link StandInRoutes}). It boots as Jenkins does: every path answers 503 until the boot's configuration-as-code
 * apply is done; a broken configuration leaves it in the boot failure, as ConfigurationAsCodeBootFailure does.
 * A safe restart (POST /safeRestart) runs as the fixture's, its boot applying configuration-as-code again. Every job
 * name is defined (the stand-in has no job-dsl): {@code POST /job/<a>/job/<b>/build} or {@code buildWithParameters}
 * plays a run of that job as {@code POST /varroa-standin/builds} does, its RunQueued carrying the queue id the
 * answer's Location names ({@link PlayedBuilds#startRequested}).
 */
public final class JenkinsStandIn implements AutoCloseable {

    private final JenkinsFixture jenkins;
    private final PluginCore core;
    private final PlayedBuilds builds;

    private JenkinsStandIn(JenkinsFixture jenkins, PluginCore core, PlayedBuilds builds) {
        this.jenkins = jenkins;
        this.core = core;
        this.builds = builds;
    }

    public static JenkinsStandIn start(StandInSettings settings) throws IOException, InterruptedException {
        // the key file and identity are read first: a pod rendered without them fails here, naming the variable
        JenkinsTokenVerifier verifier = JenkinsTokenVerifier.fromEnvironment(settings.environment(), Clock.systemUTC());
        Files.createDirectories(settings.jenkinsHome());
        JenkinsFixture jenkins = JenkinsFixture.start(settings.version(), settings.jenkinsHome(), settings.bindAddress());
        PluginCore core = null;
        PlayedBuilds builds = null;
        try {
            jenkins.booting();
            jenkins.restartTimings(settings.restartPhase(), settings.restartPhase(), settings.restartPhase());
            jenkins.headerOnEveryAnswer(StandInBanner.HEADER, StandInBanner.HEADER_VALUE);
            PlayedBuilds.log("event=jenkins_standin_starting stand_in=true url=" + jenkins.url() + " bind="
                    + settings.bindAddress() + " controller=" + settings.controller() + " jenkins_home="
                    + settings.jenkinsHome() + " version=" + settings.version() + " message=\"" + StandInBanner.WHAT + "\"");
            jenkins.bearerTokenAccepted(token -> verifier.verify(token).accepted());
            settings.cascConfig().ifPresent(jenkins::cascDirectory);
            settings.cascReloadToken().ifPresent(jenkins::cascReloadToken);
            AppliedConfigurationLog configurations = new AppliedConfigurationLog(settings.jenkinsHome());
            jenkins.onConfigurationApplied(configurations::append);
            core = PluginCore.start(PluginSettings.fromEnvironment(settings.environment()), settings.jenkinsHome(),
                    Clock.systemUTC());
            builds = PlayedBuilds.open(jenkins, core, settings.jenkinsHome());
            // no job-dsl here: every job name is a job, and a build request plays a run of it
            jenkins.everyJobDefined();
            jenkins.onBuildRequested(builds::startRequested);
            jenkins.serve(StandInRoutes.PREFIX, new StandInRoutes(jenkins, core, builds, configurations, settings));
            Optional<String> failure = jenkins.configureAtBoot();
            if (failure.isPresent()) {
                PlayedBuilds.log("event=jenkins_standin_boot_failed stand_in=true error=\"" + failure.get()
                        + "\" message=\"configuration-as-code failed at boot: every path answers 503 until the pod restarts"
                        + " with a configuration that applies\"");
            } else {
                jenkins.ready();
                PlayedBuilds.log("event=jenkins_standin_ready stand_in=true url=" + jenkins.url() + " agents="
                        + jenkins.agents().size() + " runs=" + builds.runs().size());
            }
            return new JenkinsStandIn(jenkins, core, builds);
        } catch (IOException | InterruptedException | RuntimeException e) {
            if (builds != null) {
                builds.close();
            }
            if (core != null) {
                closeQuietly(core);
            }
            jenkins.close();
            throw e;
        }
    }

    /** {@code http://127.0.0.1:<port>/} when it listens on every address. */
    public URI url() {
        return jenkins.url();
    }

    /** The fixture inside, for tests that look at what the mite did to it. */
    public JenkinsFixture jenkins() {
        return jenkins;
    }

    /** Stops as a killed Jenkins would leave things: a playing run stays unfinished until the next start. */
    @Override
    public void close() throws IOException, InterruptedException {
        builds.close();
        try {
            core.close();
        } finally {
            jenkins.close();
        }
    }

    private static void closeQuietly(PluginCore core) {
        try {
            core.close();
        } catch (IOException | InterruptedException | RuntimeException e) {
            // the start already failed; its exception is the one the caller needs
            PlayedBuilds.log("event=jenkins_standin_close_failed error=\"" + e + "\"");
        }
    }
}
