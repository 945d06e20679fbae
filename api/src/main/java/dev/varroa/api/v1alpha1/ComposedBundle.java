package dev.varroa.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** An ordered list of configuration inputs that renders one Jenkins desired state. */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("cb")
@Categories("varroa")
@AdditionalPrinterColumn(name = "Revision", jsonPath = ".status.artifact.revision", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class ComposedBundle extends CustomResource<ComposedBundleSpec, ComposedBundleStatus> implements Namespaced {
  /** The bundle a Controller without spec.composedBundleRef uses; it ships inside the operator. */
  public static final String STARTER = "varroa-starter";
}
