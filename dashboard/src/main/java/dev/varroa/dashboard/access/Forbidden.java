package dev.varroa.dashboard.access;

import java.util.Optional;

/** A read the caller's VarroaRoleBindings do not allow; the message names the missing permission and the fix. */
public final class Forbidden extends Exception {
  private final Permission missing;
  private final Optional<Target> target;

  public Forbidden(String message, Permission missing, Optional<Target> target) {
    super(message);
    this.missing = missing;
    this.target = target;
  }

  public Permission missing() {
    return missing;
  }

  public Optional<Target> target() {
    return target;
  }
}
