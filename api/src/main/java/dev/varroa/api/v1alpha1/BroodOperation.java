package dev.varroa.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Maintenance run over many Controllers, across clusters: the selected targets each go through the same steps
 * (back up, quiet down, restart safely, …), so many at a time, stopping on failures as the strategy says
 * (docs/brood-operations.md).
 */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("broodop")
@Categories("varroa")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Targets", jsonPath = ".status.counts.total", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Succeeded", jsonPath = ".status.counts.succeeded", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Failed", jsonPath = ".status.counts.failed", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class BroodOperation extends CustomResource<BroodOperationSpec, BroodOperationStatus> implements Namespaced {}
