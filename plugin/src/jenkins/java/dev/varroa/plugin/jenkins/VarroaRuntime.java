package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.PluginCore;
import dev.varroa.plugin.auth.BearerCrumbExclusion;
import dev.varroa.plugin.auth.JenkinsTokenVerifier;
import dev.varroa.plugin.config.PluginSettings;
import hudson.init.InitMilestone;
import hudson.init.Initializer;
import hudson.init.Terminator;
import hudson.util.PluginServletFilter;
import java.time.Clock;
import jenkins.model.Jenkins;

/**
 * Starts the plugin core once Jenkins' plugins are up and closes it when Jenkins stops.
 * Jenkins API: hudson.init.Initializer / hudson.init.Terminator; hudson.util.PluginServletFilter.addFilter (the
 * mite's bearer filter and the activity filter).
 */
public final class VarroaRuntime {

  private static volatile PluginCore core;
  private static volatile JenkinsTokenVerifier verifier;

  private VarroaRuntime() {
  }

  // Before jobs load: the queue and resumed builds must find the spool and the gate ready.
  @Initializer(after = InitMilestone.PLUGINS_STARTED, before = InitMilestone.JOB_LOADED)
  public static void start() throws Exception {
    verifier = JenkinsTokenVerifier.fromEnvironment();
    core = PluginCore.start(PluginSettings.fromEnvironment(), Jenkins.get().getRootDir().toPath(), Clock.systemUTC());
    PluginServletFilter.addFilter(new MiteBearerFilter(verifier));
    PluginServletFilter.addFilter(new ActivityFilter(core.activity()));
  }

  @Terminator
  public static void stop() throws Exception {
    PluginCore running = core;
    if (running != null) {
      running.close();
    }
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
