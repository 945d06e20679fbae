package dev.varroa.bundle.source;

import dev.varroa.api.v1alpha1.FluxSourceRef;
import dev.varroa.api.v1alpha1.GitSource;
import dev.varroa.api.v1alpha1.OciSource;
import dev.varroa.bundle.InputRef;
import java.util.Map;

/** Spec objects and their InputRef, as the composer builds them, for source tests. */
final class Inputs {
  private Inputs() {}

  static GitSource git(String url, String refKind, String refValue, String path) {
    GitSource git = new GitSource();
    git.url = url;
    git.ref = new GitSource.GitRef();
    switch (refKind) {
      case "branch" -> git.ref.branch = refValue;
      case "tag" -> git.ref.tag = refValue;
      case "semver" -> git.ref.semver = refValue;
      case "commit" -> git.ref.commit = refValue;
      default -> throw new IllegalArgumentException(refKind);
    }
    git.path = path;
    return git;
  }

  static InputRef ref(GitSource git) {
    String kind = git.ref.branch != null ? "branch" : git.ref.tag != null ? "tag" : git.ref.semver != null ? "semver" : "commit";
    String value = git.ref.branch != null ? git.ref.branch : git.ref.tag != null ? git.ref.tag
        : git.ref.semver != null ? git.ref.semver : git.ref.commit;
    return new InputRef(0, "git", git.url, null, Map.of(kind, value), git.path);
  }

  static OciSource oci(String url, String refKind, String refValue, String path) {
    OciSource oci = new OciSource();
    oci.url = url;
    oci.ref = new OciSource.OciRef();
    switch (refKind) {
      case "tag" -> oci.ref.tag = refValue;
      case "semver" -> oci.ref.semver = refValue;
      case "digest" -> oci.ref.digest = refValue;
      default -> throw new IllegalArgumentException(refKind);
    }
    oci.path = path;
    return oci;
  }

  static InputRef ref(OciSource oci) {
    String kind = oci.ref.tag != null ? "tag" : oci.ref.semver != null ? "semver" : "digest";
    String value = oci.ref.tag != null ? oci.ref.tag : oci.ref.semver != null ? oci.ref.semver : oci.ref.digest;
    return new InputRef(1, "oci", oci.url, null, Map.of(kind, value), oci.path);
  }

  static FluxSourceRef flux(String name, String path) {
    FluxSourceRef flux = new FluxSourceRef();
    flux.kind = FluxSourceRef.Kind.GitRepository;
    flux.name = name;
    flux.path = path;
    return flux;
  }

  static InputRef ref(FluxSourceRef flux) {
    return new InputRef(2, "fluxSource", null, flux.kind + "/" + flux.name, Map.of(), flux.path);
  }

  static InputRef archive(String path) {
    return new InputRef(3, "fluxSource", null, "GitRepository/test", Map.of(), path);
  }
}
