package dev.varroa.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** A Git or OCI location whose items/<name>/ folders the operator indexes into CatalogItems. */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("catsrc")
@Categories("varroa")
@AdditionalPrinterColumn(name = "Revision", jsonPath = ".status.artifact.revision", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class CatalogSource extends CustomResource<CatalogSourceSpec, CatalogSourceStatus> implements Namespaced {}
