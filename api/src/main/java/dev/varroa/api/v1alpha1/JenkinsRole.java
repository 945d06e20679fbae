package dev.varroa.api.v1alpha1;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** A set of Jenkins permissions, optionally limited to items whose full name matches a pattern. */
@Group(Names.GROUP)
@Version(Names.VERSION)
@ShortNames("jrole")
@Categories("varroa")
public class JenkinsRole extends CustomResource<JenkinsRoleSpec, ConditionedStatus> {}
