package dev.varroa.testfixtures.git;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Which served repositories demand basic auth, and with which credentials. */
final class RepositoryCredentials {

    private final Map<String, BasicCredentials> byRepository = new ConcurrentHashMap<>();

    void require(String repository, BasicCredentials credentials) {
        byRepository.put(repository, credentials);
    }

    Optional<BasicCredentials> requiredFor(String repository) {
        return Optional.ofNullable(byRepository.get(repository));
    }
}
