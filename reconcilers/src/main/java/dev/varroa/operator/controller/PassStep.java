package dev.varroa.operator.controller;

import java.util.function.Supplier;

/**
 * The steps of a Controller pass, in order (docs/controllers.md). Running a step through {@link #run} names it in any
 * unexpected failure, so the error status says where the pass stopped.
 */
enum PassStep {
  INPUTS("inputs"),
  HIBERNATION_PLAN("hibernation-plan"),
  RENDER("render"),
  HOME("home"),
  APPLY("apply"),
  DELIVERY("delivery"),
  HIBERNATION("hibernation"),
  ORPHAN_SWEEP("orphan-sweep"),
  BACKUP("backup");

  /** Where a failure that no step raised happened: the framework's status patch at the end of the pass. */
  static final String STATUS_PATCH = "status-patch";

  private final String label;

  PassStep(String label) {
    this.label = label;
  }

  String label() {
    return label;
  }

  /** Runs the step; an unexpected exception comes out as a {@link Failure} naming it, for the error status. */
  <T> T run(Supplier<T> work) {
    try {
      return work.get();
    } catch (Failure nested) {
      throw nested;
    } catch (RuntimeException e) {
      throw new Failure(this, e);
    }
  }

  /** A step of a Controller pass failed unexpectedly; the framework retries the pass with backoff. */
  static final class Failure extends RuntimeException {
    private final PassStep step;

    Failure(PassStep step, RuntimeException cause) {
      super("step " + step.label + " of the Controller pass failed: " + cause.getMessage(), cause);
      this.step = step;
    }

    PassStep step() {
      return step;
    }
  }
}
