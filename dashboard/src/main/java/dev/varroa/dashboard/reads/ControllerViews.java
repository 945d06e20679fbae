package dev.varroa.dashboard.reads;

import dev.varroa.protocol.bus.v1.ClusterPresence;
import dev.varroa.protocol.bus.v1.ControllerDetail;
import dev.varroa.protocol.bus.v1.ControllerRow;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** Controllers and clusters as the API's JSON shows them (docs/dashboard-api.md). Pure. */
public final class ControllerViews {

  /** A cluster whose operator refreshed its entry within two beacon intervals is healthy. */
  public static final Duration HEALTHY_WITHIN = Duration.ofSeconds(20);

  private ControllerViews() {}

  public static Map<String, Object> row(String cluster, ControllerRow row) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("cluster", cluster);
    out.put("namespace", row.getNamespace());
    out.put("name", row.getName());
    out.put("uid", row.getUid());
    out.put("phase", row.getPhase());
    out.put("attention", row.getAttention());
    out.put("bundle", row.getBundle());
    out.put("revision", row.getRevision());
    if (row.getHasLastApply()) {
      Map<String, Object> apply = new LinkedHashMap<>();
      apply.put("succeeded", row.getLastApplySucceeded());
      apply.put("message", row.getLastApplyMessage());
      apply.put("appliedAt", row.getLastAppliedAt());
      out.put("lastApply", apply);
    } else {
      out.put("lastApply", null);
    }
    out.put("lastReconciledAt", row.getLastReconciledAt());
    out.put("jenkinsVersion", row.getJenkinsVersion());
    out.put("url", row.getUrl());
    out.put("labels", new TreeMap<>(row.getLabelsMap()));
    out.put("createdAt", row.getCreatedAt());
    return out;
  }

  /** The desired bundle digest while it is not the one last applied successfully; "" when none is pending. */
  public static String pendingDigest(ControllerDetail detail) {
    String desired = detail.getDesiredBundleDigest();
    return desired.isEmpty() || desired.equals(detail.getRow().getRevision()) ? "" : desired;
  }

  public static Map<String, Object> cluster(ClusterPresence presence, Instant now) {
    Map<String, Object> out = new LinkedHashMap<>();
    long ageMillis = Math.max(0, now.toEpochMilli() - presence.getRefreshedAtEpochMillis());
    out.put("name", presence.getName());
    out.put("role", presence.getRole());
    out.put("core", !"member".equals(presence.getRole()));
    out.put("healthy", ageMillis <= HEALTHY_WITHIN.toMillis());
    out.put("heartbeatAgeSeconds", ageMillis / 1000);
    out.put("operatorVersion", presence.getOperatorVersion());
    out.put("kubernetesVersion", presence.getKubernetesVersion());
    out.put("connectedControllers", presence.getConnectedControllers());
    out.put("controllers", presence.getControllers());
    // docs/actions.md: "Draining" (controllers above are the ones left), "Drained", "DrainCancelled", or ""
    out.put("drainState", presence.getDrainState());
    return out;
  }
}
