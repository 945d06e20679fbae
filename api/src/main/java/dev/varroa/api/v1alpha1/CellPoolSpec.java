package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;
import java.util.List;
import java.util.Map;

/** How many cells, what each one is, and how many Teams each hosts. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CellPoolSpec {
  public static final int DEFAULT_TEAMS_PER_CELL = 10;
  public static final long DEFAULT_UNREADY_GRACE_SECONDS = 600;

  @SpecReplicas
  @Min(0)
  @Max(500)
  @Default("1")
  @JsonPropertyDescription("How many cells (the scale subresource). Scaling down moves the teams of the cells that go"
      + " to the cells that stay before a cell is deleted.")
  public Integer replicas;

  @Min(1)
  @Max(200)
  @JsonPropertyDescription("How many Teams one cell hosts at most; omitted: 10.")
  public Integer teamsPerCell;

  @Min(30)
  @Max(86400)
  @JsonPropertyDescription("A cell whose Jenkins stays unready (not Connected) longer than this is rolled: its pod is"
      + " deleted and made again, with an activity event; omitted: 600.")
  public Long unreadyGracePeriodSeconds;

  @Required
  @JsonPropertyDescription("The Controller every cell is made from: class, bundle, version profile, resources,"
      + " hibernation of idle cells. The pool owns job-dsl: a pin on it from any layer is ignored with a warning.")
  public CellTemplate template;

  @Size(max = 256)
  @JsonPropertyDescription("Namespaces besides the pool's own whose Teams may use this pool (their"
      + " spec.poolNamespace names it); \"*\": every namespace. Omitted: only Teams of the pool's namespace.")
  public List<@Pattern("^(\\*|[a-z0-9]([-a-z0-9]*[a-z0-9])?)$") String> tenantNamespaces;

  @JsonPropertyDescription("How the cells' archived artifacts reach the object store.")
  public ArtifactCredentials artifacts;

  /** The Controller every cell is made from. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class CellTemplate {
    @JsonPropertyDescription("Labels and annotations every cell Controller carries.")
    public TemplateMetadata metadata;

    @JsonPropertyDescription("The cell Controllers' spec; spec.cell is the pool's to write and is ignored here.")
    public ControllerSpec spec;
  }

  /** Labels and annotations of the cells. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class TemplateMetadata {
    public Map<String, String> labels;
    public Map<String, String> annotations;
  }

  /** Where a cell's archived-artifact credential comes from. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class ArtifactCredentials {
    @Pattern("^(Secret|STS)$")
    @JsonPropertyDescription("Secret (default): the Secret <recordStore.blobs.s3.artifactSecret>-<pool>, scoped to the"
        + " pool's prefix. STS: no Secret per pool; a session credential for the pool's prefix is issued from"
        + " recordStore.blobs.s3.artifactSTS.")
    public String mode;
  }
}
