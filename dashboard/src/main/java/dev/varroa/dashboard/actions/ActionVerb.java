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
  CANCEL_DRAIN("cancel-drain", Permission.of(Permission.DRAIN, Permission.CLUSTERS)),
  /** Create a BroodOperation from a manifest (ActionRequest.manifest_yaml) in the target cluster and namespace. */
  BROODOP_CREATE("broodop-create", Permission.of(Permission.CREATE, Permission.BROOD_OPERATIONS)),
  /** spec.suspend: true; steps under way finish, none starts. */
  BROODOP_PAUSE("broodop-pause", Permission.of(Permission.UPDATE, Permission.BROOD_OPERATIONS)),
  /** spec.suspend: false. */
  BROODOP_RESUME("broodop-resume", Permission.of(Permission.UPDATE, Permission.BROOD_OPERATIONS)),
  /** spec.cancel: true; final. */
  BROODOP_CANCEL("broodop-cancel", Permission.of(Permission.UPDATE, Permission.BROOD_OPERATIONS)),
  /** Delete the BroodOperation (varroactl broodop create --dry-run removes its dry run with it). */
  BROODOP_DELETE("broodop-delete", Permission.of(Permission.DELETE, Permission.BROOD_OPERATIONS)),
  /** A CellPool's spec.replicas through its scale subresource (ActionRequest.replicas). */
  CELLPOOL_SCALE("cellpool-scale", Permission.of(Permission.UPDATE, Permission.CELL_POOLS)),
  /**
   * Run one of a Team's pipelines on its cell (ActionRequest.pipeline and parameters); sent to the recorder, which wakes
   * the cell and hands the run to the Team's cluster's operator (docs/pipelines.md).
   */
  PIPELINE_RUN("pipeline-run", Permission.of(Permission.TRIGGER, Permission.PIPELINES));

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

  /** A verb on a BroodOperation (namespace and name), not on a whole cluster. */
  public boolean brood() {
    return Permission.BROOD_OPERATIONS.equals(permission.resource());
  }

  /** How varroactl lists the objects of this verb's kind, for messages that name a wrong one. */
  public String listCommand() {
    return switch (this) {
      case CELLPOOL_SCALE -> "varroactl get cellpools";
      case PIPELINE_RUN -> "varroactl get teams";
      default -> brood() ? "varroactl broodop list" : "varroactl get clusters";
    };
  }

  /** A verb on one object in a namespace (a BroodOperation, a CellPool, a Team): decided on that namespace, not the cluster. */
  public boolean namespaced() {
    return !Permission.CLUSTERS.equals(permission.resource());
  }

  /** The kind of object a namespaced verb acts on, as messages name it. */
  public String kind() {
    return switch (this) {
      case CELLPOOL_SCALE -> "CellPool";
      case PIPELINE_RUN -> "Team";
      default -> brood() ? "BroodOperation" : "cluster";
    };
  }

  public static Optional<ActionVerb> of(String value) {
    return Arrays.stream(values()).filter(v -> v.value.equals(value)).findFirst();
  }

  public static String names() {
    return Arrays.stream(values()).map(ActionVerb::value).collect(Collectors.joining(", "));
  }
}
