package dev.varroa.bundle.render;

/**
 * One plugin an input lists in its plugins file.
 *
 * @param version the pinned version, or null when the input takes the profile's
 * @param origin where it is listed
 */
record PluginPin(String id, String version, Origin origin) {
  boolean pinned() {
    return version != null;
  }
}
