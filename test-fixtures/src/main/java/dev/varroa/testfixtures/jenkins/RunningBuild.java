package dev.varroa.testfixtures.jenkins;

/**
 * A build the test started on the {@link JenkinsFixture}'s built-in node; it occupies its executor until
 * {@link #finish()}.
 */
public final class RunningBuild {

    private final JenkinsFixture fixture;
    private final String jobName;
    private final int number;
    private final boolean oneOff;
    private final long startedAtMillis;

    RunningBuild(JenkinsFixture fixture, String jobName, int number, boolean oneOff, long startedAtMillis) {
        this.fixture = fixture;
        this.jobName = jobName;
        this.number = number;
        this.oneOff = oneOff;
        this.startedAtMillis = startedAtMillis;
    }

    public String jobName() {
        return jobName;
    }

    public int number() {
        return number;
    }

    /** True for a flyweight task (a Pipeline run) on a OneOffExecutor, false for a build on a numbered executor. */
    public boolean oneOff() {
        return oneOff;
    }

    /** Run#getAbsoluteUrl: {@code <root>job/<name>/<number>/}. */
    public String url() {
        return fixture.url() + "job/" + jobName + "/" + number + "/";
    }

    long startedAtMillis() {
        return startedAtMillis;
    }

    /** Frees the executor; calling it again does nothing. */
    public void finish() {
        fixture.finish(this);
    }

    @Override
    public String toString() {
        return jobName + " #" + number + (oneOff ? " (one-off executor)" : "");
    }
}
