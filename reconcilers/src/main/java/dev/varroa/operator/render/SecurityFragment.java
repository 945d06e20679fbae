package dev.varroa.operator.render;

import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.operator.render.resolve.PodSpecMerge;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Varroa's own JCasC for Jenkins' security, so no Controller starts unsecured: the Varroa security realm
 * (the mite's token is the way in) and, when no bundle sets one, the Varroa authorization strategy
 * (Overall/Administer to the Varroa identity, nothing to anyone else: fail closed). A key the bundle
 * sets is left out, since JCasC refuses the same describable from two files; the plugin's bearer
 * filter verifies the mite's token whatever realm is in force. The symbols are the plugin's contract.
 */
public final class SecurityFragment {
  /** Its own file next to the bundle's jcasc.yaml, as the cloud fragment. */
  public static final String FILE = "varroa-security.yaml";
  /** The plugin's SecurityRealm and AuthorizationStrategy JCasC symbol. */
  public static final String SYMBOL = "varroa";
  public static final String REALM_PATH = "jenkins.securityRealm";
  public static final String STRATEGY_PATH = "jenkins.authorizationStrategy";

  private SecurityFragment() {}

  /** The fragment's YAML; empty when the bundle sets both realm and strategy itself. */
  public static Optional<String> render(RenderedBundle bundle) {
    return render(bundle, Set.of());
  }

  /** The fragment's YAML without the paths another Varroa file ({@code taken}, e.g. the JenkinsRoleBindings') sets. */
  public static Optional<String> render(RenderedBundle bundle, Set<String> taken) {
    Map<String, Object> jenkins = new LinkedHashMap<>();
    if (!sets(bundle, REALM_PATH) && !taken.contains(REALM_PATH)) {
      jenkins.put("securityRealm", Map.of(SYMBOL, Map.of()));
    }
    if (!sets(bundle, STRATEGY_PATH) && !taken.contains(STRATEGY_PATH)) {
      jenkins.put("authorizationStrategy", Map.of(SYMBOL, Map.of()));
    }
    if (jenkins.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(PodSpecMerge.SERIALIZATION.asYaml(Map.of("jenkins", jenkins)));
  }

  static boolean sets(RenderedBundle bundle, String path) {
    return bundle.explain(path).filter(e -> e.present()).isPresent();
  }
}
