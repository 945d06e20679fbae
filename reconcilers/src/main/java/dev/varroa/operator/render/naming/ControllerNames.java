package dev.varroa.operator.render.naming;

/**
 * Names of the objects the operator owns for one Controller. Everything in the controller's own
 * namespace is named after the StatefulSet; the RoleBinding lives in the agents namespace,
 * which several Controllers may share, so they carry the StatefulSet name too.
 *
 * @param statefulSet {@code <name>-<uid8>}, see {@link StatefulSetName}
 * @param service the Service in front of Jenkins and the StatefulSet's serviceName
 * @param serviceAccount the Jenkins ServiceAccount (controller namespace)
 * @param ingress the optional Ingress
 * @param cascConfigMap the rendered JCasC; deliberately without the JCasC digest so a JCasC change leaves the pod alone
 * @param pluginsConfigMap plugins.txt for the plugins init container
 * @param agentsRole the Role in the agents namespace before issue 24 (no longer rendered: the RoleBinding
 *     references the chart's ClusterRole); kept so the names stay one record
 * @param agentsRoleBinding the RoleBinding in the agents namespace
 * @param channelConfigMap the CA and the token verification key (public material only)
 * @param miteTokenSecret the mite's single-use bootstrap token, minted by the operator, never rendered
 * @param updateCenterCaConfigMap the CA a managed UpdateCenter signs with, mounted as update-center-rootCAs/
 */
public record ControllerNames(String statefulSet, String service, String serviceAccount, String ingress,
    String cascConfigMap, String pluginsConfigMap, String agentsRole, String agentsRoleBinding,
    String channelConfigMap, String miteTokenSecret, String updateCenterCaConfigMap) {
  public static final String CASC_SUFFIX = "-casc";
  public static final String CHANNEL_SUFFIX = "-channel";
  public static final String MITE_TOKEN_SUFFIX = "-mite-token";
  public static final String PLUGINS_SUFFIX = "-plugins";
  public static final String UPDATE_CENTER_CA_SUFFIX = "-update-center-ca";
  public static final String AGENTS_SUFFIX = "-agents";
  /** The ConfigMap with SSH known_hosts in the agents namespace (seed 004): a fixed name pod templates can mount. */
  public static final String KNOWN_HOSTS_CONFIG_MAP = "known-hosts";
  /** The agents namespace's ServiceAccount that carries imagePullSecrets (seed 004). */
  public static final String AGENTS_DEFAULT_SERVICE_ACCOUNT = "default";

  /** The names before the update-center CA ConfigMap existed; it follows the StatefulSet's name. */
  public ControllerNames(String statefulSet, String service, String serviceAccount, String ingress,
      String cascConfigMap, String pluginsConfigMap, String agentsRole, String agentsRoleBinding,
      String channelConfigMap, String miteTokenSecret) {
    this(statefulSet, service, serviceAccount, ingress, cascConfigMap, pluginsConfigMap, agentsRole, agentsRoleBinding,
        channelConfigMap, miteTokenSecret, statefulSet + UPDATE_CENTER_CA_SUFFIX);
  }

  public static ControllerNames of(String controllerName, String uid) {
    String sts = StatefulSetName.of(controllerName, uid);
    return new ControllerNames(sts, sts, sts, sts, sts + CASC_SUFFIX, sts + PLUGINS_SUFFIX, sts + AGENTS_SUFFIX,
        sts + AGENTS_SUFFIX, sts + CHANNEL_SUFFIX, sts + MITE_TOKEN_SUFFIX, sts + UPDATE_CENTER_CA_SUFFIX);
  }
}
