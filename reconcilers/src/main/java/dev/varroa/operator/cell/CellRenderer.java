package dev.varroa.operator.cell;

import dev.varroa.api.v1alpha1.CellAssignment;
import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.CellPoolSpec;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A pool's cell as a Controller: the template's spec and metadata, the pool's label and ownership, and spec.cell with
 * the teams the cell hosts. Pure.
 */
public final class CellRenderer {
  /** Every cell carries its pool's name here; the pool's scale selector and the operator's informer use it. */
  public static final String POOL_LABEL = dev.varroa.protocol.CellFolders.POOL_LABEL;
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private CellRenderer() {}

  /** The cell of this ordinal: {@code <pool>-<ordinal>}. */
  public static String name(String pool, int ordinal) {
    return pool + "-" + ordinal;
  }

  /** The ordinal of a cell of this pool, or empty for a name the pool did not give. */
  public static Optional<Integer> ordinal(String pool, String cell) {
    String prefix = pool + "-";
    if (!cell.startsWith(prefix) || !cell.substring(prefix.length()).matches("0|[1-9][0-9]{0,3}")) {
      return Optional.empty();
    }
    return Optional.of(Integer.parseInt(cell.substring(prefix.length())));
  }

  public static String selector(String pool) {
    return POOL_LABEL + "=" + pool;
  }

  /** The owner reference of everything the pool makes: its cells, their egress policy, the copy of its credential. */
  public static OwnerReference ownedBy(CellPool pool) {
    return new OwnerReferenceBuilder().withApiVersion(pool.getApiVersion()).withKind(pool.getKind())
        .withName(pool.getMetadata().getName()).withUid(pool.getMetadata().getUid())
        .withController(true).withBlockOwnerDeletion(true).build();
  }

  public static Controller render(CellPool pool, int ordinal, List<String> teams, boolean draining) {
    CellPoolSpec.CellTemplate template = pool.getSpec().template;
    ControllerSpec spec = template == null || template.spec == null ? new ControllerSpec()
        : JSON.clone(template.spec);
    spec.cell = new CellAssignment(pool.getMetadata().getName(), teams.stream().sorted().toList(), draining);
    Map<String, String> labels = new LinkedHashMap<>();
    Map<String, String> annotations = new LinkedHashMap<>();
    if (template != null && template.metadata != null) {
      Optional.ofNullable(template.metadata.labels).ifPresent(labels::putAll);
      Optional.ofNullable(template.metadata.annotations).ifPresent(annotations::putAll);
    }
    labels.put(POOL_LABEL, pool.getMetadata().getName());
    Controller cell = new Controller();
    cell.setMetadata(new ObjectMetaBuilder()
        .withName(name(pool.getMetadata().getName(), ordinal))
        .withNamespace(pool.getMetadata().getNamespace())
        .withLabels(labels)
        .withAnnotations(annotations.isEmpty() ? null : annotations)
        .withOwnerReferences(ownedBy(pool))
        .build());
    cell.setSpec(spec);
    return cell;
  }
}
