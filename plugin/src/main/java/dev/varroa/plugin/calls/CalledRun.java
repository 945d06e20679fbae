package dev.varroa.plugin.calls;

/**
 * The called pipeline's run once it finished with SUCCESS: where it ran, its run id and build number, and the
 * dashboard link (empty when the core's public URL is not known).
 */
public record CalledRun(String cluster, String namespace, String team, String pipeline, String runId,
    long buildNumber, String result, String url) {

  /** "namespace/team/pipeline", how every message names the called pipeline. */
  public String pipelineName() {
    return namespace + "/" + team + "/" + pipeline;
  }
}
