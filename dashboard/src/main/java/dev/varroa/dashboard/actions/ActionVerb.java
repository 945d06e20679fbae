package dev.varroa.dashboard.actions;

import dev.varroa.dashboard.access.Permission;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/** The actions the BFF sends to an operator, and the VarroaRole permission each needs (docs/actions.md). */
public enum ActionVerb {
  /** Delete every Controller of a member cluster, one by one. */
  DRAIN("drain", Permission.of(Permission.DRAIN, Permission.CLUSTERS)),
  /** Stop a drain under way; what was deleted stays deleted. Needs the same permission as the drain. */
  CANCEL_DRAIN("cancel-drain", Permission.of(Permission.DRAIN, Permission.CLUSTERS));

  private final String value;
  private final Permission permission;

  ActionVerb(String value, Permission permission) {
    this.value = value;
    this.permission = permission;
  }

  public String value() {
    return value;
  }

  public Permission permission() {
    return permission;
  }

  public static Optional<ActionVerb> of(String value) {
    return Arrays.stream(values()).filter(v -> v.value.equals(value)).findFirst();
  }

  public static String names() {
    return Arrays.stream(values()).map(ActionVerb::value).collect(Collectors.joining(", "));
  }
}
