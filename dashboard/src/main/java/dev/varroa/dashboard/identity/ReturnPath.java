package dev.varroa.dashboard.identity;

import java.util.Locale;
import java.util.Optional;

/**
 * Where a browser may land after its login: a path on the BFF itself, never anything a browser could read as
 * another host. Browsers take {@code \} for {@code /}, drop tabs and newlines from URLs and resolve {@code //host}
 * as an authority, so only printable ASCII without backslash, starting with exactly one {@code /}, and a path part
 * without encoded slashes, encoded controls or dot segments is kept.
 */
public final class ReturnPath {

  /** Where a login lands when it asked for nothing, or for something refused. */
  public static final String DEFAULT = "/";
  /** Longer return paths are refused: the dashboard's own links are far shorter. */
  public static final int MAX_LENGTH = 2048;

  private ReturnPath() {}

  /** The path to land on: {@code returnTo} when it is a safe path on this server, else {@link #DEFAULT}. */
  public static String landing(String returnTo) {
    return returnTo == null || returnTo.isEmpty() || refusal(returnTo).isPresent() ? DEFAULT : returnTo;
  }

  /** Why {@code returnTo} is not a path on this server, or empty when it is one. */
  public static Optional<String> refusal(String returnTo) {
    if (returnTo.length() > MAX_LENGTH) {
      return Optional.of("longer than " + MAX_LENGTH + " characters");
    }
    if (!returnTo.startsWith("/")) {
      return Optional.of("not a path starting with '/'");
    }
    for (int i = 0; i < returnTo.length(); i++) {
      char c = returnTo.charAt(i);
      if (c < 0x21 || c > 0x7e) {
        return Optional.of("a space, control or non-ASCII character at index " + i);
      }
      if (c == '\\') {
        return Optional.of("a backslash at index " + i);
      }
    }
    if (returnTo.startsWith("//")) {
      return Optional.of("starts with '//' (another host)");
    }
    int end = firstOf(returnTo, '?', '#');
    String path = returnTo.substring(0, end);
    String lower = path.toLowerCase(Locale.ROOT);
    if (lower.contains("%2f") || lower.contains("%5c")) {
      return Optional.of("an encoded '/' or '\\' in the path");
    }
    for (int i = lower.indexOf('%'); i >= 0; i = lower.indexOf('%', i + 1)) {
      if (!hex(lower, i + 1) || !hex(lower, i + 2)) {
        return Optional.of("a '%' that is not followed by two hex digits in the path");
      }
      int value = Integer.parseInt(lower.substring(i + 1, i + 3), 16);
      if (value < 0x21 || value == 0x7f || value >= 0x80) {
        return Optional.of("an encoded space, control or non-ASCII byte in the path");
      }
    }
    for (String segment : lower.split("/", -1)) {
      String decoded = segment.replace("%2e", ".");
      if (decoded.equals(".") || decoded.equals("..")) {
        return Optional.of("a '.' or '..' segment in the path");
      }
    }
    return Optional.empty();
  }

  private static boolean hex(String text, int index) {
    return index < text.length() && Character.digit(text.charAt(index), 16) >= 0;
  }

  private static int firstOf(String text, char a, char b) {
    int ia = text.indexOf(a);
    int ib = text.indexOf(b);
    if (ia < 0) {
      return ib < 0 ? text.length() : ib;
    }
    return ib < 0 ? ia : Math.min(ia, ib);
  }
}
