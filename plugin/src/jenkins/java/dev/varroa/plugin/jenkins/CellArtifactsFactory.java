package dev.varroa.plugin.jenkins;

import hudson.Extension;
import hudson.init.InitMilestone;
import hudson.init.Initializer;
import hudson.model.Run;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import jenkins.model.ArtifactManager;
import jenkins.model.ArtifactManagerConfiguration;
import jenkins.model.ArtifactManagerFactory;
import jenkins.model.ArtifactManagerFactoryDescriptor;
import org.jenkinsci.Symbol;
import org.kohsuke.accmod.Restricted;
import org.kohsuke.accmod.restrictions.NoExternalUse;
import org.kohsuke.stapler.DataBoundConstructor;

/**
 * Hands a new build's archived artifacts to the cell's object store when the controller is a cell
 * (VARROA_ARTIFACTS_URL set); otherwise answers null, and Jenkins keeps its standard manager (the build's archive
 * folder). Jenkins API: jenkins.model.ArtifactManagerFactory#managerFor(Run), consulted by Run#pickArtifactManager
 * only for the factories listed in ArtifactManagerConfiguration, so the initializer below lists this one first.
 */
@Restricted(NoExternalUse.class)
public final class CellArtifactsFactory extends ArtifactManagerFactory {

  private static final Logger LOG = Logger.getLogger(CellArtifactsFactory.class.getName());

  @DataBoundConstructor
  public CellArtifactsFactory() {
  }

  @Override
  public ArtifactManager managerFor(Run<?, ?> build) {
    return VarroaRuntime.artifactStore() == null ? null : new CellArtifacts(build);
  }

  /**
   * Lists this factory first in ArtifactManagerConfiguration on a cell, where Jenkins persists it. After JCasC has
   * applied the system configuration (before SYSTEM_CONFIG_ADAPTED), so a bundle's artifactManager list cannot
   * drop it at start; before jobs load, so no build archives before it is listed.
   */
  @Initializer(after = InitMilestone.SYSTEM_CONFIG_ADAPTED, before = InitMilestone.JOB_LOADED)
  public static void listFirstOnACell() throws IOException {
    if (VarroaRuntime.artifactStore() == null) {
      return;
    }
    var factories = ArtifactManagerConfiguration.get().getArtifactManagerFactories();
    if (!factories.isEmpty() && factories.get(0) instanceof CellArtifactsFactory) {
      return;
    }
    List<ArtifactManagerFactory> ordered = new ArrayList<>();
    ordered.add(new CellArtifactsFactory());
    for (ArtifactManagerFactory factory : factories) {
      if (!(factory instanceof CellArtifactsFactory)) {
        ordered.add(factory);
      }
    }
    // PersistedList takes no insertion at an index; replaceBy also saves the configuration.
    factories.replaceBy(ordered);
    LOG.info("event=varroa_artifact_factory_listed position=first others=" + (ordered.size() - 1));
  }

  @Extension
  @Symbol("varroa")
  public static final class DescriptorImpl extends ArtifactManagerFactoryDescriptor {
    @Override
    public String getDisplayName() {
      return "Varroa cell object store";
    }
  }
}
