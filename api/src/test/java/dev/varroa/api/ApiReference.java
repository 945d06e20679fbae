package dev.varroa.api;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Writes docs/reference/api.md from the generated CRDs, so the reference cannot drift from the schema. */
final class ApiReference {
  private static final List<String> ORDER = List.of("Controller", "ComposedBundle", "CatalogSource", "CatalogItem",
      "PodTemplate", "ProvisioningDefaults", "ControllerClass", "JenkinsVersionProfile", "VarroaRole",
      "VarroaRoleBinding", "JenkinsRole", "JenkinsRoleBinding", "UpdateCenter");

  /** The purposes of seed 001's "Core Resources" table. */
  private static final Map<String, String> PURPOSE = Map.ofEntries(
      Map.entry("Controller", "Declares one Jenkins controller."),
      Map.entry("ComposedBundle", "Supplies Jenkins configuration: ordered inputs rendered into one desired state."),
      Map.entry("CatalogSource", "Supplies Jenkins configuration: a Git or OCI catalog of reusable bundle items."),
      Map.entry("CatalogItem", "Supplies Jenkins configuration: one item of a catalog (written by the operator)."),
      Map.entry("PodTemplate", "Defines a reusable Kubernetes agent."),
      Map.entry("ProvisioningDefaults", "Supplies installation-wide controller defaults."),
      Map.entry("ControllerClass", "Supplies reusable controller defaults."),
      Map.entry("JenkinsVersionProfile", "Pins Jenkins and plugin compatibility."),
      Map.entry("VarroaRole", "Authorizes dashboard and API actions."),
      Map.entry("VarroaRoleBinding", "Grants a VarroaRole to users and groups."),
      Map.entry("JenkinsRole", "Authorizes actions inside Jenkins."),
      Map.entry("JenkinsRoleBinding", "Grants a JenkinsRole to users and groups."),
      Map.entry("UpdateCenter", "Declares the optional plugin service."));

  /** Fields that embed a standard Kubernetes type: documented by Kubernetes, not repeated here. */
  private static final Map<String, String> KUBERNETES_TYPES = Map.of(
      "env", "list of core/v1 EnvVar",
      "resources", "core/v1 ResourceRequirements",
      "controllerSelector", "meta/v1 LabelSelector");

  private ApiReference() {}

  static String markdown(List<CustomResourceDefinition> crds) {
    StringBuilder md = new StringBuilder();
    md.append("""
        # API reference: varroa.dev/v1alpha1

        <!-- Generated from chart/crds/ by ApiReferenceTest; run `make docs` after changing api/. -->

        Every kind, every field, its default and the validation the API server applies. The API server
        rejects an object that breaks a rule with HTTP 422 and a message naming the field, e.g.
        `spec.inputs[0]: Invalid value: "object": an input sets exactly one of git, oci, catalogItem or fluxSource`.

        How to read defaults: a **schema default** is filled in by the API server when the field is
        omitted. Controller, ControllerClass and ProvisioningDefaults share their settings; an omitted
        setting on a Controller inherits from its ControllerClass, then from the ProvisioningDefaults
        named `default`, and finally from the **resolved default** the operator documents in the field's
        description. Because a schema default is filled in, a block such as `reconciliation: {}` on a
        Controller counts as setting `drainTimeoutSeconds: 900`; omit the block to inherit.

        Note for kubectl: core Kubernetes also has a kind called PodTemplate. Use
        `kubectl get podtemplates.varroa.dev` or the short name `vpt` for Varroa's.

        | kind | scope | short names | purpose |
        | --- | --- | --- | --- |
        """);
    List<CustomResourceDefinition> sorted = new ArrayList<>(crds);
    sorted.sort((a, b) -> Integer.compare(ORDER.indexOf(kind(a)), ORDER.indexOf(kind(b))));
    for (CustomResourceDefinition crd : sorted) {
      md.append("| [").append(kind(crd)).append("](#").append(kind(crd).toLowerCase()).append(") | ")
          .append(crd.getSpec().getScope()).append(" | ")
          .append(String.join(", ", crd.getSpec().getNames().getShortNames())).append(" | ")
          .append(PURPOSE.get(kind(crd)))
          .append(" |\n");
    }
    for (CustomResourceDefinition crd : sorted) {
      kindSection(md, crd);
    }
    return md.toString();
  }

