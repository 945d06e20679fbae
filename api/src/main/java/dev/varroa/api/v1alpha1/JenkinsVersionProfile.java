package dev.varroa.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** Pins a Jenkins version, its image, the compatible plugin set and a version-specific JCasC overlay. */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("jvp")
@Categories("varroa")
@AdditionalPrinterColumn(name = "Jenkins", jsonPath = ".spec.jenkinsVersion", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class JenkinsVersionProfile extends CustomResource<JenkinsVersionProfileSpec, ConditionedStatus> {}
