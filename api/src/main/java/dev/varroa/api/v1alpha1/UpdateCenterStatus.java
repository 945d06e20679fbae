package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;

/** Observed state of an UpdateCenter: the URLs controllers use and, when managed, what it holds and lacks. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class UpdateCenterStatus extends ConditionedStatus {
  @JsonPropertyDescription("The update-center.json controllers install from: spec.url, or the managed Service's.")
  public String url;

  @JsonPropertyDescription("Base URL controllers download plugins from (managed: <service>/download/plugins).")
  public String pluginDownloadURL;

  @JsonPropertyDescription("The plugin-versions.json controllers read pinned versions' checksums from (managed only).")
  public String pluginVersionsURL;

  @JsonPropertyDescription("PEM of the CA the managed update-center.json signature chains to; the operator puts it"
      + " in every controller's $JENKINS_HOME/update-center-rootCAs/.")
  public String signingCA;

  @JsonPropertyDescription("How many plugin versions the profiles and bundle locks name (managed only).")
  public Integer wanted;

  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyDescription("Every plugin version the running update center holds, as id:version; absent until it"
      + " first answered (managed only).")
  public List<String> availablePlugins;

  @JsonPropertyDescription("Locked plugin versions the update center lacks, each with the reason and the fix.")
  public List<MissingPlugin> missing;

  /** A wanted plugin version the update center does not hold. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class MissingPlugin {
    @JsonPropertyDescription("Plugin id, e.g. git.")
    public String id;

    @JsonPropertyDescription("Plugin version, e.g. 5.8.0.")
    public String version;

    @JsonPropertyDescription("Why it is not held and what to do.")
    public String reason;

    public MissingPlugin() {}

    public MissingPlugin(String id, String version, String reason) {
      this.id = id;
      this.version = version;
      this.reason = reason;
    }
  }
}
