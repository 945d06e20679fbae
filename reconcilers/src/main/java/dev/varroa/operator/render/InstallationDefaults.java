package dev.varroa.operator.render;

import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.api.v1alpha1.UpdateCenterSpec;
import java.util.Map;
import java.util.Optional;

/**
 * What the installation (the chart's values) gives every Controller that its own levels leave open.
 *
 * @param miteImage the mite image when no level names one (chart: image.*)
 * @param pluginDownloadUrl where plugins download from when no UpdateCenter says (chart: pluginUpdateCenterDownloadURL),
 *     e.g. the core's update center for a member; it ends in /download/plugins, beside update-center.json
 */
public record InstallationDefaults(String miteImage, Optional<String> pluginDownloadUrl) {
  public static final String ENV_MITE_IMAGE = "VARROA_MITE_IMAGE";
  public static final String ENV_PLUGIN_DOWNLOAD_URL = "VARROA_PLUGIN_DOWNLOAD_URL";
  static final String DOWNLOAD_SUFFIX = "/download/plugins";
  /** The name a synthesized UpdateCenter carries in messages: it exists only in the render. */
  public static final String UPDATE_CENTER_NAME = "installation";

  public InstallationDefaults {
    pluginDownloadUrl.ifPresent(url -> {
      if (!url.matches("^https?://.+") || !url.replaceAll("/+$", "").endsWith(DOWNLOAD_SUFFIX)) {
        throw new IllegalArgumentException(ENV_PLUGIN_DOWNLOAD_URL + " (chart value pluginUpdateCenterDownloadURL) is '"
            + url + "'; fix: give the update center's download URL, https://<host>/download/plugins");
      }
    });
  }

  public static InstallationDefaults none() {
    return new InstallationDefaults(ControllerSettingsResolver.DEFAULT_MITE_IMAGE, Optional.empty());
  }

  public static InstallationDefaults fromEnv(Map<String, String> env) {
    String image = env.getOrDefault(ENV_MITE_IMAGE, "").strip();
    String download = env.getOrDefault(ENV_PLUGIN_DOWNLOAD_URL, "").strip();
    return new InstallationDefaults(image.isEmpty() ? ControllerSettingsResolver.DEFAULT_MITE_IMAGE : image,
        download.isEmpty() ? Optional.empty() : Optional.of(download));
  }

  /**
   * The UpdateCenter a Controller installs from: the chosen one, given the installation's download URL when it names
   * none; with no UpdateCenter at all, one that only the render sees, at the site beside the download URL.
   */
  public Optional<UpdateCenter> updateCenter(Optional<UpdateCenter> chosen) {
    if (pluginDownloadUrl.isEmpty()) {
      return chosen;
    }
    String download = pluginDownloadUrl.get().replaceAll("/+$", "");
    if (chosen.isPresent()) {
      UpdateCenterSpec spec = chosen.get().getSpec();
      if (spec == null || spec.managed != null || spec.pluginDownloadURL != null) {
        return chosen;
      }
    }
    UpdateCenter result = new UpdateCenter();
    result.getMetadata().setName(chosen.map(u -> u.getMetadata().getName()).orElse(UPDATE_CENTER_NAME));
    result.setSpec(new UpdateCenterSpec());
    result.getSpec().url = chosen.map(u -> u.getSpec().url)
        .orElse(download.substring(0, download.length() - DOWNLOAD_SUFFIX.length()) + "/update-center.json");
    result.getSpec().caSecretRef = chosen.map(u -> u.getSpec().caSecretRef).orElse(null);
    result.getSpec().pluginDownloadURL = download;
    return Optional.of(result);
  }
}
