package dev.varroa.bundle.render;

/** Dotted YAML paths as problems, the lock and explain write them: {@code jenkins.clouds[kubernetes/k8s].namespace}. */
final class JcascPath {
  private JcascPath() {}

  static String key(String parent, String key) {
    return parent.isEmpty() ? key : parent + "." + key;
  }

  static String element(String parent, String identityOrIndex) {
    return parent + "[" + identityOrIndex + "]";
  }
}
