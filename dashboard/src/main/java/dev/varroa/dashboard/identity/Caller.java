package dev.varroa.dashboard.identity;

import java.util.List;

/**
 * Who is asking, as the identity provider named them: the user (the configured username claim) and their groups.
 * VarroaRoleBinding subjects are matched against exactly these names.
 */
public record Caller(String user, List<String> groups) {
  public Caller {
    groups = List.copyOf(groups);
  }

  @Override
  public String toString() {
    return groups.isEmpty() ? "user " + user : "user " + user + " (groups " + String.join(", ", groups) + ")";
  }
}
