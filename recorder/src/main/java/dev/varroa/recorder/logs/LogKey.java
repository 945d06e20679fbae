package dev.varroa.recorder.logs;

/**
 * One run's console log: the cluster the gateway serves (VARROA_CLUSTER_NAME), the controller (from the mite's
 * certificate, never from the plugin) and the plugin's run id.
 */
public record LogKey(String cluster, String namespace, String controller, String runId) {

  public LogKey {
    require(cluster, "cluster");
    require(namespace, "namespace");
    require(controller, "controller");
    require(runId, "runId");
  }

  private static void require(String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("a console log key needs a " + what);
    }
  }

  @Override
  public String toString() {
    return cluster + "/" + namespace + "/" + controller + "/" + runId;
  }
}
