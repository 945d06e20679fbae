package dev.varroa.testfixtures.jenkins.standin;

import java.util.concurrent.CountDownLatch;

/**
 * The Jenkins stand-in image's entrypoint: {@link JenkinsStandIn} with the container's environment, until SIGTERM
 * (the kubelet's stop, after the preStop drain). {@code --version} prints the image's name and version.
 */
public final class JenkinsStandInMain {

    private JenkinsStandInMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("--version")) {
            System.out.println("varroa-jenkins-standin " + version());
            return;
        }
        if (args.length > 0) {
            System.err.println("jenkins-standin: takes no arguments (it reads the Jenkins container's environment);"
                    + " got " + String.join(" ", args));
            System.exit(2);
        }
        JenkinsStandIn standIn;
        try {
            standIn = JenkinsStandIn.start(StandInSettings.fromEnvironment(System.getenv()));
        } catch (IllegalStateException | IllegalArgumentException e) {
            System.err.println("event=jenkins_standin_refused_to_start stand_in=true error=\"" + e.getMessage() + "\"");
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            PlayedBuilds.log("event=jenkins_standin_stopping stand_in=true");
            try {
                standIn.close();
            } catch (Exception e) {
                System.err.println("event=jenkins_standin_stop_failed error=\"" + e + "\"");
            } finally {
                stopped.countDown();
            }
        }, "jenkins-standin-stop"));
        stopped.await();
    }

    // the project version Maven wrote into standin.properties, without -SNAPSHOT, as the image's tag
    private static String version() throws java.io.IOException {
        java.util.Properties properties = new java.util.Properties();
        try (java.io.InputStream in = JenkinsStandInMain.class.getResourceAsStream("standin.properties")) {
            if (in == null) {
                throw new java.io.IOException("standin.properties is missing from the classpath: build the module with Maven");
            }
            properties.load(in);
        }
        return properties.getProperty("version").replace("-SNAPSHOT", "");
    }
}
