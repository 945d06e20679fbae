package dev.varroa.plugin.artifacts;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Logger;

/**
 * The controller-side folder where a file archived on an agent is copied before it is uploaded, under
 * {@code $JENKINS_HOME} (the persistent volume, not the container's small temporary space). Each copy is deleted
 * after its upload; what a killed Jenkins left is deleted when the folder opens.
 */
public final class ArtifactStaging {

  private static final Logger LOG = Logger.getLogger(ArtifactStaging.class.getName());

  private final Path directory;

  private ArtifactStaging(Path directory) {
    this.directory = directory;
  }

  /** {@code $JENKINS_HOME/varroa/artifact-staging}. */
  public static Path directoryOf(Path jenkinsHome) {
    return jenkinsHome.resolve("varroa").resolve("artifact-staging");
  }

  /** Creates the folder, or empties it of copies a previous Jenkins left mid-upload. */
  public static ArtifactStaging open(Path directory) throws IOException {
    Files.createDirectories(directory);
    int left = 0;
    try (DirectoryStream<Path> copies = Files.newDirectoryStream(directory)) {
      for (Path copy : copies) {
        Files.delete(copy);
        left++;
      }
    }
    if (left > 0) {
      int deleted = left;
      LOG.info(() -> "event=artifact_staging_cleared directory=" + directory + " files=" + deleted
          + " message=\"copies an upload left when Jenkins stopped mid-way\"");
    }
    return new ArtifactStaging(directory);
  }

  /** A new empty file for one copy; the caller deletes it after the upload. */
  public Path newCopy() throws IOException {
    return Files.createTempFile(directory, "artifact-", ".copy");
  }

  public Path directory() {
    return directory;
  }
}
