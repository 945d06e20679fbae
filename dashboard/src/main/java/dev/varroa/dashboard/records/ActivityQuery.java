package dev.varroa.dashboard.records;

import java.time.Instant;

/**
 * GET /activity's filters: each of cluster, namespace, controller matches exactly when given (null = any); since
 * keeps events that occurred at or after it; limit is 1..1000 (default 100).
 */
public record ActivityQuery(String cluster, String namespace, String controller, Instant since, int limit) {

  public static final int DEFAULT_LIMIT = 100;
  public static final int MAX_LIMIT = 1000;

  public ActivityQuery {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidParameterException("limit", "limit must be between 1 and " + MAX_LIMIT + ", got " + limit);
    }
    cluster = blankToNull(cluster);
    namespace = blankToNull(namespace);
    controller = blankToNull(controller);
  }

  /** Every event, newest first, the default page. */
  public static ActivityQuery latest() {
    return new ActivityQuery(null, null, null, null, DEFAULT_LIMIT);
  }

  public ActivityQuery withLimit(int limit) {
    return new ActivityQuery(cluster, namespace, controller, since, limit);
  }

  static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }
}
