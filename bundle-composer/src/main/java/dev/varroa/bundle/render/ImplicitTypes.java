package dev.varroa.bundle.render;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which plain scalars a YAML reader takes as something other than a string. Jenkins reads JCasC
 * with YAML 1.1 rules, so those (plus YAML 1.2's) decide, erring towards "typed": a string that
 * looks typed is quoted on output, which never changes its meaning.
 */
final class ImplicitTypes {
  private static final Set<String> NULLS = Set.of("", "~", "null", "Null", "NULL");
  private static final Set<String> TRUES = Set.of("true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y", "Y");
  private static final Set<String> FALSES = Set.of("false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "n", "N");
  private static final Pattern INT = Pattern.compile(
      "[-+]?0b_*[01][01_]*|[-+]?0_*[0-7][0-7_]*|[-+]?0o[0-7]+|[-+]?(?:0|[1-9][0-9_]*)"
          + "|[-+]?0x_*[0-9a-fA-F][0-9a-fA-F_]*|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+");
  private static final Pattern FLOAT = Pattern.compile(
      "[-+]?(?:\\.[0-9]+|[0-9][0-9_]*(?:\\.[0-9_]*)?|\\.[0-9_]+)(?:[eE][-+]?[0-9]+)?"
          + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)");
  private static final Pattern TIMESTAMP = Pattern.compile("[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?");
  private static final Set<String> SPECIAL = Set.of("<<", "=");

  private ImplicitTypes() {}

  static boolean isNull(String plain) {
    return NULLS.contains(plain) || plain.isBlank();
  }

  /** True when a reader would not take this plain text as a string. */
  static boolean isTyped(String plain) {
    return isNull(plain) || TRUES.contains(plain) || FALSES.contains(plain) || SPECIAL.contains(plain)
        || mayBeNumberOrDate(plain) && (INT.matcher(plain).matches() || FLOAT.matcher(plain).matches()
            || TIMESTAMP.matcher(plain).matches());
  }

  /** Every number, .inf/.nan and timestamp form starts with one of these; most strings are spared the regexes. */
  private static boolean mayBeNumberOrDate(String plain) {
    char first = plain.charAt(0);
    return first == '-' || first == '+' || first == '.' || (first >= '0' && first <= '9');
  }

  /** One spelling per meaning for the forms YAML treats as equal (all nulls, all booleans). */
  static String canonical(String plain) {
    if (isNull(plain)) {
      return "null:";
    }
    if (TRUES.contains(plain)) {
      return "bool:true";
    }
    if (FALSES.contains(plain)) {
      return "bool:false";
    }
    return "plain:" + plain;
  }
}
