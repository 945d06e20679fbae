package dev.varroa.bundle.render;

import dev.varroa.bundle.render.MergedNode.ListNode;
import dev.varroa.bundle.render.MergedNode.MapNode;
import dev.varroa.bundle.render.MergedNode.ScalarNode;
import dev.varroa.bundle.render.YamlValue.Scalar;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Refuses a merged JCasC that leaves Jenkins open, since no Varroa Jenkins may run unsecured: the
 * operator renders the Varroa realm and strategy only where the bundle sets none, so what a bundle
 * sets must itself keep Jenkins closed. Each refusal is a conflict (ReconcileBlocked in the cluster)
 * naming the input and file that set the value. What is refused is listed in docs/bundles.md.
 */
final class SecurityCheck {
  static final String REALM = "jenkins.securityRealm";
  static final String STRATEGY = "jenkins.authorizationStrategy";
  /** AuthorizationStrategy.Unsecured's JCasC symbol: everyone, anonymous included, may do anything. */
  static final String UNSECURED = "unsecured";
  /** The realm that authenticates nobody. */
  static final String NO_REALM = "none";
  /** FullControlOnceLoggedInAuthorizationStrategy's symbol. */
  static final String LOGGED_IN_CAN_DO_ANYTHING = "loggedInUsersCanDoAnything";
  /** HudsonPrivateSecurityRealm's symbol; its allowsSignup lets anyone create an account. */
  static final String LOCAL_REALM = "local";
  /** matrix-auth's strategies. */
  static final Set<String> MATRIX = Set.of("globalMatrix", "projectMatrix");
  static final String ANONYMOUS = "anonymous";
  static final String ADMINISTER = "Overall/Administer";
  private static final String DEFAULT_FIX = "remove " + STRATEGY + " to get the Varroa strategy (Overall/Administer"
      + " to Varroa only, nothing to anyone else), or grant people explicitly, e.g. with globalMatrix";

  private SecurityCheck() {}

  static void check(MapNode root, Problems problems) {
    MergedNode jenkins = root.get(key("jenkins"));
    if (!(jenkins instanceof MapNode top)) {
      return;
    }
    MergedNode realm = top.get(key("securityRealm"));
    MergedNode strategy = top.get(key("authorizationStrategy"));
    Optional<String> realmSymbol = symbol(realm);
    Optional<String> strategySymbol = symbol(strategy);
    if (strategySymbol.filter(UNSECURED::equals).isPresent()) {
      refuse(problems, strategy, STRATEGY, "authorizationStrategy unsecured lets anyone, anonymous included, do"
          + " anything in Jenkins, and Varroa never runs an unsecured Jenkins", DEFAULT_FIX);
    }
    if (realmSymbol.filter(NO_REALM::equals).isPresent()) {
      refuse(problems, realm, REALM, "securityRealm none authenticates nobody, which leaves Jenkins to anonymous"
          + " users", "remove " + REALM + " to get the Varroa security realm, or set a realm that authenticates"
          + " people (ldap, oic, local without signup, ...)");
    }
    if (strategySymbol.filter(LOGGED_IN_CAN_DO_ANYTHING::equals).isPresent() && realmSymbol.filter(LOCAL_REALM::equals)
        .isPresent() && isTrue(child(child(realm, LOCAL_REALM), "allowsSignup"))) {
      refuse(problems, child(child(realm, LOCAL_REALM), "allowsSignup"), REALM + ".local.allowsSignup",
          "a local realm that allows signup with loggedInUsersCanDoAnything lets anyone create an account and"
              + " administer Jenkins", "set allowsSignup: false, or use a strategy that grants people explicitly");
    }
    strategySymbol.filter(MATRIX::contains).ifPresent(matrix -> checkMatrix(child(strategy, matrix),
        STRATEGY + "." + matrix, problems));
  }

  /** matrix-auth: an entry (or an old-style permission line) giving anonymous Overall/Administer. */
  private static void checkMatrix(MergedNode matrix, String path, Problems problems) {
    if (child(matrix, "entries") instanceof ListNode entries) {
      for (MergedNode entry : entries.items()) {
        if (!(entry instanceof MapNode map) || map.entries().size() != 1) {
          continue;
        }
        MapNode.Entry only = map.entries().iterator().next();
        MergedNode who = only.value();
        if (text(child(who, "name")).filter(ANONYMOUS::equalsIgnoreCase).isPresent()
            && child(who, "permissions") instanceof ListNode permissions
            && permissions.items().stream().anyMatch(p -> text(p).filter(ADMINISTER::equals).isPresent())) {
          refuse(problems, who, path + ".entries[" + only.key().text() + "/" + ANONYMOUS + "]",
              "the matrix grants " + ADMINISTER + " to anonymous, which leaves Jenkins open to anyone", fixMatrix());
        }
      }
    }
    if (child(matrix, "permissions") instanceof ListNode lines) {
      for (MergedNode line : lines.items()) {
        Optional<String> value = text(line);
        if (value.filter(v -> v.contains(ADMINISTER + ":") && v.endsWith(":" + ANONYMOUS)).isPresent()) {
          refuse(problems, line, path + ".permissions", "the matrix line '" + value.get() + "' grants "
              + ADMINISTER + " to anonymous, which leaves Jenkins open to anyone", fixMatrix());
        }
      }
    }
  }

  private static String fixMatrix() {
    return "grant " + ADMINISTER + " to a named group or user instead of anonymous";
  }

  private static void refuse(Problems problems, MergedNode node, String path, String message, String fix) {
    Origin origin = node.origin();
    problems.conflict(origin.input(), origin.file(), path, message, fix);
  }

  /** A describable's JCasC symbol: {@code unsecured}, {@code unsecured: {}} or {@code ldap: {...}}. */
  static Optional<String> symbol(MergedNode node) {
    if (node instanceof ScalarNode scalar) {
      return Optional.of(scalar.value().text().strip());
    }
    if (node instanceof MapNode map && map.entries().size() == 1) {
      return Optional.of(map.entries().iterator().next().key().text());
    }
    return Optional.empty();
  }

  private static MergedNode child(MergedNode node, String name) {
    return node instanceof MapNode map ? map.get(key(name)) : null;
  }

  private static Optional<String> text(MergedNode node) {
    return node instanceof ScalarNode scalar ? Optional.of(scalar.value().text().strip()) : Optional.empty();
  }

  private static boolean isTrue(MergedNode node) {
    return text(node).map(t -> t.toLowerCase(Locale.ROOT)).filter("true"::equals).isPresent();
  }

  private static String key(String name) {
    return Scalar.plain(name, 0).equalityKey();
  }
}
