package dev.varroa.operator.render;

import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.ArrayList;
import java.util.List;

/**
 * The init container that installs exactly the locked plugins: jenkins-plugin-cli from the Jenkins
 * image reads plugins.txt from the render, takes no newer dependency ({@code --latest false}) and
 * empties the plugins folder first, so a plugin dropped from the lock is gone after the roll. A
 * managed UpdateCenter also names its plugin-versions.json, where the tool looks up a pinned
 * version's checksum (its default is the Jenkins project's, unreachable in an air gap).
 */
public final class PluginsInitContainer {
  public static final String CONTAINER_NAME = "plugins";
  public static final String PLUGIN_CLI = "jenkins-plugin-cli";
  public static final String PLUGINS_TXT = PodVolumes.PLUGINS_PATH + "/plugins.txt";
  public static final String PLUGIN_DIRECTORY = PodVolumes.JENKINS_HOME + "/plugins";
  /** jenkins-plugin-cli downloads from here instead of the update center's own download URLs. */
  public static final String ENV_DOWNLOAD_URL = "JENKINS_UC_DOWNLOAD_URL";
  /** jenkins-plugin-cli's option naming plugin-versions.json. */
  public static final String PLUGIN_INFO_OPTION = "--jenkins-plugin-info";

  private PluginsInitContainer() {}

  static Container render(RenderInput input) {
    ResolvedController.Jenkins jenkins = input.controller().jenkins();
    List<String> args = new ArrayList<>(List.of(
        "--plugin-file", PLUGINS_TXT,
        "--plugin-download-directory", PLUGIN_DIRECTORY,
        "--latest", "false",
        "--clean-download-directory"));
    List<EnvVar> env = new ArrayList<>();
    input.updateCenterEndpoints().ifPresent(uc -> {
      args.add("--jenkins-update-center");
      args.add(uc.url());
      uc.pluginVersionsUrl().ifPresent(url -> {
        args.add(PLUGIN_INFO_OPTION);
        args.add(url);
      });
      uc.pluginDownloadUrl().ifPresent(url -> env.add(new EnvVar(ENV_DOWNLOAD_URL, url, null)));
    });
    return new ContainerBuilder()
        .withName(CONTAINER_NAME)
        .withImage(input.jenkinsImage())
        .withImagePullPolicy(jenkins.imagePullPolicy().orElse(null))
        .withCommand(PLUGIN_CLI)
        .withArgs(args)
        .withEnv(env.isEmpty() ? null : env)
        // init containers count towards the pod's requests: sized like Jenkins, never above it
        .withResources(jenkins.resources().map(JenkinsContainer::copy).orElse(null))
        .withVolumeMounts(
            PodVolumes.mount(PodVolumes.JENKINS_HOME_VOLUME, PodVolumes.JENKINS_HOME, false),
            PodVolumes.mount(PodVolumes.PLUGINS_VOLUME, PodVolumes.PLUGINS_PATH, true))
        .withSecurityContext(JenkinsPodSecurity.container())
        .build();
  }
}
