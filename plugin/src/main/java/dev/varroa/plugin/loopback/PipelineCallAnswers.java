package dev.varroa.plugin.loopback;

import dev.varroa.protocol.builds.v1.PipelineCallAnswer;

/** The answers the plugin makes up itself when no answer about a pipeline call could be had. */
public final class PipelineCallAnswers {

  public static final String UNAVAILABLE = "UNAVAILABLE";

  private PipelineCallAnswers() {
  }

  /** An empty state with code UNAVAILABLE: ask again on the claims' schedule. */
  public static PipelineCallAnswer unavailable(String message) {
    return PipelineCallAnswer.newBuilder().setCode(UNAVAILABLE).setMessage(message).build();
  }
}
