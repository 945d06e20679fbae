package dev.varroa.operator.render;

import dev.varroa.api.v1alpha1.JenkinsRole;
import dev.varroa.api.v1alpha1.JenkinsRoleBinding;
import dev.varroa.api.v1alpha1.Subject;
import dev.varroa.bundle.render.PluginLock;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.operator.render.resolve.JenkinsLogin;
import dev.varroa.operator.render.resolve.PodSpecMerge;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Jenkins' own authorization from the JenkinsRoleBindings that apply to one Controller, as a JCasC file of its own:
 * {@code jenkins.authorizationStrategy} from matrix-auth when no bound role has an itemPattern, from role-strategy
 * when one has (matrix-auth has no patterns), and, when the operator has a Jenkins login provider, the oic-auth
 * security realm signing people in with it. The Varroa identity (the mite's token) keeps Overall/Administer in
 * either strategy, or the mite could not apply the next configuration. No binding applies: nothing is rendered.
 */
public final class JenkinsAuthorizationRenderer {
  /** Its own file next to the bundle's jcasc.yaml, as the cloud and security fragments. */
  public static final String FILE = "varroa-authorization.yaml";
  public static final String MATRIX_AUTH = "matrix-auth";
  public static final String ROLE_STRATEGY = "role-strategy";
  public static final String OIC_AUTH = "oic-auth";
  /** A public client has no secret: oic-auth sends this (empty) one, which the provider's public client matches. */
  static final String PUBLIC_CLIENT_SECRET = "";
  /** The Jenkins user a verified mite bearer token runs as (the plugin's VarroaIdentity.USER_ID). */
  public static final String VARROA_USER = "varroa";
  /** Not a DNS-1123 name, so no JenkinsRole can take the operator's own role-strategy role. */
  public static final String VARROA_ROLE = "_varroa";
  static final String ADMINISTER = "Overall/Administer";
  /** What a folder's subject needs globally to reach the folder at all; the folder's matrix grants the rest. */
  static final String OVERALL_READ = "Overall/Read";

  private JenkinsAuthorizationRenderer() {}

  /**
   * What one Controller's authorization renders from.
   *
   * @param namespace the Controller's namespace, which a binding's spec.namespaces must list (omitted: every one)
   * @param bindings every JenkinsRoleBinding in the cluster
   * @param roles a JenkinsRole by name
   * @param profileName the JenkinsVersionProfile in force, named in messages
   * @param bundleName how messages name the bundle, e.g. {@code ComposedBundle team-a}
   * @param bundle the bundle's render: its plugin lock and the JCasC it sets itself
   * @param login the operator's Jenkins login provider; empty: no realm is rendered
   */
  public record Request(String namespace, List<JenkinsRoleBinding> bindings,
      Function<String, Optional<JenkinsRole>> roles, String profileName, String bundleName, RenderedBundle bundle,
      Optional<JenkinsLogin> login) {
    public Request {
      bindings = List.copyOf(bindings);
    }
  }

  /** What the render found. */
  public sealed interface Outcome {}

  /** No binding applies: Jenkins keeps what the bundle says. */
  public record NoBinding() implements Outcome {}

  /** The authorization file. */
  public record Rendered(Authorization authorization) implements Outcome {}

  /** The bindings cannot be rendered; the message names the binding, the plugin or field, and the fix. */
  public record Refused(String message) implements Outcome {}

  /**
   * The rendered file.
   *
   * @param yaml the JCasC document
   * @param strategyPlugin matrix-auth or role-strategy
   * @param realm the login provider the file configures as oic-auth realm; empty when it sets no realm
   * @param bindings the names of the bindings that applied, sorted
   */
  public record Authorization(String yaml, String strategyPlugin, Optional<JenkinsLogin> realm,
      List<String> bindings) {
    public Authorization {
      bindings = List.copyOf(bindings);
    }

    /** The JCasC paths this file sets, which Varroa's security fragment must leave alone. */
    public Set<String> paths() {
      return realm.isPresent() ? Set.of(SecurityFragment.STRATEGY_PATH, SecurityFragment.REALM_PATH)
          : Set.of(SecurityFragment.STRATEGY_PATH);
    }
  }

  /** A bound role with its grantees, users and groups each sorted. */
  private record Grant(String role, List<String> permissions, Optional<String> itemPattern, Set<String> users,
      Set<String> groups) {}

  public static Outcome render(Request request) {
    return render(request, Optional.empty());
  }

  /**
   * A cell's authorization (docs/cells.md): always rendered, as matrix-auth's {@code projectMatrix}, the one strategy
   * that honours the folders' own matrices; every subject of its folders gets Overall/Read on top of what the bindings
   * grant, so it can reach the folder whose matrix lets it in. The cell's plugin list always holds matrix-auth.
   *
   * @param cell the cell's generated layer; empty: a Controller that is no cell, as {@link #render(Request)}
   */
  public static Outcome render(Request request, Optional<CellLayer> cell) {
    List<JenkinsRoleBinding> applying = request.bindings().stream().filter(b -> appliesTo(b, request.namespace()))
        .sorted(Comparator.comparing(b -> b.getMetadata().getName())).toList();
    if (applying.isEmpty() && cell.isEmpty()) {
      return new NoBinding();
    }
    List<String> names = applying.stream().map(b -> b.getMetadata().getName()).toList();
    String bindingsNamed = names.isEmpty() ? "the cell's folder-scoped authorization"
        : "JenkinsRoleBinding " + String.join(", ", names);

    Map<String, Grant> grants = new TreeMap<>();
    for (JenkinsRoleBinding binding : applying) {
      String bindingName = binding.getMetadata().getName();
      String roleName = binding.getSpec() == null || binding.getSpec().roleRef == null ? null
          : binding.getSpec().roleRef.name;
      Optional<JenkinsRole> role = roleName == null ? Optional.empty() : request.roles().apply(roleName);
      if (role.isEmpty() || role.get().getSpec() == null || role.get().getSpec().permissions == null) {
        return new Refused("JenkinsRoleBinding " + bindingName + ": spec.roleRef.name names JenkinsRole " + roleName
            + ", which does not exist; fix: create JenkinsRole " + roleName + ", or correct spec.roleRef.name");
      }
      List<Subject> subjects = binding.getSpec().subjects == null ? List.of() : binding.getSpec().subjects;
      Grant grant = grants.computeIfAbsent(roleName, n -> new Grant(n,
          role.get().getSpec().permissions.stream().distinct().sorted().toList(),
          Optional.ofNullable(role.get().getSpec().itemPattern).filter(p -> !p.isBlank()), new TreeSet<>(),
          new TreeSet<>()));
      for (int i = 0; i < subjects.size(); i++) {
        Subject subject = subjects.get(i);
        if (subject.kind == Subject.Kind.User && VARROA_USER.equals(subject.name)) {
          return new Refused("JenkinsRoleBinding " + bindingName + ": spec.subjects[" + i + "] is User " + VARROA_USER
              + ", the identity the mite's token runs as in Jenkins; fix: remove that subject (the operator grants"
              + " that identity " + ADMINISTER + " itself)");
        }
        (subject.kind == Subject.Kind.Group ? grant.groups() : grant.users()).add(subject.name);
      }
    }

    boolean patterns = grants.values().stream().anyMatch(g -> g.itemPattern().isPresent());
    if (patterns && cell.isPresent()) {
      String role = grants.values().stream().filter(g -> g.itemPattern().isPresent()).findFirst().orElseThrow().role();
      return new Refused(bindingsNamed + " applies to this cell and JenkinsRole " + role + " has an itemPattern, which"
          + " needs " + ROLE_STRATEGY + ", but a cell's folders are scoped with " + MATRIX_AUTH + "'s projectMatrix;"
          + " fix: remove spec.itemPattern from JenkinsRole " + role + ", or leave the cell's namespace out of the"
          + " binding's spec.namespaces");
    }
    String strategyPlugin = patterns ? ROLE_STRATEGY : MATRIX_AUTH;
    Set<String> locked = new java.util.HashSet<>(request.bundle().lock().plugins().stream().map(PluginLock::id)
        .collect(Collectors.toSet()));
    if (cell.isPresent()) {
      locked.add(MATRIX_AUTH);
    }
    String lockOf = "the plugin lock of JenkinsVersionProfile " + request.profileName() + " (" + request.bundleName()
        + ")";
    if (!locked.contains(strategyPlugin)) {
      String why = patterns ? "a bound JenkinsRole has an itemPattern, which only " + ROLE_STRATEGY + " can express"
          : "no bound JenkinsRole has an itemPattern";
      return new Refused(bindingsNamed + " applies to this Controller and needs plugin " + strategyPlugin + " (" + why
          + "), which is not in " + lockOf + "; fix: add " + strategyPlugin + " to JenkinsVersionProfile "
          + request.profileName() + " spec.plugins, or narrow the binding's spec.namespaces");
    }
    if (SecurityFragment.sets(request.bundle(), SecurityFragment.STRATEGY_PATH)) {
      return new Refused(request.bundleName() + " sets " + SecurityFragment.STRATEGY_PATH + " and " + bindingsNamed
          + " applies to this Controller, but Jenkins takes one authorization strategy; fix: remove"
          + " authorizationStrategy from the bundle" + (cell.isPresent() ? " (a cell's folders need Varroa's)"
          : ", or narrow the binding's spec.namespaces"));
    }
    // a bundle's own realm (LDAP, say) wins over the installation's provider, as it wins over the Varroa realm
    Optional<JenkinsLogin> realm = request.login()
        .filter(l -> !SecurityFragment.sets(request.bundle(), SecurityFragment.REALM_PATH));
    if (realm.isPresent() && !locked.contains(OIC_AUTH)) {
      return new Refused(bindingsNamed + " applies to this Controller and the operator signs people in to Jenkins with"
          + " the OpenID provider " + realm.get().issuer() + " (jenkinsLogin.issuer), which needs plugin " + OIC_AUTH
          + ", not in " + lockOf + "; fix: add " + OIC_AUTH + " to JenkinsVersionProfile " + request.profileName()
          + " spec.plugins, or set a securityRealm in the bundle");
    }

    Map<String, Object> jenkins = new LinkedHashMap<>();
    realm.ifPresent(login -> jenkins.put("securityRealm", Map.of("oic", oidcRealm(login))));
    jenkins.put("authorizationStrategy", patterns ? roleBased(grants.values())
        : cell.isPresent() ? projectMatrix(grants.values(), cell.get()) : globalMatrix(grants.values()));
    String yaml = PodSpecMerge.SERIALIZATION.asYaml(Map.of("jenkins", jenkins));
    return new Rendered(new Authorization(yaml, strategyPlugin, realm, names));
  }

  /** Whether a binding reaches Controllers of this namespace: it lists it, or lists none. */
  public static boolean appliesTo(JenkinsRoleBinding binding, String namespace) {
    List<String> namespaces = binding.getSpec() == null ? null : binding.getSpec().namespaces;
    return namespaces == null || namespaces.isEmpty() || namespaces.contains(namespace);
  }

  /** matrix-auth 3.x: one entry per user and per group, each with the union of its roles' permissions. */
  private static Map<String, Object> globalMatrix(Iterable<Grant> grants) {
    return Map.of("globalMatrix", Map.of("entries", matrixEntries(grants, List.of())));
  }

  /** The same entries as projectMatrix, so each folder's own matrix applies, and Overall/Read for the folders' subjects. */
  private static Map<String, Object> projectMatrix(Iterable<Grant> grants, CellLayer cell) {
    return Map.of("projectMatrix", Map.of("entries", matrixEntries(grants, cell.subjects())));
  }

  private static List<Map<String, Object>> matrixEntries(Iterable<Grant> grants, List<Subject> readers) {
    Map<String, Set<String>> users = new TreeMap<>();
    Map<String, Set<String>> groups = new TreeMap<>();
    users.put(VARROA_USER, new TreeSet<>(List.of(ADMINISTER)));
    for (Grant grant : grants) {
      grant.users().forEach(u -> users.computeIfAbsent(u, k -> new TreeSet<>()).addAll(grant.permissions()));
      grant.groups().forEach(g -> groups.computeIfAbsent(g, k -> new TreeSet<>()).addAll(grant.permissions()));
    }
    for (Subject reader : readers) {
      (reader.kind == Subject.Kind.Group ? groups : users).computeIfAbsent(reader.name, k -> new TreeSet<>())
          .add(OVERALL_READ);
    }
    List<Map<String, Object>> entries = new ArrayList<>();
    users.forEach((name, permissions) -> entries.add(matrixEntry("user", name, permissions)));
    groups.forEach((name, permissions) -> entries.add(matrixEntry("group", name, permissions)));
    return entries;
  }

  private static Map<String, Object> matrixEntry(String kind, String name, Set<String> permissions) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("name", name);
    entry.put("permissions", List.copyOf(permissions));
    return Map.of(kind, entry);
  }

  /** role-strategy: a role without itemPattern is a global role, one with it an item role matching that pattern. */
  private static Map<String, Object> roleBased(Iterable<Grant> grants) {
    List<Map<String, Object>> global = new ArrayList<>();
    List<Map<String, Object>> items = new ArrayList<>();
    global.add(role(new Grant(VARROA_ROLE, List.of(ADMINISTER), Optional.empty(), Set.of(VARROA_USER), Set.of())));
    for (Grant grant : grants) {
      (grant.itemPattern().isPresent() ? items : global).add(role(grant));
    }
    Map<String, Object> roles = new LinkedHashMap<>();
    roles.put("global", global);
    if (!items.isEmpty()) {
      roles.put("items", items);
    }
    return Map.of("roleBased", Map.of("roles", roles));
  }

  private static Map<String, Object> role(Grant grant) {
    Map<String, Object> role = new LinkedHashMap<>();
    role.put("name", grant.role());
    grant.itemPattern().ifPresent(pattern -> role.put("pattern", pattern));
    role.put("permissions", grant.permissions());
    List<Map<String, String>> entries = new ArrayList<>();
    grant.users().forEach(u -> entries.add(Map.of("user", u)));
    grant.groups().forEach(g -> entries.add(Map.of("group", g)));
    role.put("entries", entries);
    return role;
  }

  /**
   * oic-auth 4.x: endpoints from the provider's discovery document, a public client proving each code exchange with
   * PKCE (S256). The empty secret is what a public client presents (oic-auth has no "none" method; Dex compares it
   * with the public client's empty secret); every tenant's Jenkins admin reads this file, so it holds nothing secret.
   */
  private static Map<String, Object> oidcRealm(JenkinsLogin login) {
    Map<String, Object> wellKnown = new LinkedHashMap<>();
    wellKnown.put("wellKnownOpenIDConfigurationUrl", login.wellKnownUrl());
    wellKnown.put("scopesOverride", login.scopes());
    Map<String, Object> realm = new LinkedHashMap<>();
    realm.put("clientId", login.clientId());
    realm.put("clientSecret", PUBLIC_CLIENT_SECRET);
    realm.put("pkceEnabled", true);
    realm.put("serverConfiguration", Map.of("wellKnown", wellKnown));
    realm.put("userNameField", login.usernameClaim());
    realm.put("groupsFieldName", login.groupsClaim());
    return realm;
  }
}
