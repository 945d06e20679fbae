package dev.varroa.operator;

import dev.varroa.operator.controller.ControllerSettings;
import dev.varroa.operator.install.InstallationSettings;
import dev.varroa.operator.cell.CellIsolation;
import dev.varroa.operator.render.resolve.InstallationDefaults;
import dev.varroa.operator.updatecenter.ManagedUpdateCenterSettings;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the operator is built from, read once from its environment in {@link VarroaOperator#main}: no constructor
 * reads the environment.
 *
 * @param cacheDirectory where Git sources are cached ({@value #ENV_CACHE_DIR})
 * @param leaseNamespace namespace of the leader-election Lease ({@value #ENV_LEASE_NAMESPACE}, default the pod's
 *     namespace); empty runs without election (a single local replica, tests)
 * @param plainHttpRegistries OCI registries (host:port) bundles are read from over plain HTTP
 *     ({@value #ENV_PLAIN_HTTP_REGISTRIES}, comma-separated)
 * @param clusterName the cluster activity is published under and registered as (see {@link #clusterName(Map,
 *     Optional)})
 * @param httpPort port of /healthz, /readyz and /metrics ({@value #ENV_HTTP_PORT})
 * @param updateCenters where and how managed UpdateCenters run (namespace, default image, status poll)
 * @param controllers what the installation gives every Controller (chart values, waker Service, home copy image)
 * @param cellIsolation the egress of cells when networkPolicy.cellIsolation is on ({@value CellIsolation#ENV})
 */
public record OperatorSettings(Path cacheDirectory, Optional<String> leaseNamespace, Set<String> plainHttpRegistries,
    String clusterName, int httpPort, ManagedUpdateCenterSettings updateCenters, ControllerSettings controllers,
    Optional<CellIsolation> cellIsolation) {
  public static final String ENV_CACHE_DIR = "VARROA_CACHE_DIR";
  public static final String DEFAULT_CACHE_DIR = "/var/cache/varroa";
  public static final String ENV_LEASE_NAMESPACE = "VARROA_LEASE_NAMESPACE";
  public static final String ENV_PLAIN_HTTP_REGISTRIES = "VARROA_PLAIN_HTTP_REGISTRIES";
  public static final String ENV_HTTP_PORT = "VARROA_HTTP_PORT";

  public OperatorSettings {
    plainHttpRegistries = Set.copyOf(plainHttpRegistries);
  }

  /**
   * An operator for a test or a local run: no election, no plain-HTTP registry, the {@value
   * VarroaOperator#LOCAL_CLUSTER_NAME} cluster, an update center namespace of {@value
   * ManagedUpdateCenterSettings#DEFAULT_NAMESPACE}, no chart values and no waker Service.
   */
  public static OperatorSettings defaults(Path cacheDirectory) {
    return new OperatorSettings(cacheDirectory, Optional.empty(), Set.of(), VarroaOperator.LOCAL_CLUSTER_NAME,
        VarroaOperator.DEFAULT_HTTP_PORT, ManagedUpdateCenterSettings.fromEnv(Map.of()), ControllerSettings.defaults(),
        Optional.empty());
  }

  /**
   * @param namespace the operator pod's namespace (POD_NAMESPACE)
   * @param installation the installed operator's settings, when the chart installed it
   */
  public static OperatorSettings fromEnv(Map<String, String> env, String namespace,
      Optional<InstallationSettings> installation) {
    // An empty VARROA_LEASE_NAMESPACE runs without leader election, for a single local replica.
    String lease = env.getOrDefault(ENV_LEASE_NAMESPACE, namespace).strip();
    Set<String> plainHttp = Arrays.stream(env.getOrDefault(ENV_PLAIN_HTTP_REGISTRIES, "").split(","))
        .map(String::strip).filter(r -> !r.isEmpty()).collect(Collectors.toSet());
    return new OperatorSettings(Path.of(env.getOrDefault(ENV_CACHE_DIR, DEFAULT_CACHE_DIR)),
        lease.isEmpty() ? Optional.empty() : Optional.of(lease), plainHttp, clusterName(env, installation),
        httpPort(env), ManagedUpdateCenterSettings.fromEnv(env),
        ControllerSettings.fromEnv(env, Optional.of(namespace)), CellIsolation.fromEnv(env));
  }

  /**
   * The cluster activity is published under: the installation's (VARROA_CLUSTER_NAME, default core), or for a local
   * run VARROA_CLUSTER_NAME or {@value VarroaOperator#LOCAL_CLUSTER_NAME}, as the gateway and the recorder default it.
   */
  public static String clusterName(Map<String, String> env, Optional<InstallationSettings> installation) {
    if (installation.isPresent() && !installation.get().clusterName().isBlank()) {
      return installation.get().clusterName().strip();
    }
    String named = env.get(InstallationSettings.ENV_CLUSTER_NAME);
    return named == null || named.isBlank() ? VarroaOperator.LOCAL_CLUSTER_NAME : named.strip();
  }

  /** @param namespace where the Lease lives; null or blank runs without leader election */
  public OperatorSettings withLeaseNamespace(String namespace) {
    return new OperatorSettings(cacheDirectory, Optional.ofNullable(namespace).filter(n -> !n.isBlank()),
        plainHttpRegistries, clusterName, httpPort, updateCenters, controllers, cellIsolation);
  }

  public OperatorSettings withPlainHttpRegistries(Set<String> registries) {
    return new OperatorSettings(cacheDirectory, leaseNamespace, registries, clusterName, httpPort, updateCenters,
        controllers, cellIsolation);
  }

  public OperatorSettings withUpdateCenters(ManagedUpdateCenterSettings changed) {
    return new OperatorSettings(cacheDirectory, leaseNamespace, plainHttpRegistries, clusterName, httpPort, changed,
        controllers, cellIsolation);
  }

  public OperatorSettings withInstallation(InstallationDefaults installation) {
    return new OperatorSettings(cacheDirectory, leaseNamespace, plainHttpRegistries, clusterName, httpPort,
        updateCenters, controllers.withInstallation(installation), cellIsolation);
  }

  /** Cells with networkPolicy.cellIsolation's egress. */
  public OperatorSettings withCellIsolation(CellIsolation isolation) {
    return new OperatorSettings(cacheDirectory, leaseNamespace, plainHttpRegistries, clusterName, httpPort,
        updateCenters, controllers, Optional.of(isolation));
  }

  private static int httpPort(Map<String, String> env) {
    String port = env.getOrDefault(ENV_HTTP_PORT, "").strip();
    if (port.isEmpty()) {
      return VarroaOperator.DEFAULT_HTTP_PORT;
    }
    try {
      return Integer.parseInt(port);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(ENV_HTTP_PORT + "=" + port + " is not a port number; fix: set a number"
          + " between 0 and 65535, or unset it for " + VarroaOperator.DEFAULT_HTTP_PORT, e);
    }
  }
}
