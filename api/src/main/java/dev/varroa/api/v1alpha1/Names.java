package dev.varroa.api.v1alpha1;

/** Validation patterns shared by the CRD schemas. */
public final class Names {
  public static final String GROUP = "varroa.dev";
  public static final String VERSION = "v1alpha1";
  public static final String API_VERSION = GROUP + "/" + VERSION;

  /** A Kubernetes object name: lower-case alphanumerics, '-' and '.', starting and ending alphanumeric. */
  public static final String DNS1123_SUBDOMAIN =
      "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";

  /** A namespace name or label: lower-case alphanumerics and '-', at most 63 characters. */
  public static final String DNS1123_LABEL = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";

  /** A variable usable as ${NAME} in JCasC. */
  public static final String VARIABLE_NAME = "^[A-Za-z_][A-Za-z0-9_]*$";

  /** A Go-style duration such as 30s, 5m or 1h30m, as Flux writes intervals. */
  public static final String DURATION = "^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$";

  /** A Kubernetes resource quantity such as 20Gi or 500M. */
  public static final String QUANTITY = "^[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$";

  private Names() {}
}
