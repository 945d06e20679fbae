package dev.varroa.operator.hooks;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What makes two repository URLs name the same repository: the host (case-insensitive, without port or
 * user) and the path (without a leading or trailing slash, without {@code .git}). The https, ssh and
 * scp-like forms of one repository have the same key.
 */
public record RepositoryKey(String host, String path) {
  private static final Set<String> GIT_SCHEMES = Set.of("http", "https", "ssh", "git", "git+ssh", "ssh+git", "file");
  /** {@code git@host:owner/repo.git}: user optional, no scheme, a colon not followed by a slash. */
  private static final Pattern SCP_LIKE = Pattern.compile("^(?:[^@/:]+@)?([^@/:\\[\\]]+):(?!/)(.+)$");
  private static final String GIT_SUFFIX = ".git";
  private static final String OCI_PREFIX = "oci://";

  /** The key of a Git URL in any form a provider or a spec writes; empty when it is not one. */
  public static Optional<RepositoryKey> ofGitUrl(String url) {
    if (url == null || url.isBlank()) {
      return Optional.empty();
    }
    String trimmed = url.strip();
    if (!trimmed.contains("://")) {
      Matcher scp = SCP_LIKE.matcher(trimmed);
      return scp.matches() ? of(scp.group(1), scp.group(2), true) : Optional.empty();
    }
    try {
      URI uri = new URI(trimmed);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!GIT_SCHEMES.contains(scheme)) {
        return Optional.empty();
      }
      String host = uri.getHost() != null ? uri.getHost() : hostOfAuthority(uri.getRawAuthority());
      if ("file".equals(scheme)) {
        return uri.getPath() == null ? Optional.empty() : Optional.of(new RepositoryKey("", trimPath(uri.getPath(), true)));
      }
      return of(host, uri.getPath(), true);
    } catch (java.net.URISyntaxException e) {
      return Optional.empty();
    }
  }

  /** The key of {@code oci://host[:port]/repository}; the port stays, as a registry is named by host and port. */
  public static Optional<RepositoryKey> ofOciUrl(String url) {
    if (url == null || !url.strip().toLowerCase(Locale.ROOT).startsWith(OCI_PREFIX)) {
      return Optional.empty();
    }
    String rest = url.strip().substring(OCI_PREFIX.length());
    int slash = rest.indexOf('/');
    return slash <= 0 ? Optional.empty() : ofRegistry(rest.substring(0, slash), rest.substring(slash + 1));
  }

  /** The key of a repository in a registry, as a registry's notification names them. */
  public static Optional<RepositoryKey> ofRegistry(String hostAndPort, String repository) {
    return of(hostAndPort, repository, false);
  }

  /** host/path, for logs and events: never a user, password or token. */
  @Override
  public String toString() {
    return host.isEmpty() ? path : host + "/" + path;
  }

  private static Optional<RepositoryKey> of(String host, String path, boolean git) {
    if (host == null || host.isBlank() || path == null) {
      return Optional.empty();
    }
    String trimmed = trimPath(path, git);
    return trimmed.isEmpty() ? Optional.empty() : Optional.of(new RepositoryKey(host.toLowerCase(Locale.ROOT), trimmed));
  }

  private static String trimPath(String path, boolean git) {
    String p = stripSlashes(path);
    if (git && p.endsWith(GIT_SUFFIX)) {
      p = stripSlashes(p.substring(0, p.length() - GIT_SUFFIX.length()));
    }
    return p;
  }

  private static String stripSlashes(String path) {
    int start = 0;
    int end = path.length();
    while (start < end && path.charAt(start) == '/') {
      start++;
    }
    while (end > start && path.charAt(end - 1) == '/') {
      end--;
    }
    return path.substring(start, end);
  }

  // URI leaves getHost() null for names it finds odd (an underscore); the authority still has it.
  private static String hostOfAuthority(String authority) {
    if (authority == null) {
      return null;
    }
    String host = authority.substring(authority.lastIndexOf('@') + 1);
    int colon = host.lastIndexOf(':');
    return colon > 0 && !host.endsWith("]") ? host.substring(0, colon) : host;
  }
}
