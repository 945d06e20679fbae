package dev.varroa.operator.render.naming;

import java.util.Objects;

/**
 * The StatefulSet name {@code <name>-<uid8>} (seed 000, "Diagnose a Mite"): uid8 is the first 8
 * characters of the Controller's UID, so a Controller deleted and re-created under the same name
 * gets a new StatefulSet and never adopts the old one's pods.
 */
public final class StatefulSetName {
  /**
   * Longest StatefulSet name: the controller-revision-hash label value is {@code <sts>-<10 char hash>}
   * and must stay within 63, which also keeps pod names ({@code <sts>-0}) in bounds.
   */
  public static final int MAX_LENGTH = 52;
  /** Put before a name that starts with a digit: Service names (DNS-1035) must start with a letter. */
  public static final String DIGIT_PREFIX = "c-";
  static final int UID_CHARS = 8;

  private StatefulSetName() {}

  public static String of(String controllerName, String uid) {
    String compact = Objects.requireNonNull(uid, "the Controller's metadata.uid names its StatefulSet").replace("-", "");
    String uid8 = compact.substring(0, Math.min(UID_CHARS, compact.length()));
    // dots are legal in a Controller name but not in a Service name or pod host name
    String base = controllerName.replace('.', '-');
    if (!base.isEmpty() && Character.isDigit(base.charAt(0))) {
      base = DIGIT_PREFIX + base;
    }
    int room = MAX_LENGTH - uid8.length() - 1;
    if (base.length() > room) {
      base = base.substring(0, room);
    }
    base = base.replaceAll("-+$", "");
    return base + "-" + uid8;
  }
}
