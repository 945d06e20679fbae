package dev.varroa.testfixtures.jenkins;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An item in the {@link JenkinsFixture}'s build queue (a hudson.model.Queue$BuildableItem waiting for an executor):
 * put there by the test ({@link JenkinsFixture#enqueue(String)}) or by a build request to a defined job; it stays in
 * {@code queue/api/json} until {@link #leave()}.
 */
public final class QueuedItem {

    private final JenkinsFixture fixture;
    private final long id;
    private final String jobName;
    private final Map<String, String> parameters;
    private final long inQueueSinceMillis;

    QueuedItem(JenkinsFixture fixture, long id, String jobName, Map<String, String> parameters, long inQueueSinceMillis) {
        this.fixture = fixture;
        this.id = id;
        this.jobName = jobName;
        this.parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
        this.inQueueSinceMillis = inQueueSinceMillis;
    }

    /** Queue.Item#getId: unique within this Jenkins, counting from 1. */
    public long id() {
        return id;
    }

    /** The job's full name, folders separated by "/". */
    public String jobName() {
        return jobName;
    }

    /** The build's parameter values (ParametersAction), in the job's definition order; empty for an unparameterized build. */
    public Map<String, String> parameters() {
        return parameters;
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
