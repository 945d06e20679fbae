package dev.varroa.testfixtures.kube.csi;

import java.util.Set;

/**
 * A StorageClass a {@link CsiStandIn} serves: its name, the CSI driver (the StorageClass's provisioner) and the
 * reclaim policy its volumes get.
 */
public record StorageClassSpec(String name, String driver, String reclaimPolicy) {
  public static final String DELETE = "Delete";
  public static final String RETAIN = "Retain";
  private static final Set<String> POLICIES = Set.of(DELETE, RETAIN);

  public StorageClassSpec {
    if (name == null || name.isBlank() || driver == null || driver.isBlank()) {
      throw new IllegalArgumentException("a stand-in StorageClass needs a name and a CSI driver, got name=" + name
          + " driver=" + driver);
    }
    if (!POLICIES.contains(reclaimPolicy)) {
      throw new IllegalArgumentException("StorageClass " + name + ": reclaimPolicy must be Delete or Retain, got "
          + reclaimPolicy);
    }
  }
}
