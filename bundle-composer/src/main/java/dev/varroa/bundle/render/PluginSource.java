package dev.varroa.bundle.render;

/** Why a plugin is in the set at its version, as {@code bundle.lock.json} writes it. */
public enum PluginSource {
  /** The profile lists it and no input pinned a version. */
  PROFILE("profile"),
  /** An input pinned it and the profile does not list it. */
  PIN("pin"),
  /** An input pinned the very version the profile lists. */
  PROFILE_AND_PIN("profile+pin");

  private final String label;

  PluginSource(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  public static PluginSource ofLabel(String label) {
    for (PluginSource source : values()) {
      if (source.label.equals(label)) {
        return source;
      }
    }
    throw new IllegalArgumentException("unknown plugin source '" + label + "': expected profile, pin or profile+pin");
  }
}
