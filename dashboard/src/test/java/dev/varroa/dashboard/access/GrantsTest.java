package dev.varroa.dashboard.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.dashboard.identity.Caller;
import dev.varroa.protocol.bus.v1.AccessBinding;
import dev.varroa.protocol.bus.v1.AccessPolicy;
import dev.varroa.protocol.bus.v1.AccessRole;
import dev.varroa.protocol.bus.v1.AccessRule;
import dev.varroa.protocol.bus.v1.AccessSubject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The decision over VarroaRoleBindings: users, groups, namespaces, controllers by name and label, none. */
class GrantsTest {

  private static final Permission LIST_CONTROLLERS = Permission.of("list", "controllers");
  private static final Permission LIST_ACTIVITY = Permission.of("list", "activity");
  private static final Target ORDERS = Target.controller("eu-1", "team-a", "orders", Map.of("tier", "prod"));
  private static final Target BILLING = Target.controller("eu-1", "team-a", "billing", Map.of("tier", "dev"));
  private static final Target SEARCH = Target.controller("eu-2", "team-b", "search", Map.of("tier", "prod"));

  private static final AccessPolicy POLICY = AccessPolicy.newBuilder()
      .addRoles(role("reader", AccessRule.newBuilder().addVerbs("list").addVerbs("get").addResources("*")))
      .addRoles(role("prod", AccessRule.newBuilder().addVerbs("all").addResources("controllers")
          .putControllerLabels("tier", "prod")))
      .addRoles(role("orders-only", AccessRule.newBuilder().addVerbs("list").addResources("controllers")
          .addControllers("orders").addClusters("eu-1")))
      .addBindings(binding("sre-everything", "reader", "Group", "sre"))
      .addBindings(binding("bob-team-b", "reader", "User", "bob").toBuilder().addNamespaces("team-b"))
      .addBindings(binding("carol-prod", "prod", "User", "carol"))
      .addBindings(binding("erin-orders", "orders-only", "User", "erin"))
      .addBindings(binding("ghost", "no-such-role", "User", "frank"))
      .build();

  @Test
  void drainingAClusterNeedsTheDrainVerbAndAGrantNotNarrowedToNamespaces() {
    Permission drain = Permission.of("drain", "clusters");
    AccessPolicy policy = AccessPolicy.newBuilder()
        .addRoles(role("drainer", AccessRule.newBuilder().addVerbs("drain").addResources("clusters")
            .addClusters("eu-2")))
        .addBindings(binding("ops-drain", "drainer", "User", "olga"))
        .addBindings(binding("team-drain", "drainer", "User", "tom").toBuilder().addNamespaces("team-b"))
        .addBindings(binding("sre-everything", "reader", "Group", "sre"))
        .addRoles(role("reader", AccessRule.newBuilder().addVerbs("list").addVerbs("get").addResources("*")))
        .build();

    assertThat(Grants.of(new Caller("olga", List.of()), policy).allows(drain, Target.cluster("eu-2"))).isTrue();
    assertThat(Grants.of(new Caller("olga", List.of()), policy).allows(drain, Target.cluster("eu-1")))
        .as("the rule names eu-2 only").isFalse();
    assertThat(Grants.of(new Caller("tom", List.of()), policy).allows(drain, Target.cluster("eu-2")))
        .as("a binding narrowed to a namespace cannot empty the whole cluster").isFalse();
    assertThatThrownBy(() -> Grants.of(new Caller("alice", List.of("sre")), policy).require(drain,
        Target.cluster("eu-2"))).isInstanceOf(Forbidden.class).hasMessageContaining("missing permission drain clusters");
  }

  @Test
  void aBroodOperationIsDecidedOnItsNamespaceAndNotByControllerScopedRules() {
    Permission list = Permission.of("list", "broodoperations");
    Target teamA = Target.namespaced("eu-1", "team-a");
    Target teamB = Target.namespaced("eu-2", "team-b");
    assertThat(Grants.of(new Caller("alice", List.of("sre")), POLICY).allows(list, teamA)).isTrue();
    assertThat(Grants.of(new Caller("bob", List.of()), POLICY).allows(list, teamB)).isTrue();
    assertThat(Grants.of(new Caller("bob", List.of()), POLICY).allows(list, teamA))
        .as("bob's binding is narrowed to team-b").isFalse();
    assertThat(Grants.of(new Caller("carol", List.of()), POLICY).allows(Permission.of("list", "broodoperations"),
        teamA)).as("carol's role names controllers only").isFalse();
    AccessPolicy byLabel = AccessPolicy.newBuilder()
        .addRoles(role("prod-ops", AccessRule.newBuilder().addVerbs("all").addResources("*")
            .putControllerLabels("tier", "prod")))
        .addBindings(binding("dan-prod", "prod-ops", "User", "dan")).build();
    assertThat(Grants.of(new Caller("dan", List.of()), byLabel).allows(Permission.of("update", "broodoperations"),
        teamA)).as("a rule scoped to Controllers by label does not reach an operation").isFalse();
    assertThat(teamA.describe()).isEqualTo("namespace team-a in cluster eu-1");
  }

