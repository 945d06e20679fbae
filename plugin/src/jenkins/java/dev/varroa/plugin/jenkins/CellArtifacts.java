package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.artifacts.ArchivedArtifactStore;
import dev.varroa.plugin.artifacts.ArtifactStaging;
import dev.varroa.plugin.artifacts.ArtifactStoreException;
import dev.varroa.plugin.artifacts.ArtifactStoreSettings;
import hudson.AbortException;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.BuildListener;
import hudson.model.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.logging.Logger;
import jenkins.model.ArtifactManager;
import jenkins.util.VirtualFile;
import org.kohsuke.accmod.Restricted;
import org.kohsuke.accmod.restrictions.NoExternalUse;

/**
 * One build's archived artifacts in the cell's object store, under
 * {@code <cell prefix><job full name>/<build number>/}. Jenkins persists this object in the build's build.xml.
 * Jenkins API: jenkins.model.ArtifactManager#archive (from ArtifactArchiver, {@code archiveArtifacts}), #delete
 * (Run#delete, build discarders), #root (the build page's artifact list and links, the artifact browser, downloads).
 */
@Restricted(NoExternalUse.class)
public final class CellArtifacts extends ArtifactManager {

  private static final Logger LOG = Logger.getLogger(CellArtifacts.class.getName());

  // The names the files are stored under, kept in build.xml: a renamed job still finds its earlier builds' files.
  private final String jobFullName;
  private final int buildNumber;

  CellArtifacts(Run<?, ?> build) {
    this.jobFullName = build.getParent().getFullName();
    this.buildNumber = build.getNumber();
  }

  @Override
  public void onLoad(Run<?, ?> build) {
    // Nothing to restore: the stored names were persisted, and the store is the running plugin's.
  }

  @Override
  public void archive(FilePath workspace, Launcher launcher, BuildListener listener, Map<String, String> artifacts)
      throws IOException, InterruptedException {
    ArchivedArtifactStore store = requireStore();
    for (Map.Entry<String, String> artifact : new TreeMap<>(artifacts).entrySet()) {
      upload(store, artifact.getKey(), workspace.child(artifact.getValue()));
    }
    listener.getLogger().println("Archived " + artifacts.size() + " file(s) to "
        + store.location(jobFullName, buildNumber, ""));
  }

  private void upload(ArchivedArtifactStore store, String archivedPath, FilePath source)
      throws IOException, InterruptedException {
    if (!source.isRemote()) {
      send(store, archivedPath, Path.of(source.getRemote()));
      return;
    }
    // Via the controller: the pool's credential must not reach agents, and only the Jenkins pod may reach the store.
    ArtifactStaging staging = VarroaRuntime.artifactStaging();
    Path copy = staging.newCopy();
    try {
      source.copyTo(new FilePath(copy.toFile()));
      send(store, archivedPath, copy);
    } finally {
      Files.deleteIfExists(copy);
    }
  }

  private void send(ArchivedArtifactStore store, String archivedPath, Path file) throws IOException {
    try {
      store.upload(jobFullName, buildNumber, archivedPath, file);
    } catch (IllegalArgumentException e) {
      throw new AbortException("cannot archive " + archivedPath + ": " + e.getMessage());
    } catch (ArtifactStoreException e) {
      throw new IOException("cannot archive " + archivedPath + ": " + e.getMessage(), e);
    }
  }

  @Override
  public boolean delete() throws IOException, InterruptedException {
    ArchivedArtifactStore store = VarroaRuntime.artifactStore();
    if (store == null) {
      // The build goes; refusing would keep it forever on a controller that is no longer a cell.
      LOG.warning("event=artifacts_not_deleted job=\"" + jobFullName + "\" build=" + buildNumber + " message=\""
          + ArtifactStoreSettings.URL_VARIABLE + " is not set, so this build's archived files stay in the cell's "
          + "object store; delete them there\"");
      return false;
    }
    try {
      return store.delete(jobFullName, buildNumber) > 0;
    } catch (ArtifactStoreException e) {
      throw new IOException("cannot delete the archived files of " + jobFullName + " #" + buildNumber + ": "
          + e.getMessage(), e);
    }
  }

  @Override
  public VirtualFile root() {
    return CellArtifactFile.root(VarroaRuntime.artifactStore(), jobFullName, buildNumber);
  }

  private ArchivedArtifactStore requireStore() throws AbortException {
    ArchivedArtifactStore store = VarroaRuntime.artifactStore();
    if (store == null) {
      throw new AbortException("cannot archive: this build's artifacts go to the cell's object store, but "
          + ArtifactStoreSettings.URL_VARIABLE + " is not set now; fix: run the build again (a new build uses "
          + "Jenkins' own storage)");
    }
    return store;
  }
}
