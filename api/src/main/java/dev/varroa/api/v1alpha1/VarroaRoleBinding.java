package dev.varroa.api.v1alpha1;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** Grants a VarroaRole to users and groups, optionally limited to some namespaces. */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("vrb")
@Categories("varroa")
public class VarroaRoleBinding extends CustomResource<RoleBindingSpec, ConditionedStatus> {}