  private static void kindSection(StringBuilder md, CustomResourceDefinition crd) {
    CustomResourceDefinitionVersion version = version(crd);
    md.append("\n## ").append(kind(crd)).append("\n\n")
        .append("`").append(crd.getSpec().getGroup()).append("/").append(version.getName()).append("`, ")
        .append(crd.getSpec().getScope().toLowerCase()).append(", plural `").append(crd.getSpec().getNames().getPlural())
        .append("`, short names ").append(String.join(", ", crd.getSpec().getNames().getShortNames().stream()
            .map(n -> "`" + n + "`").toList()))
        .append(", category `varroa`.\n");
    if (version.getAdditionalPrinterColumns() != null && !version.getAdditionalPrinterColumns().isEmpty()) {
      md.append("`kubectl get` columns: ").append(String.join(", ", version.getAdditionalPrinterColumns().stream()
          .map(c -> c.getName() + " (`" + c.getJsonPath() + "`)").toList())).append(".\n");
    }
    Map<String, JSONSchemaProps> root = version.getSchema().getOpenAPIV3Schema().getProperties();
    for (String part : List.of("spec", "status")) {
      if (root.containsKey(part)) {
        md.append("\n| field | type | default | validation | description |\n| --- | --- | --- | --- | --- |\n");
        fields(md, part, root.get(part), false);
      }
    }
  }

  private static void fields(StringBuilder md, String path, JSONSchemaProps schema, boolean required) {
    String leaf = path.substring(path.lastIndexOf('.') + 1);
    String kubernetesType = KUBERNETES_TYPES.get(leaf);
    md.append("| `").append(path).append("` | ").append(kubernetesType != null ? kubernetesType : type(schema)).append(" | ")
        .append(schema.getDefault() == null ? "" : "`" + schema.getDefault().toString().replace("\"", "") + "`")
        .append(" | ").append(cell(validation(schema, required))).append(" | ")
        .append(cell(schema.getDescription())).append(" |\n");
    if (kubernetesType != null) {
      return;
    }
    List<String> requiredChildren = schema.getRequired() == null ? List.of() : schema.getRequired();
    if (schema.getProperties() != null) {
      schema.getProperties().forEach((name, child) -> fields(md, path + "." + name, child, requiredChildren.contains(name)));
    }
    if (schema.getItems() != null && schema.getItems().getSchema() != null
        && schema.getItems().getSchema().getProperties() != null) {
      JSONSchemaProps item = schema.getItems().getSchema();
      List<String> itemRequired = item.getRequired() == null ? List.of() : item.getRequired();
      if (item.getXKubernetesValidations() != null) {
        md.append("| `").append(path).append("[]` | object |  | ").append(cell(validation(item, false))).append(" |  |\n");
      }
      item.getProperties().forEach((name, child) -> fields(md, path + "[]." + name, child, itemRequired.contains(name)));
    }
  }

  private static String type(JSONSchemaProps schema) {
    if ("array".equals(schema.getType()) && schema.getItems() != null && schema.getItems().getSchema() != null) {
      return "list of " + type(schema.getItems().getSchema());
    }
    if (Boolean.TRUE.equals(schema.getXKubernetesIntOrString())) {
      return "int or string";
    }
    if ("object".equals(schema.getType()) && schema.getAdditionalProperties() != null
        && schema.getAdditionalProperties().getSchema() != null) {
      return "map of " + type(schema.getAdditionalProperties().getSchema());
    }
    if (Boolean.TRUE.equals(schema.getXKubernetesPreserveUnknownFields())) {
      return "object (free-form)";
    }
    return schema.getType() == null ? "any" : schema.getType();
  }

  private static String validation(JSONSchemaProps schema, boolean required) {
    List<String> rules = new ArrayList<>();
    if (required) {
      rules.add("required");
    }
    if (schema.getEnum() != null && !schema.getEnum().isEmpty()) {
      rules.add("one of " + String.join(", ", schema.getEnum().stream().map(e -> "`" + e.asText() + "`").toList()));
    }
    if (schema.getMinimum() != null) {
      rules.add("≥ " + number(schema.getMinimum()));
    }
    if (schema.getMaximum() != null) {
      rules.add("≤ " + number(schema.getMaximum()));
    }
    if (schema.getMinLength() != null) {
      rules.add("length ≥ " + schema.getMinLength());
    }
    if (schema.getMaxLength() != null) {
      rules.add("length ≤ " + schema.getMaxLength());
    }
    if (schema.getMinItems() != null) {
      rules.add("items ≥ " + schema.getMinItems());
    }
    if (schema.getMaxItems() != null) {
      rules.add("items ≤ " + schema.getMaxItems());
    }
    if (schema.getPattern() != null) {
      rules.add("matches `" + schema.getPattern() + "`");
    }
    if (schema.getXKubernetesValidations() != null) {
      for (ValidationRule rule : schema.getXKubernetesValidations()) {
        rules.add(rule.getMessage() + " (CEL)");
      }
    }
    return String.join("; ", rules);
  }

  private static String number(Double value) {
    return value == Math.rint(value) ? String.valueOf(value.longValue()) : String.valueOf(value);
  }

  private static String cell(String text) {
    return text == null ? "" : text.replace("|", "\\|").replace("\n", " ");
  }

  private static String kind(CustomResourceDefinition crd) {
    return crd.getSpec().getNames().getKind();
  }

  private static CustomResourceDefinitionVersion version(CustomResourceDefinition crd) {
    return crd.getSpec().getVersions().get(0);
  }
}
