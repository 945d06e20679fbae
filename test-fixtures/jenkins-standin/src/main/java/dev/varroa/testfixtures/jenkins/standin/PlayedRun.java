package dev.varroa.testfixtures.jenkins.standin;

/**
 * A build the stand-in played through the plugin core, as its status route shows it.
 *
 * @param runId the plugin's run id (the key of its events and console log at the mite)
 * @param job the job's full name
 * @param number the build number
 * @param state {@code running}, {@code finished}, or {@code aborted} (interrupted by a stop, finished at the next start)
 * @param result Jenkins' result once the run completed, else empty
 * @param logBytes bytes written to the run's console log so far
 */
public record PlayedRun(String runId, String job, int number, String state, String result, long logBytes) {

    public static final String RUNNING = "running";
    public static final String FINISHED = "finished";
    public static final String ABORTED = "aborted";

    PlayedRun with(String newState, String newResult, long newLogBytes) {
        return new PlayedRun(runId, job, number, newState, newResult, newLogBytes);
    }
}
