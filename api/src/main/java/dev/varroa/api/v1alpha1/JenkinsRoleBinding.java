package dev.varroa.api.v1alpha1;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** Grants a JenkinsRole to users and groups on the Controllers of some namespaces. */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("jrb")
@Categories("varroa")
public class JenkinsRoleBinding extends CustomResource<RoleBindingSpec, ConditionedStatus> {}
