package dev.varroa.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.JenkinsRole;
import dev.varroa.api.v1alpha1.JenkinsRoleBinding;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.operator.render.resolve.JenkinsLogin;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** JenkinsRoleBindings to a Controller's authorization file: plugin choice, subjects, scoping, refusals. */
class JenkinsAuthorizationRendererTest {
  private static final String ALL_AUTH_PLUGINS = """
          - {id: matrix-auth, version: "3.2.6"}
          - {id: role-strategy, version: "756.v978cb_392eb_d3"}
          - {id: oic-auth, version: "4.482.v1140b_fe87a_33"}
      """;
  private static final JenkinsLogin LOGIN = new JenkinsLogin("https://dex.example.com/dex", "varroa-jenkins",
      "email", "groups", "openid profile email groups");

  private static final JenkinsRole READER = role("reader", "permissions: [Overall/Read, Job/Read]");
  private static final JenkinsRole ADMIN = role("admin", "permissions: [Overall/Administer]");
  private static final JenkinsRole DEPLOYER = role("deployer",
      "permissions: [Job/Build, Job/Read]\nitemPattern: \"deploy/.*\"");

  @Test
  void rendersMatrixAuthEntriesForUsersAndGroupsWhenNoRoleHasAPattern() {
    Map<String, Object> strategy = strategy(rendered(request(List.of(
        binding("readers", "reader", "[{kind: Group, name: devs}, {kind: User, name: alice@example.com}]", null),
        binding("admins", "admin", "[{kind: User, name: alice@example.com}]", null)), Optional.empty())));

    List<Map<String, Object>> entries = list(map(strategy.get("globalMatrix")).get("entries"));
    assertThat(entries).containsExactly(
        Map.of("user", Map.of("name", "alice@example.com",
            "permissions", List.of("Job/Read", "Overall/Administer", "Overall/Read"))),
        Map.of("user", Map.of("name", "varroa", "permissions", List.of("Overall/Administer"))),
        Map.of("group", Map.of("name", "devs", "permissions", List.of("Job/Read", "Overall/Read"))));
  }

  @Test
  void rendersRoleStrategyWithItemRolesWhenABoundRoleHasAPattern() {
    JenkinsAuthorizationRenderer.Authorization authorization = rendered(request(List.of(
        binding("readers", "reader", "[{kind: Group, name: devs}]", null),
        binding("deployers", "deployer", "[{kind: User, name: bob@example.com}, {kind: Group, name: ops}]", null)),
        Optional.empty()));

    assertThat(authorization.strategyPlugin()).isEqualTo("role-strategy");
    Map<String, Object> roles = map(map(strategy(authorization).get("roleBased")).get("roles"));
    assertThat(list(roles.get("global"))).containsExactly(
        Map.of("name", "_varroa", "permissions", List.of("Overall/Administer"), "entries", List.of(Map.of("user", "varroa"))),
        Map.of("name", "reader", "permissions", List.of("Job/Read", "Overall/Read"),
            "entries", List.of(Map.of("group", "devs"))));
    assertThat(list(roles.get("items"))).containsExactly(Map.of("name", "deployer", "pattern", "deploy/.*",
        "permissions", List.of("Job/Build", "Job/Read"),
        "entries", List.of(Map.of("user", "bob@example.com"), Map.of("group", "ops"))));
  }

  @Test
  void appliesOnlyBindingsThatListTheControllersNamespaceOrNone() {
    JenkinsAuthorizationRenderer.Authorization authorization = rendered(request(List.of(
        binding("everywhere", "reader", "[{kind: User, name: all@example.com}]", null),
        binding("here", "reader", "[{kind: User, name: ci@example.com}]", "[ci, qa]"),
        binding("elsewhere", "admin", "[{kind: User, name: other@example.com}]", "[qa]")), Optional.empty()));

    assertThat(authorization.bindings()).containsExactly("everywhere", "here");
    assertThat(authorization.yaml()).contains("all@example.com", "ci@example.com").doesNotContain("other@example.com");
  }

