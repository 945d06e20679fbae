package dev.varroa.dashboard.access;

import dev.varroa.dashboard.identity.Caller;
import dev.varroa.protocol.bus.v1.AccessBinding;
import dev.varroa.protocol.bus.v1.AccessPolicy;
import dev.varroa.protocol.bus.v1.AccessRole;
import dev.varroa.protocol.bus.v1.AccessRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one caller may read, from the VarroaRoleBindings that name them (as a user, or through a group) and the
 * rules of the roles they grant. Pure: decided from the policy and the caller alone. No binding, no data.
 */
public final class Grants {

  /** A rule as one binding grants it: the role's rule, narrowed by the binding's namespaces. */
  private record Grant(String binding, AccessRule rule, List<String> bindingNamespaces) {}

  private final Caller caller;
  private final List<String> bindings;
  private final List<Grant> grants;

  private Grants(Caller caller, List<String> bindings, List<Grant> grants) {
    this.caller = caller;
    this.bindings = List.copyOf(bindings);
    this.grants = List.copyOf(grants);
  }

  public static Grants of(Caller caller, AccessPolicy policy) {
    Map<String, AccessRole> roles = new java.util.HashMap<>();
    policy.getRolesList().forEach(role -> roles.put(role.getName(), role));
    List<String> names = new ArrayList<>();
    List<Grant> grants = new ArrayList<>();
    for (AccessBinding binding : policy.getBindingsList()) {
      boolean namesCaller = binding.getSubjectsList().stream().anyMatch(subject ->
          "User".equals(subject.getKind()) && subject.getName().equals(caller.user())
              || "Group".equals(subject.getKind()) && caller.groups().contains(subject.getName()));
      if (!namesCaller) {
        continue;
      }
      names.add(binding.getName());
      AccessRole role = roles.get(binding.getRole());
      if (role != null) {
        role.getRulesList().forEach(rule -> grants.add(new Grant(binding.getName(), rule,
            binding.getNamespacesList())));
      }
    }
    return new Grants(caller, names, grants);
  }

  public Caller caller() {
    return caller;
  }

  /** The VarroaRoleBindings that name the caller. */
  public List<String> bindings() {
    return bindings;
  }

  /** Whether any binding grants the permission somewhere: a list the caller may make, even if it comes back empty. */
  public boolean anywhere(Permission permission) {
    return grants.stream().anyMatch(g -> covers(g.rule(), permission));
  }

  /** Whether any binding grants the permission somewhere in the cluster. */
  public boolean anywhereIn(Permission permission, String cluster) {
    return grants.stream().anyMatch(g -> covers(g.rule(), permission)
        && (g.rule().getClustersList().isEmpty() || g.rule().getClustersList().contains(cluster)));
  }

  public boolean allows(Permission permission, Target target) {
    return grants.stream().anyMatch(g -> covers(g.rule(), permission) && inScope(g, permission, target));
  }

  /** Refuses a list the caller may not make anywhere; the message names the permission and the fix. */
  public void requireAnywhere(Permission permission) throws Forbidden {
    if (!anywhere(permission)) {
      throw new Forbidden(refusal(permission, Optional.empty()), permission, Optional.empty());
    }
  }

  public void require(Permission permission, Target target) throws Forbidden {
    if (!allows(permission, target)) {
      throw new Forbidden(refusal(permission, Optional.of(target)), permission, Optional.of(target));
    }
  }

  private String refusal(Permission permission, Optional<Target> target) {
    String what = caller + " may not " + permission + target.map(t -> " of " + t.describe()).orElse("");
    if (bindings.isEmpty()) {
      return what + ": no VarroaRoleBinding names this user or one of its groups; fix: bind a VarroaRole that"
          + " allows " + permission + " to " + caller.user();
    }
    return what + ": missing permission " + permission + (target.isPresent() ? " there" : "") + " (bindings: "
        + String.join(", ", bindings) + "); fix: add a rule with verbs [" + permission.verb() + "] and resources ["
        + permission.resource() + "]" + (target.isPresent() ? " covering it" : "") + " to a bound VarroaRole";
  }

  private static boolean covers(AccessRule rule, Permission permission) {
    boolean verb = rule.getVerbsList().contains(permission.verb()) || rule.getVerbsList().contains("all");
    boolean resource = rule.getResourcesList().contains(permission.resource()) || rule.getResourcesList().contains("*");
    return verb && resource;
  }

  private static boolean inScope(Grant grant, Permission permission, Target target) {
    AccessRule rule = grant.rule();
    if (!rule.getClustersList().isEmpty() && !rule.getClustersList().contains(target.cluster())) {
      return false;
    }
    // a cluster is seen by whoever may read it anywhere in it; namespaces and controllers do not narrow it
    if (Permission.CLUSTERS.equals(permission.resource()) && !Permission.DRAIN.equals(permission.verb())) {
      return true;
    }
    // an action on a whole cluster (drain) falls through to the installation-wide case: only an unscoped grant
    boolean scoped = !grant.bindingNamespaces().isEmpty() || !rule.getNamespacesList().isEmpty()
        || !rule.getControllersList().isEmpty() || rule.getControllerLabelsCount() > 0;
    if (target.global()) {
      // installation-wide events belong to no namespace: only an unscoped grant covers them
      return !scoped;
    }
    if (!grant.bindingNamespaces().isEmpty() && !grant.bindingNamespaces().contains(target.namespace())) {
      return false;
    }
    if (!rule.getNamespacesList().isEmpty() && !rule.getNamespacesList().contains(target.namespace())) {
      return false;
    }
    if (!rule.getControllersList().isEmpty() && !rule.getControllersList().contains(target.controller())) {
      return false;
    }
    return rule.getControllerLabelsMap().entrySet().stream()
        .allMatch(e -> e.getValue().equals(target.labels().get(e.getKey())));
  }
}
