package dev.varroa.dashboard.records;

import java.time.Instant;

/**
 * GET /runs' filters: cluster, namespace, controller, job and build match exactly when given (null = any); before
 * keeps runs that started (or, not started yet, were queued) strictly before it, for the next page; limit is 1..500
 * (default 50).
 */
public record RunQuery(String cluster, String namespace, String controller, String job, Long build, Instant before,
    int limit) {

  public static final int DEFAULT_LIMIT = 50;
  public static final int MAX_LIMIT = 500;

  public RunQuery {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidParameterException("limit", "limit must be between 1 and " + MAX_LIMIT + ", got " + limit);
    }
    if (build != null && build < 1) {
      throw new InvalidParameterException("build", "build must be a build number (1 or more), got " + build);
    }
    cluster = ActivityQuery.blankToNull(cluster);
    namespace = ActivityQuery.blankToNull(namespace);
    controller = ActivityQuery.blankToNull(controller);
    job = ActivityQuery.blankToNull(job);
  }

  /** The newest runs, the default page. */
  public static RunQuery latest() {
    return new RunQuery(null, null, null, null, null, null, DEFAULT_LIMIT);
  }
}
