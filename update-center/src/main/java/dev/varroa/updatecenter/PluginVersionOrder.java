package dev.varroa.updatecenter;

import java.util.Comparator;

/**
 * Orders plugin versions the way people read them: numeric parts as numbers ({@code 5.10.0} after
 * {@code 5.9.1}), other parts as text, a longer version after its prefix. Picks which held version an
 * update-center.json offers when several versions of one plugin are held.
 */
final class PluginVersionOrder implements Comparator<String> {
  static final PluginVersionOrder INSTANCE = new PluginVersionOrder();

  @Override
  public int compare(String a, String b) {
    String[] left = a.split("[.\\-_+]");
    String[] right = b.split("[.\\-_+]");
    for (int i = 0; i < Math.min(left.length, right.length); i++) {
      int order = part(left[i], right[i]);
      if (order != 0) {
        return order;
      }
    }
    return Integer.compare(left.length, right.length);
  }

  private static int part(String a, String b) {
    boolean numericA = !a.isEmpty() && a.chars().allMatch(Character::isDigit);
    boolean numericB = !b.isEmpty() && b.chars().allMatch(Character::isDigit);
    if (numericA && numericB) {
      return new java.math.BigInteger(a).compareTo(new java.math.BigInteger(b));
    }
    if (numericA != numericB) {
      return numericA ? 1 : -1;
    }
    return a.compareTo(b);
  }
}
