package dev.varroa.operator.controller;

import dev.varroa.operator.hibernation.HibernationSettings;
import dev.varroa.operator.home.HomeCopySettings;
import dev.varroa.operator.render.resolve.InstallationDefaults;
import java.util.Map;
import java.util.Optional;

/**
 * What the installation gives every Controller pass, read once from the environment in the operator's main.
 *
 * @param installation what the chart's values give every Controller (VARROA_MITE_IMAGE, VARROA_PLUGIN_DOWNLOAD_URL)
 * @param hibernation where the waker is, for parked Controllers' Services (docs/hibernation.md)
 * @param homeCopy how the home move's copy and check Jobs run (VARROA_HOME_COPY_IMAGE)
 */
public record ControllerSettings(InstallationDefaults installation, HibernationSettings hibernation,
    HomeCopySettings homeCopy) {

  /** No chart values, no waker Service, the default copy image: what an operator started by a test runs with. */
  public static ControllerSettings defaults() {
    return new ControllerSettings(InstallationDefaults.none(), HibernationSettings.withoutWakerService(),
        HomeCopySettings.defaults());
  }

  /** @param operatorNamespace where the waker Service is when VARROA_WAKER_SERVICE names no namespace */
  public static ControllerSettings fromEnv(Map<String, String> env, Optional<String> operatorNamespace) {
    return new ControllerSettings(InstallationDefaults.fromEnv(env), HibernationSettings.fromEnv(env, operatorNamespace),
        HomeCopySettings.fromEnv(env));
  }

  public ControllerSettings withInstallation(InstallationDefaults changed) {
    return new ControllerSettings(changed, hibernation, homeCopy);
  }

  public ControllerSettings withHibernation(HibernationSettings changed) {
    return new ControllerSettings(installation, changed, homeCopy);
  }
}
