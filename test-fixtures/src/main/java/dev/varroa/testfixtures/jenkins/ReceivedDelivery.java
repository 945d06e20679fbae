package dev.varroa.testfixtures.jenkins;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A request the {@link JenkinsFixture} took as a webhook delivery: a POST to a path that is none of the Jenkins APIs
 * the fixture models (e.g. {@code /github-webhook/}), answered 200.
 *
 * @param method  HTTP method
 * @param path    request path without the query string
 * @param query   the raw query string, or null
 * @param headers header values by lower-case name, in arrival order per name
 * @param body    the body, byte for byte
 * @param caller  who the request authenticated as (a replayed delivery comes without the mite's bearer: ANONYMOUS)
 */
public record ReceivedDelivery(String method, String path, String query, Map<String, List<String>> headers,
                               byte[] body, Caller caller) {

    /** The first value of a header, looked up by name in any case. */
    public Optional<String> header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
