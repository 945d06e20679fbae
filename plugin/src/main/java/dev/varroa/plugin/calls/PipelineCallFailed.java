package dev.varroa.plugin.calls;

/** The step's failure: the called pipeline refused, never ran, ended with another result than SUCCESS, or timed out. */
public final class PipelineCallFailed extends Exception {

  private static final long serialVersionUID = 1L;

  public PipelineCallFailed(String message) {
    super(message);
  }
}
