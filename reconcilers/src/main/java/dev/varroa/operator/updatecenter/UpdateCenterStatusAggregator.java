package dev.varroa.operator.updatecenter;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.api.v1alpha1.UpdateCenterStatus;
import dev.varroa.operator.render.UpdateCenterEndpoints;
import dev.varroa.operator.status.Conditions;
import dev.varroa.operator.status.Kstatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.stream.Collectors;

/**
 * Builds an UpdateCenter's status from one pass's observation: the URLs controllers use, and for a
 * managed one what it holds, which wanted versions it lacks and why, in Ready/Reconciling/Stalled.
 * Pure: the caller compares the result with the previous status and patches only a change.
 */
public final class UpdateCenterStatusAggregator {
  public static final String REASON_EXTERNAL = "External";
  public static final String REASON_ALL_HELD = "AllPluginsHeld";
  public static final String REASON_MISSING = "PluginsMissing";
  public static final String REASON_UNREACHABLE = "ServiceUnreachable";
  /** status.missing keeps at most this many entries; the Ready message gives the total. */
  static final int MAX_MISSING_LISTED = 1000;
  /** Missing plugins the Ready message names. */
  static final int NAMED = 5;
  static final String NOT_READ_YET = "not held yet: the update center has not read the new wanted list (its ConfigMap"
      + " reaches the pod within a minute)";

  private UpdateCenterStatusAggregator() {}

  /** A pass that could not render or observe, e.g. a missing signing Secret: the message names the fix. */
  public record Problem(String reason, String message) {}

  /**
   * @param wanted {@code id:version} to who names it
   * @param report what the running update center answered; empty with {@code unreachable} saying why
   */
  public record Observation(long generation, UpdateCenterEndpoints endpoints, SortedMap<String, SortedSet<String>> wanted,
      Optional<UpdateCenterReport> report, Optional<String> unreachable, Optional<Problem> problem, boolean upstream) {}

  public static UpdateCenterStatus external(UpdateCenterStatus previous, UpdateCenter updateCenter, long generation,
      Instant now) {
    UpdateCenterStatus status = new UpdateCenterStatus();
    status.observedGeneration = generation;
    status.url = updateCenter.getSpec().url;
    status.pluginDownloadURL = updateCenter.getSpec().pluginDownloadURL;
    status.conditions = new Conditions(previous.conditions, generation, now.toString())
        .kstatus(Kstatus.READY, new Kstatus.Wording(REASON_EXTERNAL, "controllers install plugins from " + status.url),
            new Kstatus.Wording(REASON_EXTERNAL, "nothing to run"), new Kstatus.Wording(REASON_EXTERNAL, "nothing to run"))
        .build();
    return status;
  }

  public static UpdateCenterStatus managed(UpdateCenterStatus previous, Observation observation, Instant now) {
    UpdateCenterStatus status = new UpdateCenterStatus();
    status.observedGeneration = observation.generation();
    if (observation.endpoints() != null) {
      status.url = observation.endpoints().url();
      status.pluginDownloadURL = observation.endpoints().pluginDownloadUrl().orElse(null);
      status.pluginVersionsURL = observation.endpoints().pluginVersionsUrl().orElse(null);
      status.signingCA = observation.endpoints().signingCa().orElse(null);
    }
    status.wanted = observation.wanted().size();
    // the last answer stays in force while the service is unreachable: what it held is still on its volume
    status.availablePlugins = observation.report().map(r -> (List<String>) new ArrayList<>(r.held()))
        .orElse(previous.availablePlugins);
    List<UpdateCenterStatus.MissingPlugin> missing = new ArrayList<>();
    if (status.availablePlugins != null) {
      java.util.Set<String> held = new java.util.HashSet<>(status.availablePlugins);
      for (String plugin : observation.wanted().keySet()) {
        if (!held.contains(plugin)) {
          int colon = plugin.indexOf(':');
          String reason = observation.report().map(r -> r.missing().get(plugin)).orElse(null);
          missing.add(new UpdateCenterStatus.MissingPlugin(plugin.substring(0, colon), plugin.substring(colon + 1),
              reason != null ? reason : NOT_READ_YET));
        }
      }
    }
    status.missing = missing.size() > MAX_MISSING_LISTED ? List.copyOf(missing.subList(0, MAX_MISSING_LISTED)) : missing;
    status.conditions = conditions(previous, observation, status, missing, now);
    return status;
  }

  private static List<Condition> conditions(UpdateCenterStatus previous, Observation observation,
      UpdateCenterStatus status, List<UpdateCenterStatus.MissingPlugin> missing, Instant now) {
    Conditions conditions = new Conditions(previous.conditions, observation.generation(), now.toString());
    if (observation.problem().isPresent()) {
      Problem problem = observation.problem().get();
      Kstatus.Wording said = new Kstatus.Wording(problem.reason(), problem.message());
      return conditions.kstatus(Kstatus.STALLED, said, new Kstatus.Wording(problem.reason(), "waiting for the fix"),
          said).build();
    }
    if (observation.report().isEmpty()) {
      String message = "cannot read the update center's status: " + observation.unreachable().orElse("no answer")
          + "; its Deployment may still be starting";
      Kstatus.Wording waiting = new Kstatus.Wording(REASON_UNREACHABLE, "waiting for the update center");
      return conditions.kstatus(Kstatus.RECONCILING, new Kstatus.Wording(REASON_UNREACHABLE, message), waiting, waiting)
          .build();
    }
    if (missing.isEmpty()) {
      String message = "holds all " + status.wanted + " plugin versions the profiles and bundle locks name";
      return conditions.kstatus(Kstatus.READY, REASON_ALL_HELD, message).build();
    }
    String named = missing.stream().limit(NAMED).map(m -> m.id + " " + m.version + " (wanted by "
        + String.join(", ", observation.wanted().get(m.id + ":" + m.version)) + ")").collect(Collectors.joining(", "));
    String message = "lacks " + missing.size() + " of " + status.wanted + " wanted plugin versions: " + named
        + (missing.size() > NAMED ? " and " + (missing.size() - NAMED) + " more" : "") + "; see status.missing for each"
        + " reason; fix: `varroactl updatecenter export` them on a connected machine and `varroactl updatecenter"
        + " import` the archive" + (observation.upstream() ? ", or make spec.managed.upstream reachable" : ", or set"
        + " spec.managed.upstream.url");
    // with an upstream the update center keeps fetching; without one only a person can bring the plugins
    Kstatus.Wording lacking = new Kstatus.Wording(REASON_MISSING, message);
    return conditions.kstatus(observation.upstream() ? Kstatus.RECONCILING : Kstatus.STALLED, lacking,
        new Kstatus.Wording(REASON_MISSING, observation.upstream() ? "fetching from the upstream" : "waiting for an import"),
        lacking).build();
  }
}
