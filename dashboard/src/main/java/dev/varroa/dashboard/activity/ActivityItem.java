package dev.varroa.dashboard.activity;

import dev.varroa.dashboard.records.ControllerScope;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * One activity event in the BFF contract's JSON shape ({@code id, cluster, namespace, controller, kind, actor,
 * summary, occurredAt, attributes}), from the activity table (Backfill) or the bus (BusFanout) alike. id is the
 * event's UUID; an SSE event's id (the stream sequence) travels beside it, not in it.
 */
public record ActivityItem(String id, String cluster, String namespace, String controller, String kind,
    String actor, String summary, Instant occurredAt, Map<String, String> attributes) {

  public ActivityItem {
    // Sorted: the same event renders the same JSON from either source.
    attributes = attributes == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(attributes));
  }

  /** The event as published; an event that names no cluster belongs to fallbackCluster (the recorder does the same). */
  public static ActivityItem of(ActivityEvent event, String fallbackCluster) {
    return new ActivityItem(event.getId(), event.getCluster().isBlank() ? fallbackCluster : event.getCluster(),
        event.getNamespace(), event.getController(), event.getKind(), event.getActor(), event.getSummary(),
        Instant.ofEpochMilli(event.getOccurredAtEpochMillis()), event.getAttributesMap());
  }

  public ControllerScope scope() {
    return new ControllerScope(cluster, namespace, controller);
  }
}
