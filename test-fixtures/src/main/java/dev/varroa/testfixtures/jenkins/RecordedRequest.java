package dev.varroa.testfixtures.jenkins;

/**
 * One request the {@link JenkinsFixture} answered, recorded before the response was written so a test that has the
 * response also sees the record.
 *
 * @param method HTTP method
 * @param path request path without the query string
 * @param caller who the request authenticated as
 * @param status the status the fixture answered
 */
public record RecordedRequest(String method, String path, Caller caller, int status) {
}