  @Test
  void rendersNothingWhenNoBindingApplies() {
    assertThat(JenkinsAuthorizationRenderer.render(request(List.of(
        binding("elsewhere", "admin", "[{kind: User, name: other@example.com}]", "[qa]")), Optional.of(LOGIN))))
        .isInstanceOf(JenkinsAuthorizationRenderer.NoBinding.class);
    assertThat(JenkinsAuthorizationRenderer.render(request(List.of(), Optional.of(LOGIN))))
        .isInstanceOf(JenkinsAuthorizationRenderer.NoBinding.class);
  }

  @Test
  void rendersTheOidcRealmAsAPublicClientWithPkceAndNoSecret() {
    JenkinsAuthorizationRenderer.Authorization authorization = rendered(request(List.of(
        binding("readers", "reader", "[{kind: Group, name: devs}]", null)), Optional.of(LOGIN)));

    Map<String, Object> realm = map(map(jenkins(authorization).get("securityRealm")).get("oic"));
    // every tenant's Jenkins admin reads this realm: no secret, not even a variable for one
    assertThat(realm).containsEntry("clientId", "varroa-jenkins")
        .containsEntry("clientSecret", "").containsEntry("pkceEnabled", true)
        .containsEntry("userNameField", "email").containsEntry("groupsFieldName", "groups")
        .containsEntry("serverConfiguration", Map.of("wellKnown", Map.of(
            "wellKnownOpenIDConfigurationUrl", "https://dex.example.com/dex/.well-known/openid-configuration",
            "scopesOverride", "openid profile email groups")));
    assertThat(authorization.yaml()).doesNotContain("${");
    assertThat(authorization.realm()).contains(LOGIN);
    assertThat(authorization.paths()).containsExactlyInAnyOrder("jenkins.securityRealm", "jenkins.authorizationStrategy");
  }

  @Test
  void leavesTheRealmToABundleThatSetsOne() {
    JenkinsAuthorizationRenderer.Authorization authorization = rendered(new JenkinsAuthorizationRenderer.Request("ci",
        List.of(binding("readers", "reader", "[{kind: Group, name: devs}]", null)), JenkinsAuthorizationRendererTest::roles,
        "lts", "ComposedBundle team-a", bundle("jenkins:\n  securityRealm:\n    ldap:\n      configurations:\n"
            + "        - server: ldap.example.com\n", ALL_AUTH_PLUGINS), Optional.of(LOGIN)));

    assertThat(jenkins(authorization)).doesNotContainKey("securityRealm");
    assertThat(authorization.paths()).containsExactly("jenkins.authorizationStrategy");
  }

  @Test
  void refusesABindingWhosePluginIsNotInTheLockNamingBindingPluginProfileAndFix() {
    String matrixMissing = refused(new JenkinsAuthorizationRenderer.Request("ci",
        List.of(binding("readers", "reader", "[{kind: Group, name: devs}]", null)), JenkinsAuthorizationRendererTest::roles,
        "lts", "ComposedBundle team-a", bundle(RenderFixtures.JCASC, ""), Optional.empty()));
    assertThat(matrixMissing).contains("JenkinsRoleBinding readers", "plugin matrix-auth",
        "JenkinsVersionProfile lts", "fix: add matrix-auth to JenkinsVersionProfile lts spec.plugins");

    String roleStrategyMissing = refused(new JenkinsAuthorizationRenderer.Request("ci",
        List.of(binding("deployers", "deployer", "[{kind: Group, name: ops}]", null)),
        JenkinsAuthorizationRendererTest::roles, "lts", "ComposedBundle team-a",
        bundle(RenderFixtures.JCASC, "    - {id: matrix-auth, version: \"3.2.6\"}\n"), Optional.empty()));
    assertThat(roleStrategyMissing).contains("JenkinsRoleBinding deployers", "plugin role-strategy", "itemPattern",
        "fix: add role-strategy to JenkinsVersionProfile lts spec.plugins");

    String oicMissing = refused(new JenkinsAuthorizationRenderer.Request("ci",
        List.of(binding("readers", "reader", "[{kind: Group, name: devs}]", null)), JenkinsAuthorizationRendererTest::roles,
        "lts", "ComposedBundle team-a", bundle(RenderFixtures.JCASC, "    - {id: matrix-auth, version: \"3.2.6\"}\n"),
        Optional.of(LOGIN)));
    assertThat(oicMissing).contains("JenkinsRoleBinding readers", "plugin oic-auth", "https://dex.example.com/dex",
        "fix: add oic-auth to JenkinsVersionProfile lts spec.plugins");
  }

