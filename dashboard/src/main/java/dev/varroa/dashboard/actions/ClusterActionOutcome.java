package dev.varroa.dashboard.actions;

/** The outcomes an operator answers an action with (ActionResult.outcome, docs/actions.md). */
final class ClusterActionOutcome {
  static final String ACCEPTED = "accepted";
  static final String DONE = "done";
  static final String REFUSED = "refused";
  static final String FAILED = "failed";

  private ClusterActionOutcome() {}
}
