package dev.varroa.bundle.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.varroa.api.v1alpha1.GitSource;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.SourceUnavailableException;
import dev.varroa.testfixtures.git.GitRepository;
import dev.varroa.testfixtures.git.GitServerExtension;
import dev.varroa.testfixtures.process.LoopbackPort;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class GitBundleSourceIT {
  @RegisterExtension
  static final GitServerExtension GIT = new GitServerExtension();
  private static final AtomicInteger NAMES = new AtomicInteger();

  private static final String TENANT = "tenant-a";
  private static final GitAccess ANONYMOUS = GitAccess.anonymous(TENANT);

  @TempDir
  Path cache;

  private GitBundleSource source() {
    return new GitBundleSource(cache, SourceLimits.DEFAULTS);
  }

  private static GitAccess reader(GitCredentials credentials) {
    return new GitAccess(TENANT, "git-credentials", credentials);
  }

  @Test
  void resolvesABranchOverFileUrlOfflineAndReadsItsFolder() throws Exception {
    GitRepository repo = repository();
    String commit = repo.commit(Map.of("teams/a/plugins.yaml", "plugins: []", "teams/a/jcasc/base.yaml", "jenkins: {}",
        "teams/b/plugins.yaml", "other"), "bundles");
    GitSource spec = Inputs.git(repo.fileUrl(), "branch", "main", "teams/a");

    ResolvedInput resolved = new GitBundleSource(cache, SourceLimits.DEFAULTS, GitBundleSource.FileUrls.ALLOWED)
        .resolve(Inputs.ref(spec), spec, ANONYMOUS);

    assertThat(resolved.revision()).isEqualTo("main@sha1:" + commit);
    assertThat(resolved.files().files()).containsOnlyKeys("plugins.yaml", "jcasc/base.yaml");
    assertThat(text(resolved, "jcasc/base.yaml")).isEqualTo("jenkins: {}");
    assertThat(resolved.ref()).isEqualTo(Inputs.ref(spec));
  }

  @Test
  void resolvesAnAnnotatedTagOverHttpToItsCommit() throws Exception {
    GitRepository repo = repository();
    String tagged = repo.commit(Map.of("plugins.yaml", "v1"), "one");
    String tagObject = repo.tag("v1.0.0", tagged);
    repo.commit(Map.of("plugins.yaml", "v2"), "two");
    GitSource spec = Inputs.git(repo.httpUrl(), "tag", "v1.0.0", null);

    ResolvedInput resolved = source().resolve(Inputs.ref(spec), spec, ANONYMOUS);

    assertThat(tagObject).isNotEqualTo(tagged);
    assertThat(resolved.revision()).isEqualTo("v1.0.0@sha1:" + tagged);
    assertThat(text(resolved, "plugins.yaml")).isEqualTo("v1");
  }

  @Test
  void resolvesTheHighestTagInASemverRange() throws Exception {
    GitRepository repo = repository();
    String v120 = repo.commit(Map.of("plugins.yaml", "1.2.0"), "1.2.0");
    repo.tag("v1.2.0", v120);
    String v1100 = repo.commit(Map.of("plugins.yaml", "1.10.0"), "1.10.0");
    repo.tag("1.10.0", v1100);
    String v200 = repo.commit(Map.of("plugins.yaml", "2.0.0"), "2.0.0");
    repo.tag("v2.0.0", v200);
    GitSource spec = Inputs.git(repo.httpUrl(), "semver", ">=1.2.0 <2.0.0", null);

    ResolvedInput resolved = source().resolve(Inputs.ref(spec), spec, ANONYMOUS);

    assertThat(resolved.revision()).isEqualTo("1.10.0@sha1:" + v1100);
    assertThat(text(resolved, "plugins.yaml")).isEqualTo("1.10.0");
  }

  @Test
  void takesAFixedCommitWithoutAskingTheRemoteThenFetchesIt() throws Exception {
    GitRepository repo = repository();
    String first = repo.commit(Map.of("plugins.yaml", "first"), "first");
    repo.commit(Map.of("plugins.yaml", "second"), "second");
    GitSource nowhere = Inputs.git("http://127.0.0.1:" + LoopbackPort.pickFree() + "/nothing.git", "commit", first, null);
    GitSource spec = Inputs.git(repo.httpUrl(), "commit", first, null);

    GitRevision offline = source().resolveRevision(Inputs.ref(nowhere), nowhere, ANONYMOUS);
    ResolvedInput resolved = source().fetch(Inputs.ref(spec), spec, offline, ANONYMOUS);

    assertThat(offline.revision()).isEqualTo("sha1:" + first);
    assertThat(text(resolved, "plugins.yaml")).isEqualTo("first");
  }

  @Test
  void followsAMovedBranchWithOneLsRemoteAndOneShallowFetchOfTheNewCommitOnly() throws Exception {
    GitRepository repo = repository();
    String first = repo.commit(Map.of("teams/a/plugins.yaml", "first", "shared/big.yaml", "unchanged"), "first");
    try (CountingHttpProxy proxy = CountingHttpProxy.inFrontOf(repo.httpUrl())) {
      GitSource spec = Inputs.git(proxy.url(repo.httpUrl()), "branch", "main", "teams/a");
      GitBundleSource source = source();

      GitRevision initial = source.resolveRevision(Inputs.ref(spec), spec, ANONYMOUS);
      source.fetch(Inputs.ref(spec), spec, initial, ANONYMOUS);
      assertThat(proxy.gitConnections()).as("first ls-remote and fetch").isEqualTo(2);
      Path cacheRepo = onlyCacheRepository();
      List<Path> packsBefore = packs(cacheRepo);

      proxy.reset();
      GitRevision unchanged = source.resolveRevision(Inputs.ref(spec), spec, ANONYMOUS);
      ResolvedInput again = source.fetch(Inputs.ref(spec), spec, unchanged, ANONYMOUS);
      assertThat(unchanged).isEqualTo(initial);
      assertThat(proxy.gitConnections()).as("an unchanged branch costs the ls-remote only").isEqualTo(1);
      assertThat(packs(cacheRepo)).isEqualTo(packsBefore);
      assertThat(text(again, "plugins.yaml")).isEqualTo("first");

      String skipped = repo.commit(Map.of("teams/a/plugins.yaml", "second"), "second");
      String third = repo.commit(Map.of("teams/a/plugins.yaml", "third"), "third");
      proxy.reset();
      GitRevision moved = source.resolveRevision(Inputs.ref(spec), spec, ANONYMOUS);
      ResolvedInput fetched = source.fetch(Inputs.ref(spec), spec, moved, ANONYMOUS);

      assertThat(moved.revision()).isEqualTo("main@sha1:" + third);
      assertThat(text(fetched, "plugins.yaml")).isEqualTo("third");
      assertThat(proxy.gitConnections()).as("one ls-remote and one fetch").isEqualTo(2);
      List<Path> newPacks = packs(cacheRepo).stream().filter(p -> !packsBefore.contains(p)).toList();
      assertThat(newPacks).hasSize(1);
      // The third commit, its root, teams/ and teams/a/ trees, and the one changed blob: shared/ is not sent again.
      assertThat(objectCount(newPacks.get(0))).isEqualTo(5);
      try (Repository cached = new FileRepositoryBuilder().setGitDir(cacheRepo.toFile()).build()) {
        assertThat(cached.getObjectDatabase().has(ObjectId.fromString(first))).isTrue();
        assertThat(cached.getObjectDatabase().has(ObjectId.fromString(skipped))).as("depth 1 skips the commit in between").isFalse();
        assertThat(cached.exactRef("refs/varroa/branches/main").getObjectId().name()).isEqualTo(third);
      }
    }
  }

  @Test
  void readsFilesFromTheObjectDatabaseWithoutAWorkTree() throws Exception {
    GitRepository repo = repository();
    repo.commit(Map.of("teams/a/plugins.yaml", "p"), "one");
    GitSource spec = Inputs.git(repo.httpUrl(), "branch", "main", "teams/a");

    source().resolve(Inputs.ref(spec), spec, ANONYMOUS);

    Path cacheRepo = onlyCacheRepository();
    assertThat(cacheRepo.resolve("HEAD")).exists();
    assertThat(cacheRepo.resolve(".git")).doesNotExist();
    try (Repository cached = new FileRepositoryBuilder().setGitDir(cacheRepo.toFile()).build(); Stream<Path> all = Files.walk(cache)) {
      assertThat(cached.isBare()).isTrue();
      assertThat(all.map(p -> p.getFileName().toString())).doesNotContain("plugins.yaml", "teams", "a");
    }
  }

  @Test
  void readsAPrivateRepositoryWithBasicAuthOrAToken() throws Exception {
    GitRepository basic = repository().requireBasicAuth("reader", "s3cret");
    basic.commit(Map.of("plugins.yaml", "private"), "one");
    GitRepository token = repository().requireBasicAuth(GitCredentials.Token.DEFAULT_USERNAME, "ghp_token");
    token.commit(Map.of("plugins.yaml", "token"), "one");
    GitSource basicSpec = Inputs.git(basic.httpUrl(), "branch", "main", null);
    GitSource tokenSpec = Inputs.git(token.httpUrl(), "branch", "main", null);

    ResolvedInput viaBasic = source().resolve(Inputs.ref(basicSpec), basicSpec, reader(new GitCredentials.Basic("reader", "s3cret")));
    ResolvedInput viaToken = source().resolve(Inputs.ref(tokenSpec), tokenSpec, reader(new GitCredentials.Token("ghp_token")));

    assertThat(text(viaBasic, "plugins.yaml")).isEqualTo("private");
    assertThat(text(viaToken, "plugins.yaml")).isEqualTo("token");
  }

  @Test
  void reportsAWrongPasswordAsUnavailableWithTheFix() throws Exception {
    GitRepository repo = repository().requireBasicAuth("reader", "s3cret");
    repo.commit(Map.of("plugins.yaml", "private"), "one");
    GitSource spec = Inputs.git(repo.httpUrl(), "branch", "main", null);

    SourceUnavailableException wrong = catchThrowableOfType(SourceUnavailableException.class,
        () -> source().resolve(Inputs.ref(spec), spec, reader(new GitCredentials.Basic("reader", "wrong"))));
    SourceUnavailableException none = catchThrowableOfType(SourceUnavailableException.class,
        () -> source().resolve(Inputs.ref(spec), spec, ANONYMOUS));

    assertThat(wrong.getMessage()).contains(Inputs.ref(spec).describe()).contains("not authorized")
        .contains("check the username and password (or token) in the Secret named by secretRef")
        .doesNotContain("wrong");
    assertThat(none.getMessage()).contains("Authentication is required");
  }

  @Test
  void reportsAnUnreachableServerAsUnavailable() {
    String url = "http://127.0.0.1:" + LoopbackPort.pickFree() + "/git/gone.git";
    GitSource spec = Inputs.git(url, "branch", "main", null);

    SourceUnavailableException e = catchThrowableOfType(SourceUnavailableException.class,
        () -> source().resolveRevision(Inputs.ref(spec), spec, ANONYMOUS));

    assertThat(e.getMessage()).contains("cannot list the refs of " + url).contains("connection refused")
        .contains("the last good render stays in force");
  }

  @Test
  void reportsAMissingPathAsInvalidNamingInputPathAndFix() throws Exception {
    GitRepository repo = repository();
    repo.commit(Map.of("teams/a/plugins.yaml", "p", "README.md", "r"), "one");
    GitSource spec = Inputs.git(repo.httpUrl(), "branch", "main", "teams/b");

    BundleException e = catchThrowableOfType(BundleException.class,
        () -> source().resolve(Inputs.ref(spec), spec, ANONYMOUS));

    assertThat(e).isNotInstanceOf(SourceUnavailableException.class);
    assertThat(e.kind()).isEqualTo(BundleProblem.Kind.INVALID);
    assertThat(e.problems().get(0).input()).isEqualTo(Inputs.ref(spec).describe());
    assertThat(e.getMessage()).contains("folder 'teams/b' is missing or empty").contains("README.md, teams/")
        .contains("fix: set path to the folder that holds the bundle files");
  }

  @Test
  void reportsAPathThatIsAFileAsInvalid() throws Exception {
    GitRepository repo = repository();
    repo.commit(Map.of("teams/a/plugins.yaml", "p"), "one");
    GitSource spec = Inputs.git(repo.httpUrl(), "branch", "main", "teams/a/plugins.yaml");

    assertThat(catchThrowableOfType(BundleException.class, () -> source().resolve(Inputs.ref(spec), spec, ANONYMOUS)))
        .hasMessageContaining("path 'teams/a/plugins.yaml' is a file");
  }

  @Test
  void reportsAMissingBranchAsInvalid() throws Exception {
    GitRepository repo = repository();
    repo.commit(Map.of("plugins.yaml", "p"), "one");
    GitSource spec = Inputs.git(repo.httpUrl(), "branch", "develop", null);

    BundleException e = catchThrowableOfType(BundleException.class,
        () -> source().resolveRevision(Inputs.ref(spec), spec, ANONYMOUS));

    assertThat(e).isNotInstanceOf(SourceUnavailableException.class).hasMessageContaining("branch 'develop' does not exist");
  }

  @Test
  void reportsACommitTheRepositoryDoesNotHaveAsInvalid() throws Exception {
    GitRepository repo = repository();
    repo.commit(Map.of("plugins.yaml", "p"), "one");
    String missing = "0123456789abcdef0123456789abcdef01234567";
    GitSource spec = Inputs.git(repo.httpUrl(), "commit", missing, null);

    BundleException e = catchThrowableOfType(BundleException.class,
        () -> source().resolve(Inputs.ref(spec), spec, ANONYMOUS));

    assertThat(e).isNotInstanceOf(SourceUnavailableException.class)
        .hasMessageContaining("commit " + missing + " cannot be fetched from " + repo.httpUrl());
  }

  @Test
  void appliesTheFileLimitsToTreeReads() throws Exception {
    GitRepository repo = repository();
    repo.commit(Map.of("jcasc/big.yaml", "x".repeat(2048), "plugins.yaml", "p"), "one");
    GitSource spec = Inputs.git(repo.httpUrl(), "branch", "main", null);
    SourceLimits small = new SourceLimits(1 << 20, 1024, 10, 1 << 20, Duration.ofSeconds(30));

    BundleException e = catchThrowableOfType(BundleException.class,
        () -> new GitBundleSource(cache, small).resolve(Inputs.ref(spec), spec, ANONYMOUS));

    assertThat(e.problems().get(0).file()).isEqualTo("jcasc/big.yaml");
    assertThat(e.getMessage()).contains("maxFileBytes limit of 1024 bytes");
  }

  @Test
  void refusesSshWithoutAKey() {
    GitSource spec = Inputs.git("ssh://git@127.0.0.1:1/repo.git", "branch", "main", null);

    assertThat(catchThrowableOfType(BundleException.class,
        () -> source().resolveRevision(Inputs.ref(spec), spec, reader(new GitCredentials.Basic("u", "p")))))
        .isNotInstanceOf(SourceUnavailableException.class)
        .hasMessageContaining("needs a private key and the server's known_hosts");
  }

  @Test
  void refusesAFileUrlNamingTheInputTheFieldAndTheFix() throws Exception {
    GitRepository repo = repository();
    String commit = repo.commit(Map.of("plugins.yaml", "on the operator's disk"), "one");
    GitSource branch = Inputs.git(repo.fileUrl(), "branch", "main", null);
    GitSource pinned = Inputs.git(repo.fileUrl().replace("file://", "FILE://"), "commit", commit, null);

    BundleException byBranch = catchThrowableOfType(BundleException.class,
        () -> source().resolve(Inputs.ref(branch), branch, ANONYMOUS));
    BundleException byCommit = catchThrowableOfType(BundleException.class,
        () -> source().fetch(Inputs.ref(pinned), pinned, GitRevision.parse("sha1:" + commit), ANONYMOUS));

    for (BundleException e : List.of(byBranch, byCommit)) {
      assertThat(e).isNotInstanceOf(SourceUnavailableException.class);
      assertThat(e.kind()).isEqualTo(BundleProblem.Kind.INVALID);
      assertThat(e.problems().get(0).yamlPath()).isEqualTo("url");
      assertThat(e.getMessage()).contains("would read the operator's own disk")
          .contains("fix: serve the repository over https:// or ssh://");
    }
    assertThat(byBranch.problems().get(0).input()).isEqualTo(Inputs.ref(branch).describe());
    assertThat(cache.resolve("git")).doesNotExist();
  }

  @Test
  void refusesALocalPathAndAnScpLikeAddress() throws Exception {
    GitRepository repo = repository();
    repo.commit(Map.of("plugins.yaml", "p"), "one");
    GitSource localPath = Inputs.git(repo.gitDir().toString(), "branch", "main", null);
    GitSource scpLike = Inputs.git("git@127.0.0.1:org/repo.git", "branch", "main", null);

    assertThat(catchThrowableOfType(BundleException.class,
        () -> source().resolve(Inputs.ref(localPath), localPath, ANONYMOUS)))
        .isNotInstanceOf(SourceUnavailableException.class)
        .hasMessageContaining("a local path would read the operator's own disk");
    assertThat(catchThrowableOfType(BundleException.class,
        () -> source().resolve(Inputs.ref(scpLike), scpLike, ANONYMOUS)))
        .isNotInstanceOf(SourceUnavailableException.class)
        .hasMessageContaining("has no scheme").hasMessageContaining("ssh://git@host/org/repo.git");
  }

  @Test
  void anotherTenantWithoutTheCredentialsDoesNotReadACachedPrivateRepository() throws Exception {
    GitRepository repo = repository().requireBasicAuth("reader", "s3cret");
    String commit = repo.commit(Map.of("plugins.yaml", "private to tenant a"), "one");
    GitSource branch = Inputs.git(repo.httpUrl(), "branch", "main", null);
    // A pinned commit needs no ls-remote: only the cache could answer it without credentials.
    GitSource pinned = Inputs.git(repo.httpUrl(), "commit", commit, null);
    GitRevision revision = GitRevision.parse("sha1:" + commit);
    GitBundleSource source = source();
    ResolvedInput owner = source.resolve(Inputs.ref(branch), branch,
        new GitAccess("tenant-a", "git-credentials", new GitCredentials.Basic("reader", "s3cret")));
    assertThat(text(owner, "plugins.yaml")).isEqualTo("private to tenant a");

    List<GitAccess> others = List.of(
        GitAccess.anonymous("tenant-b"),
        new GitAccess("tenant-b", "git-credentials", new GitCredentials.Basic("reader", "guess")),
        GitAccess.anonymous("tenant-a"),
        new GitAccess("tenant-a", "git-credentials", new GitCredentials.Token("reader", "guess")));
    for (GitAccess other : others) {
      assertThat(catchThrowableOfType(SourceUnavailableException.class,
          () -> source.fetch(Inputs.ref(pinned), pinned, revision, other)))
          .as("%s reads the commit tenant-a fetched", other).isNotNull()
          .hasMessageContaining("cannot list the refs of " + repo.httpUrl());
    }
    try (Stream<Path> files = Files.walk(cache)) {
      for (Path file : files.toList()) {
        assertThat(file.getFileName().toString()).doesNotContain("s3cret");
        if (Files.isRegularFile(file)) {
          assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).doesNotContain("s3cret");
        }
      }
    }
  }

  private static GitRepository repository() throws IOException {
    return GIT.server().createRepository("bundles-" + NAMES.incrementAndGet());
  }

  private Path onlyCacheRepository() throws IOException {
    try (Stream<Path> repos = Files.list(cache.resolve("git"))) {
      List<Path> all = repos.toList();
      assertThat(all).hasSize(1);
      return all.get(0);
    }
  }

  private static List<Path> packs(Path repo) throws IOException {
    try (Stream<Path> files = Files.list(repo.resolve("objects/pack"))) {
      return files.filter(p -> p.toString().endsWith(".pack")).sorted().toList();
    }
  }

  // A pack file starts with "PACK", a version and the object count, each 4 bytes big-endian.
  private static int objectCount(Path pack) throws IOException {
    try (InputStream in = Files.newInputStream(pack); DataInputStream data = new DataInputStream(in)) {
      data.skipNBytes(8);
      return data.readInt();
    }
  }

  private static String text(ResolvedInput resolved, String file) {
    return new String(resolved.files().file(file).orElseThrow(), StandardCharsets.UTF_8);
  }
}
