package dev.varroa.bundle.render;

/** One JCasC file of one input (or the profile's overlay), read and ready to merge. */
record Fragment(Source source, String file, YamlValue root) {}
