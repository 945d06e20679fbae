package dev.varroa.operator.render.resolve;

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
 * @param varroaPluginUrl where the plugins init container downloads the Varroa plugin's .hpi of this release from,
 *     when the update center in force does not serve it; empty: from the update center like every other plugin
 * @param recordStore the installation runs the build record store (chart: recordStore.enabled), which the claim
 *     gate needs
 * @param jenkinsLogin the OpenID provider people sign in to Jenkins with (chart: jenkinsLogin.*); empty: no realm
 * @param cellArtifacts where cells write archived artifacts and how their pools get credentials; empty: nowhere
 * @param cellsRefused why this installation cannot host cells (postgres blob mode, seed 002); empty: it can
 */
public record InstallationDefaults(String miteImage, Optional<String> pluginDownloadUrl,
    Optional<String> varroaPluginUrl, boolean recordStore, Optional<JenkinsLogin> jenkinsLogin,
    Optional<CellArtifactSettings> cellArtifacts, Optional<String> cellsRefused) {
  public static final String ENV_MITE_IMAGE = "VARROA_MITE_IMAGE";
  public static final String ENV_PLUGIN_DOWNLOAD_URL = "VARROA_PLUGIN_DOWNLOAD_URL";
  /** An http(s) URL of the varroa .hpi, written into plugins.txt as {@code varroa:<version>:<url>}. */
  public static final String ENV_VARROA_PLUGIN_URL = "VARROA_JENKINS_PLUGIN_URL";
  /** "true" when the chart runs the build record store (recordStore.enabled). */
  public static final String ENV_RECORD_STORE_ENABLED = "VARROA_RECORD_STORE_ENABLED";
  static final String DOWNLOAD_SUFFIX = "/download/plugins";
  /** The name a synthesized UpdateCenter carries in messages: it exists only in the render. */
  public static final String UPDATE_CENTER_NAME = "installation";

  public InstallationDefaults {
    java.util.Objects.requireNonNull(jenkinsLogin, "jenkinsLogin");
    java.util.Objects.requireNonNull(cellArtifacts, "cellArtifacts");
    java.util.Objects.requireNonNull(cellsRefused, "cellsRefused");
    pluginDownloadUrl.ifPresent(url -> {
      if (!url.matches("^https?://.+") || !url.replaceAll("/+$", "").endsWith(DOWNLOAD_SUFFIX)) {
        throw new IllegalArgumentException(ENV_PLUGIN_DOWNLOAD_URL + " (chart value pluginUpdateCenterDownloadURL) is '"
            + url + "'; fix: give the update center's download URL, https://<host>/download/plugins");
      }
    });
    // jenkins-plugin-cli fetches a plugins.txt URL with an HTTP client: no file:// or bare path
    varroaPluginUrl.ifPresent(url -> {
      if (!url.matches("^https?://\\S+$")) {
        throw new IllegalArgumentException(ENV_VARROA_PLUGIN_URL + " is '" + url + "'; fix: give an http(s) URL of the"
            + " varroa .hpi of this release, e.g. https://files.example.com/varroa/varroa-0.1.0.hpi");
      }
    });
  }
  public InstallationDefaults(String miteImage, Optional<String> pluginDownloadUrl, Optional<String> varroaPluginUrl,
      boolean recordStore, Optional<JenkinsLogin> jenkinsLogin, Optional<CellArtifactSettings> cellArtifacts) {
    this(miteImage, pluginDownloadUrl, varroaPluginUrl, recordStore, jenkinsLogin, cellArtifacts, Optional.empty());
  }


  public InstallationDefaults(String miteImage, Optional<String> pluginDownloadUrl) {
    this(miteImage, pluginDownloadUrl, Optional.empty(), false);
  }

  /** An installation whose cells write no archived artifacts. */
  public InstallationDefaults(String miteImage, Optional<String> pluginDownloadUrl, Optional<String> varroaPluginUrl,
      boolean recordStore, Optional<JenkinsLogin> jenkinsLogin) {
    this(miteImage, pluginDownloadUrl, varroaPluginUrl, recordStore, jenkinsLogin, Optional.empty());
  }

  /** An installation without a Jenkins login provider. */
  public InstallationDefaults(String miteImage, Optional<String> pluginDownloadUrl, Optional<String> varroaPluginUrl,
      boolean recordStore) {
    this(miteImage, pluginDownloadUrl, varroaPluginUrl, recordStore, Optional.empty());
  }

  /** The same installation, signing people in to Jenkins through {@code login}. */
  public InstallationDefaults withJenkinsLogin(Optional<JenkinsLogin> login) {
    return new InstallationDefaults(miteImage, pluginDownloadUrl, varroaPluginUrl, recordStore, login, cellArtifacts);
  }

  /** The same installation, its cells writing archived artifacts as {@code artifacts} says. */
  public InstallationDefaults withCellArtifacts(Optional<CellArtifactSettings> artifacts) {
    return new InstallationDefaults(miteImage, pluginDownloadUrl, varroaPluginUrl, recordStore, jenkinsLogin,
        artifacts);
  }

  public static InstallationDefaults none() {
    return new InstallationDefaults(ControllerSettingsResolver.DEFAULT_MITE_IMAGE, Optional.empty());
  }

  public static InstallationDefaults fromEnv(Map<String, String> env) {
    String image = env.getOrDefault(ENV_MITE_IMAGE, "").strip();
    String download = env.getOrDefault(ENV_PLUGIN_DOWNLOAD_URL, "").strip();
    String varroaPlugin = env.getOrDefault(ENV_VARROA_PLUGIN_URL, "").strip();
    String recordStore = env.getOrDefault(ENV_RECORD_STORE_ENABLED, "").strip();
    if (!recordStore.isEmpty() && !recordStore.equals("true") && !recordStore.equals("false")) {
      throw new IllegalArgumentException(ENV_RECORD_STORE_ENABLED + " is '" + recordStore
          + "'; fix: set it to true or false (the chart sets it from recordStore.enabled)");
    }
    return new InstallationDefaults(image.isEmpty() ? ControllerSettingsResolver.DEFAULT_MITE_IMAGE : image,
        download.isEmpty() ? Optional.empty() : Optional.of(download),
        varroaPlugin.isEmpty() ? Optional.empty() : Optional.of(varroaPlugin), recordStore.equals("true"),
        JenkinsLogin.fromEnv(env), CellArtifactSettings.fromEnv(env), CellArtifactSettings.cellsRefused(env));
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
