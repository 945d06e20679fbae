package dev.varroa.operator.render.resolve;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.varroa.api.v1alpha1.AgentsNamespaceAllowance;
import dev.varroa.api.v1alpha1.AgentsSpec;
import dev.varroa.api.v1alpha1.BackupSpec;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerClass;
import dev.varroa.api.v1alpha1.ControllerSettings;
import dev.varroa.api.v1alpha1.ControllerSpec;
import dev.varroa.api.v1alpha1.HibernationSpec;
import dev.varroa.api.v1alpha1.IngressSpec;
import dev.varroa.api.v1alpha1.JenkinsSpec;
import dev.varroa.api.v1alpha1.MiteSpec;
import dev.varroa.api.v1alpha1.ObjectRef;
import dev.varroa.api.v1alpha1.PersistenceSpec;
import dev.varroa.api.v1alpha1.PodCustomization;
import dev.varroa.api.v1alpha1.ProvisioningDefaults;
import dev.varroa.api.v1alpha1.ProvisioningDefaultsSpec;
import dev.varroa.api.v1alpha1.ReconciliationSpec;
import dev.varroa.api.v1alpha1.SecretVariable;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Resolves a Controller's settings: ProvisioningDefaults (named {@code default}, may be absent) &lt;
 * ControllerClass (may be absent) &lt; Controller, field by field, then the built-in defaults below.
 * Nested objects (jenkins, persistence, ingress, agents, miteSpec, reconciliation) merge field by
 * field; a list (env, secrets, imagePullSecrets) is taken whole from the most specific object that
 * sets it; podTemplate labels and annotations merge key by key and podTemplate.spec merges as
 * {@link PodSpecMerge} documents. Pure: reads its arguments, writes nothing.
 */
public final class ControllerSettingsResolver {
  /** "Resolved default: 20Gi" (PersistenceSpec.size). */
  public static final String DEFAULT_PERSISTENCE_SIZE = "20Gi";
  /** "Resolved default: &lt;controller-namespace&gt;-jobs" (AgentsSpec.namespace). */
  public static final String AGENTS_NAMESPACE_SUFFIX = "-jobs";
  /** Agents connect straight to the agent port unless told to use WebSocket. */
  public static final AgentsSpec.Tunnel DEFAULT_TUNNEL = AgentsSpec.Tunnel.direct;
  /** "The default drain timeout is 900 seconds." */
  public static final int DEFAULT_DRAIN_TIMEOUT_SECONDS = ReconciliationSpec.DEFAULT_DRAIN_TIMEOUT_SECONDS;
  /** "Each desired-state command has a deadline. The default is 20 minutes." */
  public static final int DEFAULT_COMMAND_DEADLINE_SEC = ProvisioningDefaultsSpec.DEFAULT_COMMAND_DEADLINE_SEC;
  /** The operator release this code is; the default mite image carries the same version. */
  public static final String OPERATOR_VERSION = "0.1.0";
  /** "mite image; omitted: the image matching the operator's version." */
  public static final String DEFAULT_MITE_IMAGE = "ghcr.io/varroa/mite:" + OPERATOR_VERSION;
  /** Kubernetes' limit on a namespace name. */
  static final int MAX_NAMESPACE_LENGTH = 63;

  /** The resolved settings, and every problem the caller must report before rendering them. */
  public record Resolution(ResolvedController controller, List<SettingsProblem> problems) {
    public Resolution {
      problems = List.copyOf(problems);
    }

    public boolean ok() {
      return problems.isEmpty();
    }
  }

  /** One settings object and how problems name it. */
  private record Level(ControllerSettings settings, String where) {}

  private final List<Level> chain = new ArrayList<>();
  private final List<SettingsProblem> problems = new ArrayList<>();

  private final String defaultMiteImage;

  private ControllerSettingsResolver(String defaultMiteImage) {
    this.defaultMiteImage = defaultMiteImage;
  }

  public static Resolution resolve(Controller controller, Optional<ControllerClass> controllerClass,
      Optional<ProvisioningDefaults> defaults) {
    return resolve(controller, controllerClass, defaults, DEFAULT_MITE_IMAGE);
  }

  /** @param defaultMiteImage the mite image when no level names one: the installation's (chart value image.*) */
  public static Resolution resolve(Controller controller, Optional<ControllerClass> controllerClass,
      Optional<ProvisioningDefaults> defaults, String defaultMiteImage) {
    return new ControllerSettingsResolver(defaultMiteImage).run(controller, controllerClass, defaults);
  }

