package dev.varroa.operator.access;

import dev.varroa.api.v1alpha1.Subject;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.api.v1alpha1.VarroaRoleBinding;
import dev.varroa.api.v1alpha1.VarroaRoleSpec;
import dev.varroa.protocol.bus.v1.AccessBinding;
import dev.varroa.protocol.bus.v1.AccessPolicy;
import dev.varroa.protocol.bus.v1.AccessRole;
import dev.varroa.protocol.bus.v1.AccessRule;
import dev.varroa.protocol.bus.v1.AccessSubject;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Every VarroaRole and VarroaRoleBinding as the BFF reads them (AccessPolicy), in name order so the same objects
 * always give the same bytes and an unchanged policy is not written again.
 */
public final class AccessPolicyRenderer {

  private AccessPolicyRenderer() {}

  public static AccessPolicy render(Collection<VarroaRole> roles, Collection<VarroaRoleBinding> bindings) {
    AccessPolicy.Builder policy = AccessPolicy.newBuilder();
    roles.stream().filter(r -> r.getSpec() != null && r.getSpec().rules != null)
        .sorted(Comparator.comparing(r -> r.getMetadata().getName()))
        .forEach(r -> policy.addRoles(role(r)));
    bindings.stream().filter(b -> b.getSpec() != null && b.getSpec().roleRef != null)
        .sorted(Comparator.comparing(b -> b.getMetadata().getName()))
        .forEach(b -> policy.addBindings(binding(b)));
    return policy.build();
  }

  private static AccessRole role(VarroaRole role) {
    AccessRole.Builder out = AccessRole.newBuilder().setName(role.getMetadata().getName());
    for (VarroaRoleSpec.Rule rule : role.getSpec().rules) {
      AccessRule.Builder r = AccessRule.newBuilder();
      list(rule.verbs).forEach(v -> r.addVerbs(v.name()));
      r.addAllResources(list(rule.resources));
      r.addAllClusters(list(rule.clusters));
      r.addAllNamespaces(list(rule.namespaces));
      r.addAllControllers(list(rule.controllers));
      Optional.ofNullable(rule.controllerSelector).map(s -> s.matchLabels).ifPresent(r::putAllControllerLabels);
      out.addRules(r);
    }
    return out.build();
  }

  private static AccessBinding binding(VarroaRoleBinding binding) {
    AccessBinding.Builder out = AccessBinding.newBuilder()
        .setName(binding.getMetadata().getName())
        .setRole(binding.getSpec().roleRef.name)
        .addAllNamespaces(list(binding.getSpec().namespaces));
    for (Subject subject : list(binding.getSpec().subjects)) {
      if (subject.kind != null && subject.name != null) {
        out.addSubjects(AccessSubject.newBuilder().setKind(subject.kind.name()).setName(subject.name));
      }
    }
    return out.build();
  }

  private static <T> List<T> list(List<T> values) {
    return values == null ? List.of() : values;
  }
}
