package dev.varroa.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** A reusable Kubernetes agent, rendered into the Kubernetes cloud of matching Controllers. */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("vpt")
@Categories("varroa")
@AdditionalPrinterColumn(name = "Label", jsonPath = ".spec.label", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class PodTemplate extends CustomResource<PodTemplateSpec, ConditionedStatus> implements Namespaced {}
