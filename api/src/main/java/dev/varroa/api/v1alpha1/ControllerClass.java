package dev.varroa.api.v1alpha1;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** Cluster-scoped reusable defaults between ProvisioningDefaults and a Controller. */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("jcc")
@Categories("varroa")
public class ControllerClass extends CustomResource<ControllerClassSpec, ConditionedStatus> {}
