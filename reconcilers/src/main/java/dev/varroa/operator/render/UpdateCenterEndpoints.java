package dev.varroa.operator.render;

import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.api.v1alpha1.UpdateCenterSpec;
import dev.varroa.api.v1alpha1.UpdateCenterStatus;
import dev.varroa.operator.render.naming.UpdateCenterNames;
import java.util.Optional;

/**
 * What a Controller's pod is told about its UpdateCenter. The external form gives spec.url and
 * spec.pluginDownloadURL as they are; a managed one gives the URLs of its Service and the CA its
 * signature chains to, as its reconciler published them in status.
 *
 * @param pluginVersionsUrl plugin-versions.json (managed only), which jenkins-plugin-cli reads pinned versions from
 * @param signingCa PEM the controller trusts in update-center-rootCAs/ (managed only)
 */
public record UpdateCenterEndpoints(String url, Optional<String> pluginDownloadUrl, Optional<String> pluginVersionsUrl,
    Optional<String> signingCa, boolean managed) {
  /** Where managed UpdateCenters run unless the operator is told otherwise (POD_NAMESPACE): the chart's namespace. */
  public static final String DEFAULT_MANAGED_NAMESPACE = "varroa-system";

  /** The base URL Jenkins' own update site setting takes: the update-center.json's folder, with a slash. */
  public String siteBaseUrl() {
    return url.substring(0, url.lastIndexOf('/') + 1);
  }

  /** The endpoints of an UpdateCenter; empty for a managed one whose reconciler has not published its URLs yet. */
  public static Optional<UpdateCenterEndpoints> of(UpdateCenter updateCenter) {
    UpdateCenterSpec spec = updateCenter.getSpec();
    if (spec == null) {
      return Optional.empty();
    }
    if (spec.managed == null) {
      return spec.url == null ? Optional.empty() : Optional.of(new UpdateCenterEndpoints(spec.url,
          Optional.ofNullable(spec.pluginDownloadURL), Optional.empty(), Optional.empty(), false));
    }
    UpdateCenterStatus status = updateCenter.getStatus();
    if (status == null || status.url == null) {
      return Optional.empty();
    }
    return Optional.of(new UpdateCenterEndpoints(status.url, Optional.ofNullable(status.pluginDownloadURL),
        Optional.ofNullable(status.pluginVersionsURL), Optional.ofNullable(status.signingCA), true));
  }

  /** The endpoints a managed UpdateCenter's Service has in the operator's namespace (what its reconciler publishes). */
  public static UpdateCenterEndpoints managed(String updateCenterName, String operatorNamespace, Optional<String> ca) {
    String base = UpdateCenterNames.of(updateCenterName).baseUrl(operatorNamespace);
    return new UpdateCenterEndpoints(base + "/update-center.json", Optional.of(base + "/download/plugins"),
        Optional.of(base + "/plugin-versions.json"), ca, true);
  }
}
