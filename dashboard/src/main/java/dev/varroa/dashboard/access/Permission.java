package dev.varroa.dashboard.access;

/**
 * What the BFF serves: a verb (list, get, watch; drain, create, update, delete for actions, docs/actions.md) on a
 * resource (clusters, controllers, activity, runs, logs, broodoperations, broodschedules, cellpools, teams).
 */
public record Permission(String verb, String resource) {
  public static final String LIST = "list";
  public static final String GET = "get";
  public static final String WATCH = "watch";
  public static final String DRAIN = "drain";
  public static final String CREATE = "create";
  public static final String UPDATE = "update";
  public static final String DELETE = "delete";

  public static final String CLUSTERS = "clusters";
  public static final String CONTROLLERS = "controllers";
  public static final String ACTIVITY = "activity";
  public static final String RUNS = "runs";
  public static final String LOGS = "logs";
  public static final String BROOD_OPERATIONS = "broodoperations";
  public static final String BROOD_SCHEDULES = "broodschedules";
  public static final String CELL_POOLS = "cellpools";
  public static final String TEAMS = "teams";
  public static final String PIPELINES = "pipelines";

  public static Permission of(String verb, String resource) {
    return new Permission(verb, resource);
  }

  @Override
  public String toString() {
    return verb + " " + resource;
  }
}