  private Resolution run(Controller controller, Optional<ControllerClass> controllerClass,
      Optional<ProvisioningDefaults> defaults) {
    ControllerSpec spec = controller.getSpec() != null ? controller.getSpec() : new ControllerSpec();
    String name = controller.getMetadata().getName();
    String namespace = controller.getMetadata().getNamespace();
    chain.add(new Level(spec, "spec"));
    checkClass(spec, controllerClass);
    controllerClass.filter(c -> c.getSpec() != null)
        .ifPresent(c -> chain.add(new Level(c.getSpec(), "ControllerClass " + c.getMetadata().getName() + " spec")));
    defaults.filter(d -> d.getSpec() != null)
        .ifPresent(d -> chain.add(new Level(d.getSpec(), "ProvisioningDefaults " + d.getMetadata().getName() + " spec")));

    ResolvedController resolved = new ResolvedController(name, namespace, controller.getMetadata().getUid(),
        new TreeMap<>(controller.getMetadata().getLabels() == null ? Map.of() : controller.getMetadata().getLabels()),
        spec.powerState == ControllerSpec.PowerState.Stopped,
        Optional.ofNullable(pick(s -> s.composedBundleRef, (ObjectRef r) -> r.name)),
        Optional.ofNullable(spec.versionProfileRef).map(r -> r.name),
        Optional.ofNullable(inherited(s -> s.versionProfileRef)).map(r -> r.name),
        jenkins(), persistence(), ingress(), agents(namespace, defaults), mite(),
        orDefault(pick(s -> s.reconciliation, (ReconciliationSpec r) -> r.drainTimeoutSeconds),
            DEFAULT_DRAIN_TIMEOUT_SECONDS),
        defaults.map(d -> d.getSpec()).map(s -> s.commandDeadlineSec).orElse(DEFAULT_COMMAND_DEADLINE_SEC),
        pod(), secrets(), spec.buildClaims != null && Boolean.TRUE.equals(spec.buildClaims.gate), backup(),
        hibernation(), Optional.ofNullable(spec.restore).map(r -> r.volumeSnapshotName));
    return new Resolution(resolved, problems);
  }

  private void checkClass(ControllerSpec spec, Optional<ControllerClass> controllerClass) {
    if (spec.classRef != null && controllerClass.map(c -> c.getMetadata().getName()).filter(spec.classRef.name::equals)
        .isEmpty()) {
      problems.add(new SettingsProblem("spec.classRef.name", "ControllerClass " + spec.classRef.name + " not found",
          "create the ControllerClass " + spec.classRef.name + " or remove spec.classRef"));
    }
  }

  private ResolvedController.Jenkins jenkins() {
    Function<ControllerSettings, JenkinsSpec> jenkins = s -> s.jenkins;
    return new ResolvedController.Jenkins(
        Optional.ofNullable(pick(jenkins, j -> j.image)),
        Optional.ofNullable(pick(jenkins, j -> j.imagePullPolicy)).map(Enum::name),
        Optional.ofNullable(pick(jenkins, j -> j.resources)),
        Optional.ofNullable(pick(jenkins, j -> j.javaOpts)),
        orDefault(pick(jenkins, (JenkinsSpec j) -> j.env), List.<EnvVar>of()));
  }

  private ResolvedController.Persistence persistence() {
    Function<ControllerSettings, PersistenceSpec> persistence = s -> s.persistence;
    return new ResolvedController.Persistence(orDefault(pick(persistence, p -> p.size), DEFAULT_PERSISTENCE_SIZE),
        Optional.ofNullable(pick(persistence, p -> p.storageClassName)));
  }

  private ResolvedController.Backup backup() {
    Function<ControllerSettings, BackupSpec> backup = s -> s.backup;
    return new ResolvedController.Backup(Optional.ofNullable(pick(backup, b -> b.schedule)),
        orDefault(pick(backup, b -> b.keep), BackupSpec.DEFAULT_KEEP),
        Optional.ofNullable(pick(backup, b -> b.volumeSnapshotClassName)),
        orDefault(pick(backup, b -> b.quietDownTimeoutSeconds), BackupSpec.DEFAULT_QUIET_DOWN_TIMEOUT_SECONDS));
  }

  private ResolvedController.Hibernation hibernation() {
    Function<ControllerSettings, HibernationSpec> hibernation = s -> s.hibernation;
    return new ResolvedController.Hibernation(Optional.ofNullable(pick(hibernation, h -> h.idleMinutes)),
        orDefault(pick(hibernation, h -> h.wakeAheadMinutes), HibernationSpec.DEFAULT_WAKE_AHEAD_MINUTES));
  }

  private ResolvedController.Ingress ingress() {
    Function<ControllerSettings, IngressSpec> ingress = s -> s.ingress;
    boolean enabled = Boolean.TRUE.equals(pick(ingress, i -> i.enabled));
    Optional<String> host = Optional.ofNullable(pick(ingress, i -> i.host));
    if (enabled && host.isEmpty()) {
      problems.add(new SettingsProblem("spec.ingress.host", "ingress is enabled but no host is set",
          "set spec.ingress.host, e.g. jenkins.example.com, or set spec.ingress.enabled to false"));
    }
    return new ResolvedController.Ingress(enabled, host, Optional.ofNullable(pick(ingress, i -> i.className)),
        Optional.ofNullable(pick(ingress, i -> i.tls == null ? null : i.tls.secretName)));
  }

