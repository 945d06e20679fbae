package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

/**
 * Where controllers fetch plugins from: an update site the operator only points them at
 * ({@code url}), or an update center the operator runs and fills with exactly the locked plugin
 * versions ({@code managed}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "has(self.url) != has(self.managed)",
    message = "set exactly one of spec.url (an update site controllers are pointed at) or spec.managed (an update"
        + " center the operator runs)")
@ValidationRule(
    value = "!has(self.managed) || (!has(self.pluginDownloadURL) && !has(self.caSecretRef))",
    message = "spec.pluginDownloadURL and spec.caSecretRef belong to spec.url; a managed update center's URLs are"
        + " its Service's")
public class UpdateCenterSpec {
  @Pattern("^https?://.+$")
  @JsonPropertyDescription("URL of the update-center.json, e.g. https://uc.example.com/update-center.json."
      + " Exactly one of url and managed.")
  public String url;

  @Pattern("^https?://.+$")
  @JsonPropertyDescription("Base URL plugins download from, e.g. https://uc.example.com/download/plugins.")
  public String pluginDownloadURL;

  @JsonPropertyDescription("Secret (operator namespace) with ca.crt to trust the service's TLS certificate.")
  public ObjectRef caSecretRef;

  @JsonPropertyDescription("An update center the operator runs in its own namespace (Deployment, Service, volume):"
      + " it holds exactly the plugin versions every JenkinsVersionProfile and ComposedBundle lock names, signs its"
      + " update-center.json, and controllers install from it. Exactly one of url and managed.")
  public Managed managed;

  /** The update center the operator runs. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Managed {
    @JsonPropertyDescription("The volume that holds the plugin files.")
    public Storage storage;

    @JsonPropertyDescription("A connected update site missing plugins are fetched from, each checked against the"
        + " sha256 it publishes; omitted: plugins arrive only by `varroactl updatecenter import` (air gap).")
    public Upstream upstream;

    @JsonPropertyDescription("Update center image; omitted: $VARROA_UPDATE_CENTER_IMAGE of the operator, else the"
        + " image matching the operator's version (ghcr.io/varroa/update-center:<version>).")
    public String image;

    @JsonPropertyDescription("Secret (operator namespace) with the signing CA and key: ca.crt (the certificate"
        + " controllers trust), signer.crt, signer.key (RSA, PEM) and optionally import-token. Omitted: the"
        + " operator creates varroa-uc-<name>-signing.")
    public ObjectRef signingSecretRef;

    @JsonPropertyDescription("CPU and memory of the update center container.")
    public ResourceRequirements resources;
  }

  /** The update center's volume. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Storage {
    @Pattern(Names.QUANTITY)
    @JsonPropertyDescription("Requested size of the plugin volume, e.g. 20Gi. Resolved default: 10Gi.")
    public String size;

    @Pattern(Names.DNS1123_SUBDOMAIN)
    @JsonPropertyDescription("StorageClass of the volume; omitted: the cluster's default StorageClass.")
    public String storageClassName;
  }

  /** The connected update site a managed update center fetches from. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Upstream {
    @Required
    @Pattern("^https?://.+$")
    @JsonPropertyDescription("Its update-center.json, e.g. https://updates.jenkins.io/current/update-center.json.")
    public String url;

    @Pattern("^https?://.+$")
    @JsonPropertyDescription("Its plugin-versions.json, for pinned versions that are not the newest; omitted: the"
        + " file of that name next to url.")
    public String pluginVersionsURL;
  }
}
