package dev.varroa.bundle.render;

/** One variable a variables.yaml defines. */
record Variable(String name, String value, Origin origin) {}
