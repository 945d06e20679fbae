package dev.varroa.operator.home;

import java.util.Optional;

/**
 * What the apply step may do with the Jenkins StatefulSet while JENKINS_HOME is restored or moved.
 *
 * @param mode run, run on the old home, stopped, or withheld
 * @param storageClassName the class to render into a re-created StatefulSet's claim template instead of the
 *     resolved one: the old home's, after a move that failed once its StatefulSet was gone
 */
public record HomeWorkload(Mode mode, Optional<String> storageClassName) {
  public enum Mode {
    /** As rendered; a storage class change without a confirmed move is refused. */
    RUN,
    /** As rendered, on the claim template it has: the storage class change is not carried out (a failed move). */
    RUN_ON_OLD_HOME,
    /** Scaled to zero on the claim template it has: the home is being worked on. */
    STOPPED,
    /** Not applied at all: not created before its restored claim is Bound, or orphan-deleted for a swap. */
    WITHHELD
  }

  public static final HomeWorkload RUN = new HomeWorkload(Mode.RUN, Optional.empty());
  public static final HomeWorkload RUN_ON_OLD_HOME = new HomeWorkload(Mode.RUN_ON_OLD_HOME, Optional.empty());
  public static final HomeWorkload STOPPED = new HomeWorkload(Mode.STOPPED, Optional.empty());
  public static final HomeWorkload WITHHELD = new HomeWorkload(Mode.WITHHELD, Optional.empty());

  /** The StatefulSet keeps the claim template it has even when the resolved storage class differs. */
  public boolean keepsClaimTemplate() {
    return mode != Mode.RUN;
  }
}
