package dev.varroa.plugin.calls;

import dev.varroa.protocol.builds.v1.PipelineCallAnswer;
import dev.varroa.protocol.builds.v1.PipelineCallRequest;

/** The mite's two pipeline call routes, as {@link dev.varroa.plugin.loopback.LoopbackClient} serves them. */
public interface PipelineCallLoopback {

  /** POST /v1/pipeline-calls: never throws; an empty state with code UNAVAILABLE when no answer came. */
  PipelineCallAnswer call(PipelineCallRequest call);

  /** GET /v1/pipeline-calls/&lt;call id&gt;: never throws, as {@link #call}. */
  PipelineCallAnswer status(String callId);
}