  private ResolvedController.Agents agents(String controllerNamespace, Optional<ProvisioningDefaults> defaults) {
    Function<ControllerSettings, AgentsSpec> agents = s -> s.agents;
    String fallback = controllerNamespace + AGENTS_NAMESPACE_SUFFIX;
    String namespace = orDefault(pick(agents, a -> a.namespace), fallback);
    // a namespace named by ProvisioningDefaults or a ControllerClass is an administrator's choice already
    boolean ownChoice = chain.get(0).settings().agents != null && chain.get(0).settings().agents.namespace != null;
    if (namespace.equals(controllerNamespace)) {
      problems.add(new SettingsProblem("spec.agents.namespace",
          "the agents namespace is the controller's own namespace, where Jenkins must get no rights",
          "set spec.agents.namespace to another namespace, e.g. " + fallback));
    } else if (namespace.length() > MAX_NAMESPACE_LENGTH) {
      problems.add(new SettingsProblem("spec.agents.namespace",
          "the default agents namespace " + namespace + " is longer than 63 characters",
          "set spec.agents.namespace to a shorter name"));
    } else if (ownChoice && !namespace.equals(fallback) && !allowed(defaults, controllerNamespace, namespace)
        && !namespace.equals(inherited(s -> s.agents == null ? null : s.agents.namespace))) {
      problems.add(new SettingsProblem("spec.agents.namespace",
          "agents namespace " + namespace + " is neither " + fallback + " nor allowed for namespace "
              + controllerNamespace,
          "remove spec.agents.namespace to use " + fallback + ", or ask an administrator to add " + namespace
              + " to ProvisioningDefaults " + ProvisioningDefaults.DEFAULT_NAME
              + " spec.allowedAgentsNamespaces for controllerNamespace " + controllerNamespace));
    }
    List<String> pullSecrets = orDefault(pick(agents, (AgentsSpec a) -> a.imagePullSecrets), List.<ObjectRef>of())
        .stream().map(r -> r.name).toList();
    return new ResolvedController.Agents(namespace, orDefault(pick(agents, a -> a.tunnel), DEFAULT_TUNNEL),
        pullSecrets, Optional.ofNullable(pick(agents, a -> a.knownHosts)));
  }

  /** The allowances in ProvisioningDefaults (cluster-scoped, written by administrators only). */
  static boolean allowed(Optional<ProvisioningDefaults> defaults, String controllerNamespace, String agentsNamespace) {
    List<AgentsNamespaceAllowance> allowances = defaults.map(ProvisioningDefaults::getSpec)
        .map(s -> s.allowedAgentsNamespaces).orElse(List.of());
    return allowances.stream().anyMatch(a -> controllerNamespace.equals(a.controllerNamespace)
        && a.agentsNamespaces != null && a.agentsNamespaces.contains(agentsNamespace));
  }

  private ResolvedController.Mite mite() {
    Function<ControllerSettings, MiteSpec> mite = s -> s.miteSpec;
    return new ResolvedController.Mite(orDefault(pick(mite, m -> m.image), defaultMiteImage),
        Optional.ofNullable(pick(mite, m -> m.imagePullPolicy)).map(Enum::name),
        Optional.ofNullable(pick(mite, m -> m.resources)));
  }

  /** Least specific first, so the Controller's keys land last and win. */
  private ResolvedController.PodCustomisation pod() {
    TreeMap<String, String> labels = new TreeMap<>();
    TreeMap<String, String> annotations = new TreeMap<>();
    ObjectNode spec = null;
    for (int i = chain.size() - 1; i >= 0; i--) {
      PodCustomization pod = chain.get(i).settings().podTemplate;
      if (pod == null) {
        continue;
      }
      if (pod.labels != null) {
        labels.putAll(pod.labels);
      }
      if (pod.annotations != null) {
        annotations.putAll(pod.annotations);
      }
      if (pod.spec != null) {
        spec = spec == null ? pod.spec.deepCopy() : PodSpecMerge.merge(spec, pod.spec);
      }
    }
    return new ResolvedController.PodCustomisation(labels, annotations, Optional.ofNullable(spec));
  }

  private List<SecretVariable> secrets() {
    for (Level level : chain) {
      List<SecretVariable> secrets = level.settings().secrets;
      if (secrets != null) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < secrets.size(); i++) {
          String name = secrets.get(i).name;
          if (!seen.add(name)) {
            problems.add(new SettingsProblem(level.where() + ".secrets[" + i + "].name",
                "secret variable " + name + " is declared twice",
                "keep one entry named " + name + " in " + level.where() + ".secrets"));
          }
        }
        return secrets;
      }
    }
    return List.of();
  }

  private <T> T pick(Function<ControllerSettings, T> field) {
    for (Level level : chain) {
      T value = field.apply(level.settings());
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  private <N, T> T pick(Function<ControllerSettings, N> parent, Function<N, T> field) {
    return pick(s -> {
      N nested = parent.apply(s);
      return nested == null ? null : field.apply(nested);
    });
  }

  /** The class's, else the defaults' value: what the Controller would inherit. */
  private <T> T inherited(Function<ControllerSettings, T> field) {
    return chain.stream().skip(1).map(level -> field.apply(level.settings())).filter(v -> v != null).findFirst()
        .orElse(null);
  }

  private static <T> T orDefault(T value, T fallback) {
    return value != null ? value : fallback;
  }
}
