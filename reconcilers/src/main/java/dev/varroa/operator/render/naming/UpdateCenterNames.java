package dev.varroa.operator.render.naming;

/**
 * Names of what the operator runs for a managed UpdateCenter, in its own namespace. The Deployment,
 * Service and claim are {@code varroa-uc-<name>}; a name that would not fit a Service (63
 * characters, no dots) is shortened with a hash of the whole name.
 *
 * @param wantedConfigMap the plugins.txt of every locked plugin version the update center must hold
 * @param signingSecret the operator-made signing CA and key, when spec.managed.signingSecretRef is omitted
 */
public record UpdateCenterNames(String deployment, String service, String claim, String wantedConfigMap,
    String signingSecret) {
  public static final String PREFIX = "varroa-uc-";
  public static final String WANTED_SUFFIX = "-wanted";
  public static final String SIGNING_SUFFIX = "-signing";
  /** A Service name is a DNS-1035 label. */
  static final int MAX_BASE_LENGTH = 63;
  private static final int HASH_CHARS = 8;

  public static UpdateCenterNames of(String updateCenterName) {
    String base = PREFIX + updateCenterName.replace('.', '-');
    if (base.length() > MAX_BASE_LENGTH) {
      base = base.substring(0, MAX_BASE_LENGTH - HASH_CHARS - 1).replaceAll("-+$", "") + "-"
          + ControllerLabels.sha256(updateCenterName).substring(0, HASH_CHARS);
    }
    return new UpdateCenterNames(base, base, base, base + WANTED_SUFFIX, base + SIGNING_SUFFIX);
  }

  /** {@code <service>.<namespace>.svc}. */
  public String serviceHost(String namespace) {
    return service + "." + namespace + ".svc";
  }

  /** Where controllers reach the update center: its Service on port 80. */
  public String baseUrl(String namespace) {
    return "http://" + serviceHost(namespace);
  }
}
