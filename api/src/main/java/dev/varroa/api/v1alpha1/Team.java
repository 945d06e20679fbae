package dev.varroa.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A tenant of a CellPool: its pipelines, who may see them, and the credentials they use. The operator places it on a
 * cell with room and keeps it there (docs/cells.md).
 */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("team")
@Categories("varroa")
@AdditionalPrinterColumn(name = "Pool", jsonPath = ".spec.pool", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Cell", jsonPath = ".status.cell", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class Team extends CustomResource<TeamSpec, TeamStatus> implements Namespaced {}
