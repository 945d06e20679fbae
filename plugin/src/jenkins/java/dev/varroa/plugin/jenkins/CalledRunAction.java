package dev.varroa.plugin.jenkins;

import hudson.model.Action;

/**
 * A link on the calling build's page to the run a varroaRunPipeline step called, on the core dashboard; one per
 * call. Saved with the build, so the link outlives restarts.
 * Jenkins API: hudson.model.Action (an absolute getUrlName is an outside link; "symbol-link" is a core symbol).
 */
public final class CalledRunAction implements Action {

  private final String pipeline;
  private final String cluster;
  private final String runId;
  private final String url;

  public CalledRunAction(String pipeline, String cluster, String runId, String url) {
    this.pipeline = pipeline;
    this.cluster = cluster;
    this.runId = runId;
    this.url = url;
  }

  @Override
  public String getIconFileName() {
    return "symbol-link";
  }

  @Override
  public String getDisplayName() {
    return "Called: " + pipeline + " (" + cluster + ", run " + runId + ")";
  }

  @Override
  public String getUrlName() {
    return url;
  }
}
