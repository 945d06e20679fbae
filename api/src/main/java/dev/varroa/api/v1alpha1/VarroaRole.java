package dev.varroa.api.v1alpha1;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** A set of dashboard and API actions. */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("vrole")
@Categories("varroa")
public class VarroaRole extends CustomResource<VarroaRoleSpec, ConditionedStatus> {}
