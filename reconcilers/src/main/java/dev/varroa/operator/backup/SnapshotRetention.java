package dev.varroa.operator.backup;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/** Which successful backups to delete once a new one is ready: all beyond the newest {@code keep}, unless in use. */
public final class SnapshotRetention {
  /** A successful backup snapshot and when it was taken. */
  public record Taken(String name, Instant at) {}

  /** What to keep (oldest first) and what to delete. */
  public record Decision(List<String> keep, List<String> delete) {}

  private SnapshotRetention() {}

  /** @param inUse snapshots a restore or a move of this Controller reads from: never deleted */
  public static Decision decide(List<Taken> successful, int keep, Set<String> inUse) {
    List<Taken> newestFirst = new ArrayList<>(successful);
    newestFirst.sort(Comparator.comparing(Taken::at).thenComparing(Taken::name).reversed());
    List<String> kept = new ArrayList<>();
    List<String> delete = new ArrayList<>();
    for (int i = 0; i < newestFirst.size(); i++) {
      String name = newestFirst.get(i).name();
      if (i < keep || inUse.contains(name)) {
        kept.add(0, name);
      } else {
        delete.add(name);
      }
    }
    return new Decision(List.copyOf(kept), List.copyOf(delete));
  }
}
