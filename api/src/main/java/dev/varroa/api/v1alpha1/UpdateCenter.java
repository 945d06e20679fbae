package dev.varroa.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The optional plugin service that serves pinned plugins to controllers: an update site they are
 * pointed at, or one the operator runs with exactly the locked plugin versions (e.g. air-gapped).
 */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("uc")
@Categories("varroa")
@AdditionalPrinterColumn(name = "URL", jsonPath = ".spec.url", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class UpdateCenter extends CustomResource<UpdateCenterSpec, UpdateCenterStatus> {}
