package dev.varroa.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** One item of a CatalogSource, usable as a ComposedBundle input. Written by the operator. */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("catitem")
@Categories("varroa")
@AdditionalPrinterColumn(name = "Source", jsonPath = ".spec.sourceRef.name", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Revision", jsonPath = ".status.revision", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class CatalogItem extends CustomResource<CatalogItemSpec, CatalogItemStatus> implements Namespaced {}
