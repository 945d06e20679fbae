package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.artifacts.ArchivedArtifactStore;
import dev.varroa.plugin.artifacts.ArtifactStoreException;
import dev.varroa.plugin.artifacts.ArtifactStoreSettings;
import dev.varroa.plugin.artifacts.ArtifactTree;
import dev.varroa.plugin.artifacts.StoredArtifact;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Optional;
import jenkins.util.VirtualFile;
import org.kohsuke.accmod.Restricted;
import org.kohsuke.accmod.restrictions.NoExternalUse;

/**
 * A file or folder of one build's archived artifacts in the cell's object store, as Jenkins' artifact views walk
 * them. The folders come from ArtifactTree (plugin core); the bytes from ArchivedArtifactStore#open.
 * Jenkins API: jenkins.util.VirtualFile (the abstract methods only; downloads stream through the controller, so
 * toExternalURL stays null and no credential or signed URL leaves it).
 */
@Restricted(NoExternalUse.class)
public final class CellArtifactFile extends VirtualFile {

  private static final long serialVersionUID = 1L;

  // Not sent over remoting: the store (and its credential) stays in the controller.
  private final transient ArchivedArtifactStore store;
  private final String jobFullName;
  private final int buildNumber;
  private final String path;
  // Shared by a root and every file reached from it: one listing per view of the build, not one per question.
  private final transient Listing listing;

  private CellArtifactFile(ArchivedArtifactStore store, String jobFullName, int buildNumber, String path,
      Listing listing) {
    this.store = store;
    this.jobFullName = jobFullName;
    this.buildNumber = buildNumber;
    this.path = path;
    this.listing = listing;
  }

  /** The build's artifact root; {@code store} is null when the controller is no longer a cell. */
  static CellArtifactFile root(ArchivedArtifactStore store, String jobFullName, int buildNumber) {
    return new CellArtifactFile(store, jobFullName, buildNumber, "", new Listing(store, jobFullName, buildNumber));
  }

  @Override
  public String getName() {
    return ArtifactTree.name(path);
  }

  @Override
  public URI toURI() {
    if (store != null) {
      return store.location(jobFullName, buildNumber, path);
    }
    try {
      // No store to name the bucket: still unique within the root, as VirtualFile asks.
      return new URI("varroa-artifacts", jobFullName + "/" + buildNumber + "/" + path, null);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("the archived path " + path + " of " + jobFullName + " #" + buildNumber
          + " does not make a URI: " + e.getMessage(), e);
    }
  }

  @Override
  public VirtualFile getParent() {
    // Within the build's root only, as VirtualFile asks; the root has none.
    return path.isEmpty() ? null : at(ArtifactTree.parent(path));
  }

  @Override
  public boolean isDirectory() throws IOException {
    return tree().isFolder(path);
  }

  @Override
  public boolean isFile() throws IOException {
    return tree().file(path).isPresent();
  }

  @Override
  public boolean exists() throws IOException {
    ArtifactTree tree = tree();
    return tree.file(path).isPresent() || tree.isFolder(path);
  }

  @Override
  public VirtualFile[] list() throws IOException {
    List<String> names = tree().children(path);
    VirtualFile[] children = new VirtualFile[names.size()];
    for (int i = 0; i < children.length; i++) {
      children[i] = at(ArtifactTree.child(path, names.get(i)));
    }
    return children;
  }

  @Override
  public VirtualFile child(String name) {
    return at(ArtifactTree.child(path, name));
  }

  @Override
  public long length() throws IOException {
    return stored().map(StoredArtifact::size).orElse(0L);
  }

  @Override
  public long lastModified() throws IOException {
    return stored().map(file -> file.lastModified() == null ? 0L : file.lastModified().toEpochMilli()).orElse(0L);
  }

  @Override
  public boolean canRead() throws IOException {
    return exists();
  }

  @Override
  public InputStream open() throws IOException {
    if (stored().isEmpty()) {
      throw new FileNotFoundException(path + " is not an archived file of " + jobFullName + " #" + buildNumber);
    }
    try {
      return store.open(jobFullName, buildNumber, path);
    } catch (ArtifactStoreException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  private Optional<StoredArtifact> stored() throws IOException {
    return tree().file(path);
  }

  private CellArtifactFile at(String childPath) {
    return new CellArtifactFile(store, jobFullName, buildNumber, childPath, listing);
  }

  private ArtifactTree tree() throws IOException {
    if (listing == null) {
      throw new IOException("the archived files of " + jobFullName + " #" + buildNumber + " are read only on the "
          + "controller");
    }
    return listing.tree();
  }

  /** The build's listing, asked of the store once, on first use. */
  private static final class Listing {
    private final ArchivedArtifactStore store;
    private final String jobFullName;
    private final int buildNumber;
    private ArtifactTree tree;

    Listing(ArchivedArtifactStore store, String jobFullName, int buildNumber) {
      this.store = store;
      this.jobFullName = jobFullName;
      this.buildNumber = buildNumber;
    }

    synchronized ArtifactTree tree() throws IOException {
      if (tree == null) {
        if (store == null) {
          throw new IOException("the archived files of " + jobFullName + " #" + buildNumber + " are in the cell's "
              + "object store, and " + ArtifactStoreSettings.URL_VARIABLE + " is not set now; fix: give this "
              + "controller its cell's artifact settings again to see them");
        }
        try {
          tree = ArtifactTree.of(store.list(jobFullName, buildNumber));
        } catch (ArtifactStoreException e) {
          throw new IOException(e.getMessage(), e);
        }
      }
      return tree;
    }
  }
}
