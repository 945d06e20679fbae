package dev.varroa.bundle;

import java.util.List;
import java.util.Set;

/**
 * Everything a render needs and nothing else: no client, clock or network.
 *
 * @param bundleName the ComposedBundle's name, for messages
 * @param inputs the resolved inputs in spec order
 * @param profile the JenkinsVersionProfile in force
 * @param secrets names of secret variables declared by the ComposedBundle or the Controller
 * @param environment names of variables the operator sets in the Jenkins environment
 */
public record RenderRequest(String bundleName, List<ResolvedInput> inputs, VersionProfile profile, Set<String> secrets,
    Set<String> environment) {
  public RenderRequest {
    inputs = List.copyOf(inputs);
    secrets = Set.copyOf(secrets);
    environment = Set.copyOf(environment);
  }
}
