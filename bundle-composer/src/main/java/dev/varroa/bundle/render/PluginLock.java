package dev.varroa.bundle.render;

/** One plugin of the rendered set: a line of {@code plugins.txt} and an entry of the lock. */
public record PluginLock(String id, String version, PluginSource source) {}
