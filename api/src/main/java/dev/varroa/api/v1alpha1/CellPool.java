package dev.varroa.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A pool of cells: Controllers the pool owns, made from one template, each hosting up to teamsPerCell Teams
 * (docs/cells.md). spec.replicas is the scale subresource, so `kubectl scale`, `varroactl scale cellpool` and an
 * autoscaler write one field.
 */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("cellpool")
@Categories("varroa")
@AdditionalPrinterColumn(name = "Replicas", jsonPath = ".spec.replicas", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.readyReplicas", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Teams", jsonPath = ".status.placedTeams", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class CellPool extends CustomResource<CellPoolSpec, CellPoolStatus> implements Namespaced {}
