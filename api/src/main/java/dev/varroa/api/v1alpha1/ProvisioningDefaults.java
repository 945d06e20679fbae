package dev.varroa.api.v1alpha1;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** Cluster-scoped installation defaults for every Controller. The operator reads the one named {@code default}. */
@Group(Names.GROUP)
@Version(Names.VERSION)
@Singular("provisioningdefaults")
@Plural("provisioningdefaults")
@ShortNames("pdef")
@Categories("varroa")
public class ProvisioningDefaults extends CustomResource<ProvisioningDefaultsSpec, ConditionedStatus> {
  /** The name of the ProvisioningDefaults object the operator uses. */
  public static final String DEFAULT_NAME = "default";
}
