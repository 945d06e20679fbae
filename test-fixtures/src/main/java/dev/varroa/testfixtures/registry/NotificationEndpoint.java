package dev.varroa.testfixtures.registry;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One entry of the registry's {@code notifications.endpoints}: where it POSTs its event envelopes and
 * the headers it adds to each (a header may repeat, hence the list), as the distribution config takes them.
 *
 * @param name the endpoint's name in the registry's log
 * @param url where the envelopes go, e.g. {@code http://127.0.0.1:8082/hooks/registry}
 * @param headers header name to values, e.g. {@code Authorization: [Bearer s3cret]}
 */
public record NotificationEndpoint(String name, URI url, Map<String, List<String>> headers) {

    public NotificationEndpoint {
        headers = new TreeMap<>(headers);
    }

    /** An endpoint that proves itself with {@code Authorization: Bearer <token>}. */
    public static NotificationEndpoint withBearer(String name, URI url, String token) {
        return new NotificationEndpoint(name, url, Map.of("Authorization", List.of("Bearer " + token)));
    }
}
