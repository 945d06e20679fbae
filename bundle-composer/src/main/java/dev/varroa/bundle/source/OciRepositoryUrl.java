package dev.varroa.bundle.source;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.InputRef;
import java.util.regex.Pattern;

/**
 * An {@code oci://host[:port]/path/name} URL split into the registry host and the repository name.
 * The URL names a repository: tags and digests belong in ref, as in Flux.
 */
record OciRepositoryUrl(String registry, String repository) {
  private static final String PREFIX = "oci://";
  private static final Pattern REGISTRY = Pattern.compile("^[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^\\[[0-9A-Fa-f:.]+\\](:[0-9]{1,5})?$");
  // The distribution spec's repository name grammar.
  private static final Pattern REPOSITORY =
      Pattern.compile("^[a-z0-9]+((\\.|_|__|-+)[a-z0-9]+)*(/[a-z0-9]+((\\.|_|__|-+)[a-z0-9]+)*)*$");

  static OciRepositoryUrl parse(InputRef input, String url) throws BundleException {
    String fix = "write the url as oci://registry.example.com/path/name, without tag or digest (those go in ref)";
    if (url == null || !url.startsWith(PREFIX)) {
      throw InvalidInput.exception(input, "url '" + url + "' does not start with " + PREFIX, fix);
    }
    String rest = url.substring(PREFIX.length()).replaceAll("/+$", "");
    int slash = rest.indexOf('/');
    if (slash <= 0 || slash == rest.length() - 1) {
      throw InvalidInput.exception(input, "url '" + url + "' names no repository", fix);
    }
    String registry = rest.substring(0, slash);
    String repository = rest.substring(slash + 1);
    if (!REGISTRY.matcher(registry).matches()) {
      throw InvalidInput.exception(input, "url '" + url + "' has an invalid registry host '" + registry + "'", fix);
    }
    if (!REPOSITORY.matcher(repository).matches()) {
      throw InvalidInput.exception(input, "url '" + url + "' has an invalid repository name '" + repository
          + "' (lowercase letters, digits and separators; no tag or digest)", fix);
    }
    return new OciRepositoryUrl(registry, repository);
  }

  String reference(String tagOrDigest) {
    return registry + "/" + repository + (tagOrDigest.contains(":") ? "@" : ":") + tagOrDigest;
  }

  @Override
  public String toString() {
    return PREFIX + registry + "/" + repository;
  }
}
