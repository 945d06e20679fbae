package dev.varroa.operator.home;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.HomeStatus;
import java.util.List;
import java.util.Optional;

/**
 * The steps of a restore or a move of JENKINS_HOME, and what the status aggregator shows of one under way: phase
 * Provisioning, with Reconciling naming the step.
 */
public final class HomeProgress {
  public static final String DRAINING = "Draining";
  public static final String STOPPING = "Stopping";
  public static final String CLAIMING = "Claiming";
  public static final String COPYING = "Copying";
  public static final String VERIFYING = "Verifying";
  public static final String SWAPPING = "Swapping";
  public static final String STARTING = "Starting";
  /** Not a step: the operation ended without its result, kept so it is not retried until the user asks again. */
  public static final String FAILED = "Failed";

  /** The conditions the home step owns; the aggregator carries them over as the step left them. */
  public static final List<String> CONDITIONS = List.of(Condition.RESTORE_FAILED, Condition.HOME_MOVE_FAILED);

  private HomeProgress() {}

  /** "restore from backup-1, step 3 of 5 (Claiming): ..." while a restore or a move is under way. */
  public static Optional<String> underWay(HomeStatus home) {
    if (home == null) {
      return Optional.empty();
    }
    if (active(home.restore)) {
      return Optional.of("restore from " + home.restore.from + ", " + describe(home.restore));
    }
    if (active(home.move)) {
      return Optional.of("move of JENKINS_HOME from storage class " + home.move.from + " to " + home.move.to + ", "
          + describe(home.move));
    }
    return Optional.empty();
  }

  /** The home step's conditions among these. */
  public static List<Condition> carried(List<Condition> conditions) {
    return conditions == null ? List.of() : conditions.stream().filter(c -> CONDITIONS.contains(c.type)).toList();
  }

  static boolean active(HomeStatus.HomeOperation operation) {
    return operation != null && operation.step != null && !FAILED.equals(operation.step);
  }

  static boolean failed(HomeStatus.HomeOperation operation) {
    return operation != null && FAILED.equals(operation.step);
  }

  /** Moves the operation to a step of its plan, with what the step is doing. */
  static HomeStatus.HomeOperation at(HomeStatus.HomeOperation operation, List<String> plan, String step, String progress) {
    operation.step = step;
    operation.stepNumber = plan.indexOf(step) + 1;
    operation.steps = plan.size();
    operation.progress = progress;
    return operation;
  }

  private static String describe(HomeStatus.HomeOperation operation) {
    return "step " + operation.stepNumber + " of " + operation.steps + " (" + operation.step + ")"
        + (operation.progress == null ? "" : ": " + operation.progress);
  }
}
