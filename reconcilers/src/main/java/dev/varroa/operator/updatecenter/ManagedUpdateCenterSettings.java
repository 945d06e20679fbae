package dev.varroa.operator.updatecenter;

import dev.varroa.operator.bundle.Intervals;
import dev.varroa.operator.render.UpdateCenterEndpoints;
import dev.varroa.operator.render.resolve.ControllerSettingsResolver;
import java.time.Duration;
import java.util.Map;

/**
 * How the operator runs managed UpdateCenters, from its environment.
 *
 * @param namespace where the update centers run: the operator's own ({@value #ENV_NAMESPACE})
 * @param defaultImage the image when spec.managed.image is omitted ({@value #ENV_IMAGE})
 * @param pollInterval how often the operator reads each update center's status.json ({@value #ENV_POLL_INTERVAL})
 */
public record ManagedUpdateCenterSettings(String namespace, String defaultImage, Duration pollInterval) {
  public static final String ENV_NAMESPACE = "POD_NAMESPACE";
  public static final String ENV_IMAGE = "VARROA_UPDATE_CENTER_IMAGE";
  public static final String ENV_POLL_INTERVAL = "VARROA_UPDATE_CENTER_POLL_INTERVAL";
  public static final String DEFAULT_NAMESPACE = UpdateCenterEndpoints.DEFAULT_MANAGED_NAMESPACE;
  /** "omitted: the image matching the operator's version", as the mite's default is built. */
  public static final String DEFAULT_IMAGE = "ghcr.io/varroa/update-center:" + ControllerSettingsResolver.OPERATOR_VERSION;
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(30);

  public static ManagedUpdateCenterSettings fromEnv(Map<String, String> env) {
    String namespace = env.get(ENV_NAMESPACE);
    String image = env.get(ENV_IMAGE);
    return new ManagedUpdateCenterSettings(namespace == null || namespace.isBlank() ? DEFAULT_NAMESPACE : namespace,
        image == null || image.isBlank() ? DEFAULT_IMAGE : image.strip(),
        Intervals.parse(env.get(ENV_POLL_INTERVAL), DEFAULT_POLL_INTERVAL));
  }
}
