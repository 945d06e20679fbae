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
import java.util.Objects;
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
 * Reads a {@code git} input with JGit over http(s):// and ssh://, and over file:// for the offline
 * command line only ({@link FileUrls}).
 *
 * <p>{@link #resolveRevision} costs one ls-remote (nothing for a fixed commit). {@link #fetch} costs
 * nothing when the commit is already in the cache, otherwise one depth-1 fetch of that commit into
 * the bare cache repository of the URL and reader ({@link GitAccess}); the files are then read from
 * the object database. The caller compares revisions to decide whether to fetch at all.
 */
public final class GitBundleSource {
  private static final Logger LOG = LoggerFactory.getLogger(GitBundleSource.class);
  private static final Set<String> REMOTE_SCHEMES = Set.of("http", "https", "ssh");
  private static final String FILE_SCHEME = "file";

  /** Whether file:// URLs may be read: they read the disk of whoever runs the composer. */
  public enum FileUrls {
    /** The operator: a tenant must not read the operator's disk. */
    REFUSED,
    /** varroactl, offline, on the user's own disk (e.g. a CI checkout). */
    ALLOWED
  }

  private final Path cacheDirectory;
  private final SourceLimits limits;
  private final FileUrls fileUrls;
  private final GitCache cache;
  private final GitTreeReader treeReader;

  /** A source that refuses file:// URLs, as the operator needs. */
  public GitBundleSource(Path cacheDirectory, SourceLimits limits) {
    this(cacheDirectory, limits, FileUrls.REFUSED);
  }

  /**
   * @param cacheDirectory where bare cache repositories (and short-lived ssh key folders) live
   * @param fileUrls {@link FileUrls#ALLOWED} only for the offline command line
   */
  public GitBundleSource(Path cacheDirectory, SourceLimits limits, FileUrls fileUrls) {
    this.cacheDirectory = cacheDirectory;
    this.limits = limits;
    this.fileUrls = Objects.requireNonNull(fileUrls, "fileUrls");
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
  public GitRevision resolveRevision(InputRef input, GitSource spec, GitAccess access)
      throws BundleException, SourceUnavailableException {
    GitRefSelector selector = GitRefSelector.of(input, spec.ref);
    URIish uri = uri(input, spec.url);
    if (selector.isFixed()) {
      return selector.select(input, uri.toString(), Map.of());
    }
    try (GitTransportSetup setup = GitTransportSetup.of(input, uri, access.credentials(), scratchDirectory(), limits)) {
      return selector.select(input, uri.toString(), lsRemote(input, uri, setup, selector.refPrefix()));
    } catch (IOException e) {
      throw unavailable(input, uri, "cannot prepare the connection", e);
    }
  }

  /**
   * The files of the spec's path at {@code revision}, fetching the commit (depth 1) unless this
   * reader's cache of the URL already holds it.
   *
   * @throws SourceUnavailableException the remote could not be reached, or the cache could not be written
   * @throws BundleException INVALID: the path is missing, empty or unreadable at that commit, a limit was exceeded
   */
  public ResolvedInput fetch(InputRef input, GitSource spec, GitRevision revision, GitAccess access)
      throws BundleException, SourceUnavailableException {
    GitRefSelector selector = GitRefSelector.of(input, spec.ref);
    SourceFolder folder = SourceFolder.of(input, spec.path);
    URIish uri = uri(input, spec.url);
    ObjectId commit = ObjectId.fromString(revision.commit());
    String where = uri + " at " + revision.revision();
    String cacheKey = cacheKey(uri, access);
    try {
      return cache.withRepository(cacheKey, repository -> {
        if (!GitCache.hasCommit(repository, commit)) {
          fetchCommit(input, uri, repository, commit, access, selector);
        }
        GitCache.keep(repository, selector.cacheRef(revision), commit);
        BundleFiles files = treeReader.read(input, repository, commit, folder, where);
        return new ResolvedInput(input, revision.revision(), files);
      });
    } catch (IOException e) {
      throw unavailable(input, uri, "cannot use the Git cache " + cache.directoryFor(cacheKey), e);
    }
  }

  /** {@link #resolveRevision} then {@link #fetch}. */
  public ResolvedInput resolve(InputRef input, GitSource spec, GitAccess access)
      throws BundleException, SourceUnavailableException {
    return fetch(input, spec, resolveRevision(input, spec, access), access);
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
      GitAccess access, GitRefSelector selector) throws BundleException, SourceUnavailableException, IOException {
    try (GitTransportSetup setup = GitTransportSetup.of(input, uri, access.credentials(), scratchDirectory(), limits)) {
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
      LOG.info("event=git_fetch input={} url={} namespace={} commit={}", input.index(), uri, access.namespace(),
          commit.name());
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

  private URIish uri(InputRef input, String url) throws BundleException {
    URIish uri;
    try {
      uri = new URIish(url == null ? "" : url.strip());
    } catch (URISyntaxException e) {
      throw invalidUrl(input, "'" + url + "' is not a Git URL (" + e.getReason() + ")");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (REMOTE_SCHEMES.contains(scheme) || (scheme.equals(FILE_SCHEME) && fileUrls == FileUrls.ALLOWED)) {
      return uri;
    }
    boolean localPath = scheme.isEmpty() && uri.getHost() == null;
    if (fileUrls == FileUrls.REFUSED && (scheme.equals(FILE_SCHEME) || localPath)) {
      throw InvalidInput.field(input, "url", (localPath ? "a local path" : "a file:// URL")
              + " would read the operator's own disk, so the operator refuses it",
          "serve the repository over https:// or ssh:// and set url to that address (file:// works only with"
              + " varroactl, offline)");
    }
    throw invalidUrl(input, "'" + url + "' " + (localPath ? "is a local path"
        : scheme.isEmpty() ? "has no scheme (scp-like host:path addresses are not read)" : "is a " + scheme + ":// URL"));
  }

  private BundleException invalidUrl(InputRef input, String what) {
    boolean offline = fileUrls == FileUrls.ALLOWED;
    return InvalidInput.field(input, "url", what + ": the scheme must be https, http or ssh" + (offline ? " (or file)" : ""),
        "write the repository URL as https://host/org/repo.git or ssh://git@host/org/repo.git"
            + (offline ? ", or a local repository as file:///path/repo.git" : ""));
  }

  private static SourceUnavailableException unavailable(InputRef input, URIish uri, String what, Exception e) {
    return Unavailable.of(input, what + " for " + uri + ": " + FailureMessage.of(e),
        "check the disk space and permissions of the operator's cache directory", e);
  }

  private static SourceUnavailableException unavailable(InputRef input, URIish uri, String what, Exception e,
      GitTransportSetup setup) {
    return GitUnavailable.of(input, uri, what, e, setup.hostKeyRefused(e));
  }

  // Per reader and URL (user info included): a tenant reuses only what it fetched with its own credentials.
  private static String cacheKey(URIish uri, GitAccess access) {
    return access.cacheIdentity() + "\nurl=" + uri.toPrivateString();
  }
}
