package dev.varroa.operator.brood;

import dev.varroa.api.v1alpha1.BroodOperationSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The digest of what a run executes: the selection, the steps and the dry-run flag. A new generation that only pauses,
 * resumes or changes the strategy keeps it, so it does not start the run again. Pure.
 */
public final class PlanDigest {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private PlanDigest() {}

  public static String of(BroodOperationSpec spec) {
    Map<String, Object> plan = new LinkedHashMap<>();
    plan.put("targets", spec.targets);
    plan.put("steps", spec.steps);
    plan.put("dryRun", Boolean.TRUE.equals(spec.dryRun));
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(JSON.asJson(plan).getBytes(StandardCharsets.UTF_8));
      return "sha256:" + HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
  }
}
