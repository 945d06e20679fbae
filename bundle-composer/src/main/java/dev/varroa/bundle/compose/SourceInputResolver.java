package dev.varroa.bundle.compose;

import dev.varroa.api.v1alpha1.BundleInput;
import dev.varroa.api.v1alpha1.CatalogItem;
import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.GitSource;
import dev.varroa.api.v1alpha1.OciSource;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.SourceUnavailableException;
import dev.varroa.bundle.source.FluxArtifact;
import dev.varroa.bundle.source.FluxArtifactSource;
import dev.varroa.bundle.source.GitAccess;
import dev.varroa.bundle.source.GitBundleSource;
import dev.varroa.bundle.source.GitRevision;
import dev.varroa.bundle.source.OciBundleSource;
import dev.varroa.bundle.source.OciRevision;
import java.util.List;

/** Reads each kind of input with its source: Git, OCI, a catalog item of either, or a Flux artifact. */
public final class SourceInputResolver implements InputSource {
  private final GitBundleSource git;
  private final OciBundleSource oci;
  private final FluxArtifactSource flux;
  private final SourceObjects objects;
  private final SourceCredentials credentials;

  public SourceInputResolver(GitBundleSource git, OciBundleSource oci, FluxArtifactSource flux, SourceObjects objects) {
    this.git = git;
    this.oci = oci;
    this.flux = flux;
    this.objects = objects;
    this.credentials = new SourceCredentials(objects);
  }

  @Override
  public String currentRevision(InputRef ref, BundleInput input) throws BundleException {
    if (input.git != null) {
      return git.resolveRevision(ref, input.git, gitAccess(ref, input.git)).revision();
    }
    if (input.oci != null) {
      return oci.resolveRevision(ref, input.oci, credentials.oci(ref, input.oci.secretRef)).revision();
    }
    if (input.fluxSource != null) {
      return fluxArtifact(ref, input).revision();
    }
    CatalogLocation location = catalogLocation(ref, input.catalogItem.name);
    return currentRevision(ref, location.asInput());
  }

  @Override
  public ResolvedInput fetch(InputRef ref, BundleInput input, String revision) throws BundleException {
    if (input.git != null) {
      return git.fetch(ref, input.git, GitRevision.parse(revision), gitAccess(ref, input.git));
    }
    if (input.oci != null) {
      return oci.fetch(ref, input.oci, OciRevision.parse(revision), credentials.oci(ref, input.oci.secretRef));
    }
    if (input.fluxSource != null) {
      return flux.fetch(ref, input.fluxSource, fluxArtifact(ref, input));
    }
    CatalogLocation location = catalogLocation(ref, input.catalogItem.name);
    ResolvedInput item = fetch(ref, location.asInput(), revision);
    return new ResolvedInput(ref, revision, item.files());
  }

  // The namespace and Secret go with the credentials: the Git cache keeps each reader's fetches apart.
  private GitAccess gitAccess(InputRef ref, GitSource spec) throws BundleException {
    return new GitAccess(objects.namespace(), spec.secretRef == null ? null : spec.secretRef.name,
        credentials.git(ref, spec.secretRef));
  }

  private FluxArtifact fluxArtifact(InputRef ref, BundleInput input) throws SourceUnavailableException {
    return objects.fluxArtifact(input.fluxSource.kind, input.fluxSource.name).orElseThrow(() ->
        new SourceUnavailableException(new BundleProblem(BundleProblem.Kind.INVALID, ref.describe(), null,
            "fluxSource", "Flux " + input.fluxSource.kind + " " + input.fluxSource.name
                + " does not exist or has no status.artifact yet",
            "create the Flux object in the bundle's namespace and wait until it is Ready")));
  }

  private CatalogLocation catalogLocation(InputRef ref, String itemName) throws BundleException {
    CatalogItem item = objects.catalogItem(itemName).orElse(null);
    if (item != null) {
      String sourceName = item.getSpec().sourceRef.name;
      CatalogSource source = objects.catalogSource(sourceName).orElseThrow(() -> invalid(ref,
          "CatalogItem " + itemName + " belongs to CatalogSource " + sourceName + ", which does not exist",
          "create CatalogSource " + sourceName + " or remove the input"));
      return new CatalogLocation(source, item.getSpec().path);
    }
    List<CatalogSource> sources = objects.catalogSources();
    if (sources.size() == 1) {
      return new CatalogLocation(sources.get(0), "items/" + itemName);
    }
    if (sources.isEmpty()) {
      // Its CatalogSource may not be indexed yet: wait and retry rather than call the bundle broken.
      throw new SourceUnavailableException(new BundleProblem(BundleProblem.Kind.INVALID, ref.describe(), null,
          "catalogItem", "CatalogItem " + itemName + " does not exist (yet)",
          "check the name against `kubectl get catalogitems`, or wait until its CatalogSource is indexed"));
    }
    throw invalid(ref, "no CatalogItem " + itemName + " and " + sources.size() + " CatalogSources that could hold it",
        "give the CatalogItem (or the one CatalogSource that holds items/" + itemName + "/) with the bundle");
  }

  private static BundleException invalid(InputRef ref, String message, String fix) {
    return new BundleException(new BundleProblem(BundleProblem.Kind.INVALID, ref.describe(), null, "catalogItem",
        message, fix));
  }

  /** A catalog item: its source's Git or OCI location with the item's folder as path. */
  private record CatalogLocation(CatalogSource source, String itemPath) {
    BundleInput asInput() {
      BundleInput input = new BundleInput();
      if (source.getSpec().git != null) {
        GitSource git = new GitSource();
        git.url = source.getSpec().git.url;
        git.ref = source.getSpec().git.ref;
        git.secretRef = source.getSpec().git.secretRef;
        git.path = join(source.getSpec().git.path, itemPath);
        input.git = git;
      } else {
        OciSource oci = new OciSource();
        oci.url = source.getSpec().oci.url;
        oci.ref = source.getSpec().oci.ref;
        oci.secretRef = source.getSpec().oci.secretRef;
        oci.path = join(source.getSpec().oci.path, itemPath);
        input.oci = oci;
      }
      return input;
    }

    private static String join(String base, String path) {
      return base == null || base.isEmpty() ? path : base.replaceAll("/+$", "") + "/" + path;
    }
  }
}
