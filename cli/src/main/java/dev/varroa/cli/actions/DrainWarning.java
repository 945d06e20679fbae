package dev.varroa.cli.actions;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What varroactl says before a drain, from the operator's preview: JENKINS_HOME is not migrated, and what each
 * controller volume's reclaim policy will do once its claim is deleted. Pure: the preview in, lines out.
 */
public final class DrainWarning {

  private DrainWarning() {}

  public static List<String> lines(String cluster, JsonNode preview) {
    List<String> lines = new ArrayList<>();
    int controllers = preview.path("controllersLeft").asInt();
    lines.add("Draining cluster " + cluster + " deletes its " + controllers + " Controller"
        + (controllers == 1 ? "" : "s") + " and their resources, one by one, with each one's JENKINS_HOME claims.");
    lines.add("JENKINS_HOME is not migrated: back up Jenkins data first (docs/backups.md).");
    JsonNode volumes = preview.path("volumes");
    if (volumes.isEmpty()) {
      lines.add("No controller volume is affected.");
    } else {
      lines.add("Controller volumes:");
      for (JsonNode volume : volumes) {
        lines.add("  " + volume.path("namespace").asText() + "/" + volume.path("controller").asText() + ": claim "
            + volume.path("claim").asText() + storageClass(volume) + " - " + fate(volume));
      }
    }
    return lines;
  }

  private static String storageClass(JsonNode volume) {
    String storageClass = volume.path("storageClass").asText();
    return storageClass.isEmpty() ? " (default StorageClass)" : " (StorageClass " + storageClass + ")";
  }

  static String fate(JsonNode volume) {
    String volumeName = volume.path("volume").asText();
    return switch (volume.path("reclaimPolicy").asText()) {
      case "Delete" -> "reclaim policy Delete: the volume and its data are deleted";
      case "Retain" -> "reclaim policy Retain: the PersistentVolume " + (volumeName.isEmpty() ? "" : volumeName + " ")
          + "is kept, with its data, until you delete it";
      case "" -> "reclaim policy unknown: check the StorageClass's reclaimPolicy (Kubernetes' default is Delete)";
      default -> "reclaim policy " + volume.path("reclaimPolicy").asText() + ": see its StorageClass";
    };
  }
}
