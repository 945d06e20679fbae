package dev.varroa.plugin.claims;

/** The claim gate's answer to Jenkins' "may this queued item run now?". */
public sealed interface GateAnswer {

  /** The gate is off: nothing to ask. */
  record Open() implements GateAnswer {
  }

  /** The ledger granted the run this build number; the glue makes it the job's next build number. */
  record Granted(long buildNumber) implements GateAnswer {
  }

  /** Stay queued; {@code reason} is what the queue shows. */
  record Held(String reason) implements GateAnswer {
  }

  default boolean mayRun() {
    return !(this instanceof Held);
  }
}
