package dev.varroa.testfixtures.jenkins;

import java.time.Instant;
import java.util.List;

/**
 * A configuration-as-code run that succeeded: what it read, in the order ConfigurationAsCode#configs sorts files.
 *
 * @param trigger the route that asked for it: {@code /configuration-as-code/reload},
 *                {@code /reload-configuration-as-code/} or {@code /configuration-as-code/apply}
 * @param appliedAt when the run finished
 * @param sources every YAML document the run read
 */
public record AppliedConfiguration(String trigger, Instant appliedAt, List<ConfigurationSource> sources) {

    public AppliedConfiguration {
        sources = List.copyOf(sources);
    }
}