  @Test
  void refusesAMissingRoleTheReservedUserAndABundleStrategy() {
    assertThat(refused(request(List.of(binding("typo", "raeder", "[{kind: User, name: a@example.com}]", null)),
        Optional.empty()))).contains("JenkinsRoleBinding typo", "spec.roleRef.name", "JenkinsRole raeder",
        "does not exist", "fix:");
    assertThat(refused(request(List.of(binding("sneaky", "reader", "[{kind: User, name: varroa}]", null)),
        Optional.empty()))).contains("JenkinsRoleBinding sneaky", "spec.subjects[0]", "User varroa", "fix:");
    assertThat(refused(new JenkinsAuthorizationRenderer.Request("ci",
        List.of(binding("readers", "reader", "[{kind: Group, name: devs}]", null)), JenkinsAuthorizationRendererTest::roles,
        "lts", "ComposedBundle team-a", bundle("jenkins:\n  authorizationStrategy:\n    loggedInUsersCanDoAnything:\n"
            + "      allowAnonymousRead: false\n", ALL_AUTH_PLUGINS), Optional.empty())))
        .contains("ComposedBundle team-a sets jenkins.authorizationStrategy", "JenkinsRoleBinding readers", "fix:");
  }

  @Test
  void theJcascConfigMapCarriesTheFileAndTheSecurityFragmentStepsAside() {
    JenkinsAuthorizationRenderer.Authorization authorization = rendered(request(List.of(
        binding("readers", "reader", "[{kind: Group, name: devs}]", null)), Optional.of(LOGIN)));
    RenderInput plain = RenderFixtures.input("");
    RenderInput input = new RenderInput(plain.controller(), plain.profile(), plain.bundle(), Optional.empty(),
        List.of(), plain.channel(), plain.installation(), Optional.of(authorization));

    Map<String, String> data = JcascConfigMapRenderer.render(input).getData();
    assertThat(data).containsEntry("varroa-authorization.yaml", authorization.yaml())
        .doesNotContainKey("varroa-security.yaml");
    assertThat(JcascConfigMapRenderer.render(plain).getData()).doesNotContainKey("varroa-authorization.yaml")
        .containsKey("varroa-security.yaml");
  }

  @Test
  void rendersACellsProjectMatrixWithoutAnyBindingGivingEachFolderSubjectOverallRead() {
    CellLayer cell = CellFixtures.layer(List.of(CellFixtures.team("alpha",
        "subjects: [{kind: User, name: alice}, {kind: Group, name: alpha-devs}]\n")), Map.of());
    // the bundle's lock has no matrix-auth: a cell's plugin list always adds it
    JenkinsAuthorizationRenderer.Outcome outcome = JenkinsAuthorizationRenderer.render(new JenkinsAuthorizationRenderer
        .Request("ci", List.of(), JenkinsAuthorizationRendererTest::roles, "lts", "ComposedBundle team-a",
        bundle(RenderFixtures.JCASC, ""), Optional.empty()), Optional.of(cell));

    assertThat(outcome).isInstanceOf(JenkinsAuthorizationRenderer.Rendered.class);
    JenkinsAuthorizationRenderer.Authorization authorization =
        ((JenkinsAuthorizationRenderer.Rendered) outcome).authorization();
    assertThat(strategy(authorization)).containsOnlyKeys("projectMatrix");
    assertThat(list(map(strategy(authorization).get("projectMatrix")).get("entries"))).containsExactly(
        Map.of("user", Map.of("name", "alice", "permissions", List.of("Overall/Read"))),
        Map.of("user", Map.of("name", "varroa", "permissions", List.of("Overall/Administer"))),
        Map.of("group", Map.of("name", "alpha-devs", "permissions", List.of("Overall/Read"))));
    assertThat(JenkinsAuthorizationRenderer.render(request(List.of(), Optional.empty()), Optional.empty()))
        .as("no cell, no binding: nothing").isInstanceOf(JenkinsAuthorizationRenderer.NoBinding.class);
  }

