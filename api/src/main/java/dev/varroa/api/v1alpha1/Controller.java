package dev.varroa.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** Declares one Jenkins controller: a StatefulSet, Service, volume, mite sidecar and optional Ingress. */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames({"jc", "jctl"})
@Categories("varroa")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Attention", jsonPath = ".status.attention", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Bundle", jsonPath = ".status.bundle", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class Controller extends CustomResource<ControllerSpec, ControllerStatus> implements Namespaced {}
