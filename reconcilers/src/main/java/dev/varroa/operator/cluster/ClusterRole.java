package dev.varroa.operator.cluster;

import dev.varroa.operator.install.InstallMode;
import dev.varroa.operator.install.InstallationSettings;
import java.util.Optional;

/** What a cluster is in the registry: the core (full mode), a member (hive mode), or a local run. */
public enum ClusterRole {
  CORE("core"), MEMBER("member"), LOCAL("local");

  private final String value;

  ClusterRole(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  public static ClusterRole of(Optional<InstallationSettings> installation) {
    return installation.map(settings -> settings.mode() == InstallMode.HIVE ? MEMBER : CORE).orElse(LOCAL);
  }
}
