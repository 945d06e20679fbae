package dev.varroa.protocol;

import java.util.Optional;

/**
 * What a cell's job name says about its Team, for readers that have no Team objects (the BFF): a cell is a
 * Controller labelled {@value #POOL_LABEL}, and each Team's jobs sit in the Team's folder, named after the Team, or
 * {@code <namespace>_<name>} for a Team of another namespace than the pool's (docs/cells.md). No Kubernetes name holds
 * '_', so the folder names its namespace without doubt.
 */
public final class CellFolders {
  /** The label every cell Controller carries: the name of its CellPool. */
  public static final String POOL_LABEL = "varroa.dev/cell-pool";

  private CellFolders() {
  }

  /**
   * The namespace of the Team owning a job on a cell: the cell's own for a folder without '_', else the part before it;
   * empty for a job outside any folder.
   */
  public static Optional<String> teamNamespace(String job, String cellNamespace) {
    int slash = job == null ? -1 : job.indexOf('/');
    if (slash <= 0) {
      return Optional.empty();
    }
    String folder = job.substring(0, slash);
    int underscore = folder.indexOf('_');
    if (underscore < 0) {
      return Optional.of(cellNamespace);
    }
    return underscore == 0 ? Optional.empty() : Optional.of(folder.substring(0, underscore));
  }
}
