package dev.varroa.bundle.compose;

import dev.varroa.api.v1alpha1.BundleInput;
import dev.varroa.bundle.VersionProfile;
import java.util.List;
import java.util.Set;

/**
 * One ComposedBundle to compose.
 *
 * @param key identifies the bundle across calls for memo and last good render, e.g. namespace/name
 * @param bundleName the ComposedBundle's name, for messages
 * @param inputs spec.inputs in order
 * @param profile the JenkinsVersionProfile in force
 * @param secrets declared secret variable names
 * @param environment variables the operator sets in the Jenkins environment
 */
public record ComposeRequest(String key, String bundleName, List<BundleInput> inputs, VersionProfile profile,
    Set<String> secrets, Set<String> environment) {
  public ComposeRequest {
    inputs = List.copyOf(inputs);
    secrets = Set.copyOf(secrets);
    environment = Set.copyOf(environment);
  }
}