  @Test
  void keepsACellsBindingsInItsProjectMatrixAndRefusesAnItemPatternNamingRoleAndFix() {
    CellLayer cell = CellFixtures.layer(List.of(CellFixtures.team("alpha", "subjects: [{kind: Group, name: devs}]\n")),
        Map.of());
    JenkinsAuthorizationRenderer.Outcome outcome = JenkinsAuthorizationRenderer.render(request(List.of(
        binding("readers", "reader", "[{kind: Group, name: devs}]", null)), Optional.empty()), Optional.of(cell));
    assertThat(list(map(strategy(((JenkinsAuthorizationRenderer.Rendered) outcome).authorization())
        .get("projectMatrix")).get("entries"))).contains(
        Map.of("group", Map.of("name", "devs", "permissions", List.of("Job/Read", "Overall/Read"))));

    JenkinsAuthorizationRenderer.Outcome patterned = JenkinsAuthorizationRenderer.render(request(List.of(
        binding("deployers", "deployer", "[{kind: Group, name: ops}]", null)), Optional.empty()), Optional.of(cell));
    assertThat(patterned).isInstanceOfSatisfying(JenkinsAuthorizationRenderer.Refused.class, r -> assertThat(
        r.message()).contains("JenkinsRoleBinding deployers applies to this cell", "JenkinsRole deployer has an"
        + " itemPattern", "fix: remove spec.itemPattern from JenkinsRole deployer"));
  }

  private static JenkinsAuthorizationRenderer.Request request(List<JenkinsRoleBinding> bindings,
      Optional<JenkinsLogin> login) {
    return new JenkinsAuthorizationRenderer.Request("ci", bindings, JenkinsAuthorizationRendererTest::roles, "lts",
        "ComposedBundle team-a", bundle(RenderFixtures.JCASC, ALL_AUTH_PLUGINS), login);
  }

  private static Optional<JenkinsRole> roles(String name) {
    return Stream.of(READER, ADMIN, DEPLOYER).filter(r -> r.getMetadata().getName().equals(name)).findFirst();
  }

  private static RenderedBundle bundle(String jcasc, String extraPlugins) {
    JenkinsVersionProfile profile = RenderFixtures.object(JenkinsVersionProfile.class,
        RenderFixtures.PROFILE + extraPlugins);
    return RenderFixtures.bundle(jcasc, profile);
  }

  private static JenkinsRole role(String name, String spec) {
    return RenderFixtures.object(JenkinsRole.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: JenkinsRole
        metadata: {name: %s}
        spec:
        %s
        """.formatted(name, spec.indent(2)));
  }

  private static JenkinsRoleBinding binding(String name, String role, String subjects, String namespaces) {
    return RenderFixtures.object(JenkinsRoleBinding.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: JenkinsRoleBinding
        metadata: {name: %s}
        spec:
          roleRef: {name: %s}
          subjects: %s
        %s""".formatted(name, role, subjects, namespaces == null ? "" : "  namespaces: " + namespaces + "\n"));
  }

  private static JenkinsAuthorizationRenderer.Authorization rendered(JenkinsAuthorizationRenderer.Request request) {
    JenkinsAuthorizationRenderer.Outcome outcome = JenkinsAuthorizationRenderer.render(request);
    assertThat(outcome).isInstanceOf(JenkinsAuthorizationRenderer.Rendered.class);
    return ((JenkinsAuthorizationRenderer.Rendered) outcome).authorization();
  }

  private static String refused(JenkinsAuthorizationRenderer.Request request) {
    JenkinsAuthorizationRenderer.Outcome outcome = JenkinsAuthorizationRenderer.render(request);
    assertThat(outcome).isInstanceOf(JenkinsAuthorizationRenderer.Refused.class);
    return ((JenkinsAuthorizationRenderer.Refused) outcome).message();
  }

  private static Map<String, Object> jenkins(JenkinsAuthorizationRenderer.Authorization authorization) {
    return map(map(new Load(LoadSettings.builder().build()).loadFromString(authorization.yaml())).get("jenkins"));
  }

  private static Map<String, Object> strategy(JenkinsAuthorizationRenderer.Authorization authorization) {
    return map(jenkins(authorization).get("authorizationStrategy"));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return (Map<String, Object>) value;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> list(Object value) {
    return (List<Map<String, Object>>) value;
  }
}
