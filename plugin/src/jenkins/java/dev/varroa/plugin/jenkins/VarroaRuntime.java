package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.PluginCore;
import dev.varroa.plugin.artifacts.ArchivedArtifactStore;
import dev.varroa.plugin.artifacts.ArtifactStaging;
import dev.varroa.plugin.artifacts.ArtifactStoreSettings;
import dev.varroa.plugin.auth.BearerCrumbExclusion;
import dev.varroa.plugin.auth.JenkinsTokenVerifier;
import dev.varroa.plugin.config.PluginSettings;
import hudson.init.InitMilestone;
import hudson.init.Initializer;
import hudson.init.Terminator;
import hudson.util.PluginServletFilter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.logging.Logger;
import jenkins.model.Jenkins;

/**
 * Starts the plugin core once Jenkins' plugins are up, with the cell's artifact store when VARROA_ARTIFACTS_URL is set,
 * and closes them when Jenkins stops.
 * Jenkins API: hudson.init.Initializer / hudson.init.Terminator; hudson.util.PluginServletFilter.addFilter (the
 * mite's bearer filter and the activity filter).
 */
public final class VarroaRuntime {

  private static final Logger LOG = Logger.getLogger(VarroaRuntime.class.getName());

  private static volatile PluginCore core;
  private static volatile JenkinsTokenVerifier verifier;
  // Both null when the controller is no cell (VARROA_ARTIFACTS_URL unset): Jenkins keeps its own artifact storage.
  private static volatile ArchivedArtifactStore artifactStore;
  private static volatile ArtifactStaging artifactStaging;

  private VarroaRuntime() {
  }

  // Before jobs load: the queue and resumed builds must find the spool and the gate ready.
  @Initializer(after = InitMilestone.PLUGINS_STARTED, before = InitMilestone.JOB_LOADED)
  public static void start() throws Exception {
    verifier = JenkinsTokenVerifier.fromEnvironment();
    Path jenkinsHome = Jenkins.get().getRootDir().toPath();
    // Read before the core starts: a bad artifact setting stops Jenkins with its message, like every other setting.
    Optional<ArtifactStoreSettings> artifacts = ArtifactStoreSettings.fromEnvironment();
    core = PluginCore.start(PluginSettings.fromEnvironment(), jenkinsHome, Clock.systemUTC());
    if (artifacts.isPresent()) {
      artifactStaging = ArtifactStaging.open(ArtifactStaging.directoryOf(jenkinsHome));
      artifactStore = ArchivedArtifactStore.open(artifacts.get());
      LOG.info("event=varroa_artifact_store store=\"" + artifactStore + "\" staging=" + artifactStaging.directory());
    }
    PluginServletFilter.addFilter(new MiteBearerFilter(verifier));
    PluginServletFilter.addFilter(new ActivityFilter(core.activity()));
  }

  @Terminator
  public static void stop() throws Exception {
    ArchivedArtifactStore store = artifactStore;
    if (store != null) {
      store.close();
    }
    PluginCore running = core;
    if (running != null) {
      running.close();
    }
  }

  /** The cell's artifact store, or null when the controller is no cell. */
  static ArchivedArtifactStore artifactStore() {
    return artifactStore;
  }

  static ArtifactStaging artifactStaging() {
    return artifactStaging;
  }

  static PluginCore core() {
    PluginCore running = core;
    if (running == null) {
      throw new IllegalStateException("the Varroa plugin core has not started");
    }
    return running;
  }

  static JenkinsTokenVerifier verifier() {
    return verifier;
  }

  static BearerCrumbExclusion crumbExclusion() {
    return new BearerCrumbExclusion(verifier);
  }
}
