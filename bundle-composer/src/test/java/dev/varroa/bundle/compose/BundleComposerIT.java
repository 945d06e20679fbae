package dev.varroa.bundle.compose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.api.v1alpha1.BundleInput;
import dev.varroa.api.v1alpha1.GitSource;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.SourceUnavailableException;
import dev.varroa.bundle.VersionProfile;
import dev.varroa.bundle.source.FluxArtifactSource;
import dev.varroa.bundle.source.GitBundleSource;
import dev.varroa.bundle.source.OciBundleSource;
import dev.varroa.bundle.source.SourceLimits;
import dev.varroa.testfixtures.git.GitRepository;
import dev.varroa.testfixtures.git.GitServer;
import dev.varroa.testfixtures.git.GitServerExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The composer against real Git repositories over smart HTTP: memo, moved branches, last good render. */
@ExtendWith(GitServerExtension.class)
class BundleComposerIT {
  private static final VersionProfile PROFILE = new VersionProfile("lts", "2.555.2", "jenkins/jenkins:2.555.2",
      List.of(new VersionProfile.PluginVersion("git", "5.8.0")), "");

  @TempDir Path cache;
  private GitRepository repo;
  private String url;
  private BundleComposer composer;

  @BeforeEach
  void repository(GitServer git) throws Exception {
    String name = "team-" + System.nanoTime();
    repo = git.createRepository(name);
    repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: one\n", "plugins.yaml", "plugins:\n  - id: git\n"),
        "one");
    url = git.httpUrl(name);
    SourceLimits limits = SourceLimits.DEFAULTS;
    composer = new BundleComposer(new SourceInputResolver(new GitBundleSource(cache, limits),
        new OciBundleSource(limits), new FluxArtifactSource(limits), SourceObjects.none("ci")));
  }

  private ComposeRequest request() {
    GitSource git = new GitSource();
    git.url = url;
    git.ref = new GitSource.GitRef();
    git.ref.branch = "main";
    BundleInput input = new BundleInput();
    input.git = git;
    return new ComposeRequest("ci/team-a", "team-a", List.of(input), PROFILE, Set.of(), JenkinsEnvironment.VARIABLES);
  }

  @Test
  void unchangedInputsRenderFromTheMemoWithZeroFetches() throws Exception {
    Composition first = composer.compose(request());
    BundleComposer.Counters before = composer.counters();

    Composition again = composer.compose(request());

    BundleComposer.Counters after = composer.counters();
    assertThat(again.fromMemo()).isTrue();
    assertThat(again.rendered()).isEqualTo(first.rendered());
    assertThat(after.fetches() - before.fetches()).isZero();
    assertThat(after.renders() - before.renders()).isZero();
    assertThat(after.revisionChecks() - before.revisionChecks()).isEqualTo(1);
  }

  @Test
  void movedBranchCostsOneCheckAndOneFetch() throws Exception {
    composer.compose(request());
    String moved = repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: two\n"), "two");
    BundleComposer.Counters before = composer.counters();

    Composition next = composer.compose(request());

    BundleComposer.Counters after = composer.counters();
    assertThat(next.fromMemo()).isFalse();
    assertThat(next.revisions()).containsExactly("main@sha1:" + moved);
    assertThat(next.rendered().jcascText()).contains("systemMessage: two");
    assertThat(after.revisionChecks() - before.revisionChecks()).isEqualTo(1);
    assertThat(after.fetches() - before.fetches()).isEqualTo(1);
  }

  @Test
  void keepsLastGoodRenderWhenGitIsUnreachable() throws Exception {
    Composition good = composer.compose(request());
    repo.requireBasicAuth("someone", "a-password-the-operator-lacks");
    repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: unseen\n"), "unseen");

    Composition kept = composer.compose(request());

    assertThat(kept.stale()).isTrue();
    assertThat(kept.rendered()).isEqualTo(good.rendered());
    assertThat(kept.sourceFailure().orElseThrow()).isInstanceOf(SourceUnavailableException.class);
    assertThat(kept.sourceFailure().orElseThrow().getMessage()).contains("spec.inputs[0]");
    assertThat(composer.lastGood("ci/team-a")).contains(good.rendered());
  }

  @Test
  void unreachableSourceWithoutAnEarlierRenderFailsNamingTheInput() {
    url = url.replaceFirst("127\\.0\\.0\\.1:\\d+", "127.0.0.1:9");

    assertThatThrownBy(() -> composer.compose(request()))
        .isInstanceOf(SourceUnavailableException.class)
        .hasMessageContaining("spec.inputs[0] (git http://127.0.0.1:9/");
  }

  @Test
  void conflictIsReportedAndTheLastGoodRenderStaysAvailable() throws Exception {
    Composition good = composer.compose(request());
    repo.commit(Map.of("plugins.yaml", "plugins:\n  - {id: git, version: \"5.7.0\"}\n"), "pin");

    assertThatThrownBy(() -> composer.compose(request()))
        .isInstanceOfSatisfying(BundleException.class, e -> assertThat(e.exitCode()).isEqualTo(3));
    assertThat(composer.lastGood("ci/team-a")).contains(good.rendered());
  }
}
