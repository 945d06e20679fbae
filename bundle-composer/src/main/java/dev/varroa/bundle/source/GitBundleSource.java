package dev.varroa.bundle.source;

import dev.varroa.api.v1alpha1.GitSource;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.SourceUnavailableException;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.api.errors.JGitInternalException;
import org.eclipse.jgit.errors.NotSupportedException;
import org.eclipse.jgit.errors.TransportException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.transport.FetchConnection;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.TagOpt;
import org.eclipse.jgit.transport.Transport;
import org.eclipse.jgit.transport.URIish;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a {@code git} input with JGit over file://, http(s):// and ssh://.
 *
 * <p>{@link #resolveRevision} costs one ls-remote (nothing for a fixed commit). {@link #fetch} costs
 * nothing when the commit is already in the cache, otherwise one depth-1 fetch of that commit into
 * the bare cache repository of the URL; the files are then read from the object database. The caller
 * compares revisions to decide whether to fetch at all.
 */
public final class GitBundleSource {
  private static final Logger LOG = LoggerFactory.getLogger(GitBundleSource.class);
  private static final Set<String> SCHEMES = Set.of("file", "http", "https", "ssh");

  private final Path cacheDirectory;
  private final SourceLimits limits;
  private final GitCache cache;
  private final GitTreeReader treeReader;

  /** @param cacheDirectory where bare cache repositories (and short-lived ssh key folders) live */
  public GitBundleSource(Path cacheDirectory, SourceLimits limits) {
    this.cacheDirectory = cacheDirectory;
    this.limits = limits;
    this.cache = new GitCache(cacheDirectory);
    this.treeReader = new GitTreeReader(limits);
  }

  /**
   * The commit the spec's ref points to now: one ls-remote for a branch, tag or semver range, no
   * network for a commit.
   *
   * @throws SourceUnavailableException the remote could not be reached or refused the credentials
   * @throws BundleException INVALID: malformed spec, no such branch or tag, no tag in the semver range
   */
  public GitRevision resolveRevision(InputRef input, GitSource spec, GitCredentials credentials)
      throws BundleException, SourceUnavailableException {
    GitRefSelector selector = GitRefSelector.of(input, spec.ref);
    URIish uri = uri(input, spec.url);
    if (selector.isFixed()) {
      return selector.select(input, uri.toString(), Map.of());
    }
    try (GitTransportSetup setup = GitTransportSetup.of(input, uri, credentials, scratchDirectory(), limits)) {
      return selector.select(input, uri.toString(), lsRemote(input, uri, setup, selector.refPrefix()));
    } catch (IOException e) {
      throw unavailable(input, uri, "cannot prepare the connection", e);
    }
  }

  /**
   * The files of the spec's path at {@code revision}, fetching the commit (depth 1) unless the cache
   * already holds it.
   *
   * @throws SourceUnavailableException the remote could not be reached, or the cache could not be written
   * @throws BundleException INVALID: the path is missing, empty or unreadable at that commit, a limit was exceeded
   */
  public ResolvedInput fetch(InputRef input, GitSource spec, GitRevision revision, GitCredentials credentials)
      throws BundleException, SourceUnavailableException {
    GitRefSelector selector = GitRefSelector.of(input, spec.ref);
    SourceFolder folder = SourceFolder.of(input, spec.path);
    URIish uri = uri(input, spec.url);
    ObjectId commit = ObjectId.fromString(revision.commit());
    String where = uri + " at " + revision.revision();
    try {
      return cache.withRepository(cacheKey(uri), repository -> {
        if (!GitCache.hasCommit(repository, commit)) {
          fetchCommit(input, uri, repository, commit, credentials, selector);
        }
        GitCache.keep(repository, selector.cacheRef(revision), commit);
        BundleFiles files = treeReader.read(input, repository, commit, folder, where);
        return new ResolvedInput(input, revision.revision(), files);
      });
    } catch (IOException e) {
      throw unavailable(input, uri, "cannot use the Git cache " + cache.directoryFor(cacheKey(uri)), e);
    }
  }

  /** {@link #resolveRevision} then {@link #fetch}. */
  public ResolvedInput resolve(InputRef input, GitSource spec, GitCredentials credentials)
      throws BundleException, SourceUnavailableException {
    return fetch(input, spec, resolveRevision(input, spec, credentials), credentials);
  }

  /** Full ref name → commit id, annotated tags peeled to their commit. */
  private Map<String, String> lsRemote(InputRef input, URIish uri, GitTransportSetup setup, String refPrefix)
      throws SourceUnavailableException {
    Map<String, String> refs = new HashMap<>();
    try (Transport transport = Transport.open(uri)) {
      setup.configure(transport);
      try (FetchConnection connection = transport.openFetch(List.of(), refPrefix)) {
        for (Ref ref : connection.getRefs()) {
          ObjectId id = ref.getPeeledObjectId() != null ? ref.getPeeledObjectId() : ref.getObjectId();
          if (id != null) {
            refs.put(ref.getName(), id.name());
          }
        }
      }
    } catch (TransportException | NotSupportedException e) {
      throw unavailable(input, uri, "cannot list the refs of", e, setup);
    }
    LOG.debug("event=git_ls_remote input={} url={} refs={}", input.index(), uri, refs.size());
    return refs;
  }

  private void fetchCommit(InputRef input, URIish uri, Repository repository, ObjectId commit,
      GitCredentials credentials, GitRefSelector selector) throws BundleException, SourceUnavailableException, IOException {
    try (GitTransportSetup setup = GitTransportSetup.of(input, uri, credentials, scratchDirectory(), limits)) {
      try {
        // No destination ref: keep() names the commit once it is here, one ref write instead of two.
        Git.wrap(repository).fetch()
            .setRemote(uri.toPrivateString())
            .setRefSpecs(new RefSpec(commit.name()))
            .setDepth(1)
            .setTagOpt(TagOpt.NO_TAGS)
            .setTransportConfigCallback(setup)
            .call();
      } catch (GitAPIException | JGitInternalException e) {
        if (selector.isFixed()) {
          throw missingCommitOrUnavailable(input, uri, setup, commit, e);
        }
        throw unavailable(input, uri, "cannot fetch commit " + commit.name() + " from", e, setup);
      }
      if (!GitCache.hasCommit(repository, commit)) {
        throw unavailable(input, uri, "the fetch of commit " + commit.name() + " did not deliver it from", null, setup);
      }
      LOG.info("event=git_fetch input={} url={} commit={}", input.index(), uri, commit.name());
    }
  }

  // A server answers a missing commit in many ways; one ls-remote tells "reachable, commit absent" from "unreachable".
  private SourceUnavailableException missingCommitOrUnavailable(InputRef input, URIish uri, GitTransportSetup setup,
      ObjectId commit, Exception fetchFailure) throws BundleException {
    try {
      lsRemote(input, uri, setup, "HEAD");
    } catch (SourceUnavailableException unreachable) {
      unreachable.addSuppressed(fetchFailure);
      return unreachable;
    }
    throw InvalidInput.exception(input, "commit " + commit.name() + " cannot be fetched from " + uri + ": "
            + FailureMessage.of(fetchFailure),
        "check ref.commit: the commit must exist in the repository (the server must allow fetching it by id)");
  }

  private Path scratchDirectory() {
    return cacheDirectory.resolve("scratch");
  }

  private static URIish uri(InputRef input, String url) throws BundleException {
    try {
      URIish uri = new URIish(url == null ? "" : url.strip());
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!SCHEMES.contains(scheme)) {
        throw new URISyntaxException(url, "the scheme must be https, http, ssh or file");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw InvalidInput.exception(input, "url '" + url + "' is not a Git URL: " + e.getReason(),
          "write the repository URL as https://host/org/repo.git, ssh://git@host/org/repo.git or file:///path/repo.git");
    }
  }

  private static SourceUnavailableException unavailable(InputRef input, URIish uri, String what, Exception e) {
    return Unavailable.of(input, what + " for " + uri + ": " + FailureMessage.of(e),
        "check the disk space and permissions of the operator's cache directory", e);
  }

  private static SourceUnavailableException unavailable(InputRef input, URIish uri, String what, Exception e,
      GitTransportSetup setup) {
    return GitUnavailable.of(input, uri, what, e, setup.hostKeyRefused(e));
  }

  // The cache is per repository, whoever reads it: user and password stay out of the key.
  private static String cacheKey(URIish uri) {
    return uri.setUser(null).setPass(null).toString();
  }
}
