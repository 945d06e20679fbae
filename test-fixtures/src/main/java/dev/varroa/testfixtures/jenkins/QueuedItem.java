package dev.varroa.testfixtures.jenkins;

/**
 * An item the test put in the {@link JenkinsFixture}'s build queue (a hudson.model.Queue$BuildableItem waiting for an
 * executor); it stays in {@code queue/api/json} until {@link #leave()}.
 */
public final class QueuedItem {

    private final JenkinsFixture fixture;
    private final long id;
    private final String jobName;
    private final long inQueueSinceMillis;

    QueuedItem(JenkinsFixture fixture, long id, String jobName, long inQueueSinceMillis) {
        this.fixture = fixture;
        this.id = id;
        this.jobName = jobName;
        this.inQueueSinceMillis = inQueueSinceMillis;
    }

    /** Queue.Item#getId: unique within this Jenkins, counting from 1. */
    public long id() {
        return id;
    }

    public String jobName() {
        return jobName;
    }

    long inQueueSinceMillis() {
        return inQueueSinceMillis;
    }

    /** The item leaves the queue (it started or was cancelled); calling it again does nothing. */
    public void leave() {
        fixture.leaveQueue(this);
    }

    @Override
    public String toString() {
        return "queue item " + id + " (" + jobName + ")";
    }
}
