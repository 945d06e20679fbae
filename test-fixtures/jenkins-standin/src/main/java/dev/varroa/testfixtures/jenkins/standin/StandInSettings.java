package dev.varroa.testfixtures.jenkins.standin;

import dev.varroa.testfixtures.jenkins.JenkinsFixture;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What the stand-in reads from the Jenkins container's environment, the variables the operator renders
 * (reconcilers' JenkinsContainer#env) plus a few of its own, all optional.
 *
 * @param jenkinsHome JENKINS_HOME: agents, secrets, the plugin's spool and log copies, the runs' logs
 * @param cascConfig CASC_JENKINS_CONFIG: the folder (or file) configuration-as-code reads, if set
 * @param cascReloadToken CASC_RELOAD_TOKEN: enables {@code /reload-configuration-as-code/}, if set
 * @param bindAddress where it listens: {@value #BIND_HOST_VARIABLE} (default 0.0.0.0) and
 *                    {@value #HTTP_PORT_VARIABLE} (default 8080, Jenkins' port the probes and the Service name)
 * @param version what X-Jenkins reports: {@value #VERSION_VARIABLE}, else the fixture's default
 * @param controller {@code <namespace>/<name>} from CONTROLLER_NAMESPACE and CONTROLLER_NAME, for the logs and pages
 * @param restartPhase how long each phase of a safe restart lasts (503 restarting, port closed, 503 booting):
 *                     {@value #RESTART_PHASE_VARIABLE} in milliseconds, else the fixture's default
 * @param environment the whole environment, for the plugin core's settings and the token verifier
 */
public record StandInSettings(Path jenkinsHome, Optional<Path> cascConfig, Optional<String> cascReloadToken,
                              InetSocketAddress bindAddress, String version, String controller,
                              Duration restartPhase, Map<String, String> environment) {

    public static final String BIND_HOST_VARIABLE = "VARROA_STANDIN_BIND_HOST";
    public static final String HTTP_PORT_VARIABLE = "VARROA_STANDIN_HTTP_PORT";
    public static final String VERSION_VARIABLE = "VARROA_STANDIN_JENKINS_VERSION";
    public static final String RESTART_PHASE_VARIABLE = "VARROA_STANDIN_RESTART_PHASE_MILLIS";
    /** Jenkins' HTTP port, which the operator's probes, Service and mite use (JenkinsContainer.HTTP_PORT). */
    public static final int HTTP_PORT = 8080;
    /** Every address, as Jenkins' Winstone listens: the kubelet probes the pod IP and the Service points at it. */
    public static final String BIND_HOST = "0.0.0.0";

    public StandInSettings {
        environment = Map.copyOf(environment);
    }

    public static StandInSettings fromEnvironment(Map<String, String> env) {
        String home = env.get("JENKINS_HOME");
        if (home == null || home.isBlank()) {
            throw new IllegalStateException("JENKINS_HOME is not set on the Jenkins container; the operator sets it to the"
                    + " jenkins-home volume's mount (/var/jenkins_home): check the pod was rendered by a current operator,"
                    + " or set JENKINS_HOME to a writable folder when running the stand-in by hand");
        }
        String port = value(env, HTTP_PORT_VARIABLE).orElse(Integer.toString(HTTP_PORT));
        int portNumber;
        try {
            portNumber = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(HTTP_PORT_VARIABLE + "='" + port + "' is not a port number; unset it for "
                    + HTTP_PORT + " or set 0 for a free port");
        }
        Duration restartPhase = JenkinsFixture.DEFAULT_RESTART_PHASE;
        Optional<String> phase = value(env, RESTART_PHASE_VARIABLE);
        if (phase.isPresent()) {
            try {
                restartPhase = Duration.ofMillis(Long.parseLong(phase.get()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(RESTART_PHASE_VARIABLE + "='" + phase.get() + "' is not a number of "
                        + "milliseconds; unset it for " + JenkinsFixture.DEFAULT_RESTART_PHASE.toMillis() + " ms");
            }
            if (restartPhase.isNegative()) {
                throw new IllegalArgumentException(RESTART_PHASE_VARIABLE + "='" + phase.get() + "' is negative; give "
                        + "0 or more milliseconds");
            }
        }
        String controller = value(env, "CONTROLLER_NAMESPACE").orElse("-") + "/" + value(env, "CONTROLLER_NAME").orElse("-");
        return new StandInSettings(Path.of(home.strip()), value(env, "CASC_JENKINS_CONFIG").map(Path::of),
                value(env, "CASC_RELOAD_TOKEN"),
                new InetSocketAddress(value(env, BIND_HOST_VARIABLE).orElse(BIND_HOST), portNumber),
                value(env, VERSION_VARIABLE).orElse(JenkinsFixture.DEFAULT_VERSION), controller, restartPhase, env);
    }

    private static Optional<String> value(Map<String, String> env, String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }
}