  @Test
  void cellPoolsAndTeamsAreDecidedOnTheTenantsNamespaceInEveryCluster() {
    Target tenantB = Target.namespaced("eu-1", "team-b");
    Target tenantBElsewhere = Target.namespaced("eu-2", "team-b");
    Target tenantA = Target.namespaced("eu-1", "team-a");
    Grants bob = Grants.of(new Caller("bob", List.of()), POLICY);
    for (String resource : List.of("cellpools", "teams")) {
      assertThat(bob.allows(Permission.of("list", resource), tenantB)).isTrue();
      assertThat(bob.allows(Permission.of("list", resource), tenantBElsewhere)).as("the same tenant on a member")
          .isTrue();
      assertThat(bob.allows(Permission.of("list", resource), tenantA)).as("another tenant").isFalse();
      assertThat(Grants.of(new Caller("carol", List.of()), POLICY).allows(Permission.of("list", resource), tenantB))
          .as("carol's role names controllers only").isFalse();
      assertThat(Grants.of(new Caller("nobody", List.of()), POLICY).anywhere(Permission.of("list", resource)))
          .as("no binding, no data").isFalse();
    }
    assertThat(bob.allows(Permission.of("update", "cellpools"), tenantB)).as("reading does not scale").isFalse();
  }

  @Test
  void aGroupBindingCoversEveryMember() {
    Grants grants = Grants.of(new Caller("alice", List.of("sre")), POLICY);
    assertThat(grants.bindings()).containsExactly("sre-everything");
    assertThat(List.of(ORDERS, BILLING, SEARCH)).allMatch(t -> grants.allows(LIST_CONTROLLERS, t));
    assertThat(grants.allows(LIST_ACTIVITY, Target.cluster("eu-1"))).as("installation-wide events").isTrue();
    assertThat(grants.allows(Permission.of("watch", "activity"), ORDERS)).as("watch is not granted").isFalse();
  }

  @Test
  void aNamespaceScopedBindingSeesOnlyItsNamespaceAndNoInstallationWideEvents() {
    Grants grants = Grants.of(new Caller("bob", List.of()), POLICY);
    assertThat(grants.allows(LIST_CONTROLLERS, SEARCH)).isTrue();
    assertThat(grants.allows(LIST_CONTROLLERS, ORDERS)).isFalse();
    assertThat(grants.allows(LIST_ACTIVITY, Target.cluster("eu-2"))).isFalse();
  }

  @Test
  void rulesByLabelAndByNameAndCluster() {
    Grants carol = Grants.of(new Caller("carol", List.of()), POLICY);
    assertThat(carol.allows(LIST_CONTROLLERS, ORDERS)).isTrue();
    assertThat(carol.allows(LIST_CONTROLLERS, SEARCH)).isTrue();
    assertThat(carol.allows(LIST_CONTROLLERS, BILLING)).isFalse();
    assertThat(carol.allows(Permission.of("watch", "controllers"), ORDERS)).as("all covers every verb").isTrue();
    Grants erin = Grants.of(new Caller("erin", List.of()), POLICY);
    assertThat(erin.allows(LIST_CONTROLLERS, ORDERS)).isTrue();
    assertThat(erin.allows(LIST_CONTROLLERS, BILLING)).isFalse();
    assertThat(erin.allows(LIST_CONTROLLERS, Target.controller("eu-2", "team-a", "orders", Map.of()))).isFalse();
  }

  @Test
  void noBindingNoDataAndTheRefusalNamesThePermission() {
    Grants dave = Grants.of(new Caller("dave", List.of("devs")), POLICY);
    assertThat(dave.anywhere(LIST_CONTROLLERS)).isFalse();
    assertThatThrownBy(() -> dave.requireAnywhere(LIST_CONTROLLERS)).isInstanceOf(Forbidden.class)
        .hasMessageContaining("list controllers").hasMessageContaining("no VarroaRoleBinding names");
    Grants frank = Grants.of(new Caller("frank", List.of()), POLICY);
    assertThat(frank.bindings()).as("a binding to a missing role names the user but grants nothing")
        .containsExactly("ghost");
    assertThatThrownBy(() -> Grants.of(new Caller("bob", List.of()), POLICY).require(LIST_CONTROLLERS, ORDERS))
        .isInstanceOf(Forbidden.class).hasMessageContaining("team-a/orders").hasMessageContaining("bob-team-b");
  }

  private static AccessRole role(String name, AccessRule.Builder rule) {
    return AccessRole.newBuilder().setName(name).addRules(rule).build();
  }

  private static AccessBinding binding(String name, String role, String kind, String subject) {
    return AccessBinding.newBuilder().setName(name).setRole(role)
        .addSubjects(AccessSubject.newBuilder().setKind(kind).setName(subject)).build();
  }
}
