package dev.varroa.operator.install;

import java.util.Locale;

/** The chart's two shapes: the core cluster runs NATS itself, a member (hive) connects to the core's. */
public enum InstallMode {
  FULL, HIVE;

  /** @param value VARROA_INSTALL_MODE as the chart sets it */
  public static InstallMode parse(String value) {
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "full" -> FULL;
      case "hive" -> HIVE;
      default -> throw new IllegalArgumentException(InstallationSettings.ENV_MODE + "='" + value
          + "' is not an install mode; fix: set it to full (core cluster) or hive (member cluster)");
    };
  }
}
