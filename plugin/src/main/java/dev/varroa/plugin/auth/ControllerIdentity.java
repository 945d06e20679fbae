package dev.varroa.plugin.auth;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The controller this Jenkins is, as the operator names it in the token's audience:
 * {@code spiffe://varroa.dev/ns/<namespace>/controller/<name>/uid/<uid>}. Mirrors
 * {@code dev.varroa.protocol.ControllerIdentity}; the core does not depend on protocol so that gRPC,
 * protobuf and NATS stay out of Jenkins.
 */
public record ControllerIdentity(String namespace, String name, String uid) {

  public static final String TRUST_DOMAIN = "varroa.dev";
  public static final String NAMESPACE_VARIABLE = "VARROA_CONTROLLER_NAMESPACE";
  public static final String NAME_VARIABLE = "VARROA_CONTROLLER_NAME";
  public static final String UID_VARIABLE = "VARROA_CONTROLLER_UID";

  // The same segment shapes dev.varroa.protocol.ControllerIdentity parses.
  private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9-]+");
  private static final Pattern NAME = Pattern.compile("[a-z0-9.-]+");
  private static final Pattern UID = Pattern.compile("[A-Za-z0-9-]+");

  public ControllerIdentity {
    requireSegment("namespace", namespace, NAMESPACE);
    requireSegment("name", name, NAME);
    requireSegment("uid", uid, UID);
  }

  /** Reads the identity the operator sets on the Jenkins container; fails naming the missing variable. */
  public static ControllerIdentity fromEnvironment(Map<String, String> env) {
    return new ControllerIdentity(
        required(env, NAMESPACE_VARIABLE), required(env, NAME_VARIABLE), required(env, UID_VARIABLE));
  }

  /** The controller's identity URI: the token audience and the mite certificate's URI SAN. */
  public String uri() {
    return "spiffe://" + TRUST_DOMAIN + "/ns/" + namespace + "/controller/" + name + "/uid/" + uid;
  }

  private static String required(Map<String, String> env, String variable) {
    String value = env.get(variable);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(variable + " is not set on the Jenkins container; the operator sets it"
          + " from the Controller's metadata, so check that the pod was rendered by a current operator");
    }
    return value.strip();
  }

  private static void requireSegment(String field, String value, Pattern shape) {
    Objects.requireNonNull(value, field);
    if (!shape.matcher(value).matches()) {
      throw new IllegalArgumentException("controller " + field + " '" + value + "' does not match "
          + shape.pattern() + ", so it cannot be part of " + "spiffe://" + TRUST_DOMAIN + "/ns/<namespace>/controller/<name>/uid/<uid>");
    }
  }
}
