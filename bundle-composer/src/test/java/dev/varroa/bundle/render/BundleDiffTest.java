package dev.varroa.bundle.render;

import static dev.varroa.bundle.render.TestBundles.git;
import static dev.varroa.bundle.render.TestBundles.profile;
import static dev.varroa.bundle.render.TestBundles.render;
import static dev.varroa.bundle.render.TestBundles.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.bundle.VersionProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

/** `varroactl bundle diff`: what changes between two renders and what applying it takes. */
class BundleDiffTest {
  private static final String BASE = "jenkins:\n  systemMessage: hi\n  labels: [a]\n  clouds:\n    - kubernetes: {name: k8s, namespace: agents}\n";

  @Test
  void identicalRendersAreUnchanged() throws Exception {
    BundleDiff diff = BundleDiff.between(render(git(0, "jcasc/a.yaml", BASE)), render(git(0, "jcasc/a.yaml", BASE)));

    assertThat(diff.jcasc()).isEmpty();
    assertThat(diff.plugins()).isEmpty();
    assertThat(diff.classification()).isEqualTo(BundleDiff.ChangeClass.UNCHANGED);
    assertThat(diff.unchanged()).isTrue();
  }

  @Test
  void jcascOnlyChangeIsReloadableAndListsLeafPaths() throws Exception {
    RenderedBundle before = render(git(0, "jcasc/a.yaml", BASE));
    RenderedBundle after = render(git(0, "jcasc/a.yaml",
        "jenkins:\n  labels: [a, b]\n  clouds:\n    - kubernetes: {name: k8s, namespace: team}\n  mode: NORMAL\n"));

    BundleDiff diff = BundleDiff.between(before, after);

    assertThat(diff.classification()).isEqualTo(BundleDiff.ChangeClass.RELOADABLE);
    assertThat(diff.classification().label()).isEqualTo("reloadable");
    assertThat(diff.jcasc()).containsExactly(
        new BundleDiff.JcascChange("jenkins.clouds[kubernetes/k8s].namespace", BundleDiff.Kind.CHANGED, "agents", "team"),
        new BundleDiff.JcascChange("jenkins.labels[1]", BundleDiff.Kind.ADDED, null, "b"),
        new BundleDiff.JcascChange("jenkins.mode", BundleDiff.Kind.ADDED, null, "NORMAL"),
        new BundleDiff.JcascChange("jenkins.systemMessage", BundleDiff.Kind.REMOVED, "hi", null));
    assertThat(diff.plugins()).isEmpty();
  }

  @Test
  void pluginChangeIsRestartClass() throws Exception {
    VersionProfile profile = profile("", "git:5.7.0", "credentials:1");
    RenderedBundle before = render(request(profile, git(0, "plugins.yaml", "plugins:\n  - id: job-dsl\n    version: \"1.90\"\n")));
    RenderedBundle after = render(request(profile, git(0, "plugins.yaml",
        "plugins:\n  - id: job-dsl\n    version: \"1.92\"\n  - id: matrix-auth\n    version: \"3.2\"\n")));

    BundleDiff diff = BundleDiff.between(before, after);

    assertThat(diff.classification()).isEqualTo(BundleDiff.ChangeClass.RESTART_CLASS);
    assertThat(diff.classification().label()).isEqualTo("restart-class");
    assertThat(diff.plugins()).containsExactly(
        new BundleDiff.PluginChange("job-dsl", BundleDiff.Kind.CHANGED, "1.90", "1.92"),
        new BundleDiff.PluginChange("matrix-auth", BundleDiff.Kind.ADDED, null, "3.2"));
    assertThat(diff.jcasc()).isEmpty();
  }

  @Test
  void removedPluginIsRestartClass() throws Exception {
    RenderedBundle before = render(request(profile("", "git:5.7.0", "credentials:1")));
    RenderedBundle after = render(request(profile("", "git:5.7.0")));

    assertThat(BundleDiff.between(before, after).plugins())
        .containsExactly(new BundleDiff.PluginChange("credentials", BundleDiff.Kind.REMOVED, "1", null));
  }

  @Test
  void jenkinsVersionChangeIsRestartClassEvenWithIdenticalFiles() throws Exception {
    RenderedBundle before = render(request(profile(), git(0, "jcasc/a.yaml", BASE)));
    RenderedBundle after = render(request(new VersionProfile("lts", "2.516.1", "jenkins/jenkins:2.516.1", List.of(), ""),
        git(0, "jcasc/a.yaml", BASE)));

    BundleDiff diff = BundleDiff.between(before, after);

    assertThat(diff.classification()).isEqualTo(BundleDiff.ChangeClass.RESTART_CLASS);
    assertThat(diff.fromJenkinsVersion()).isEqualTo("2.504.1");
    assertThat(diff.toJenkinsVersion()).isEqualTo("2.516.1");
  }

  @Test
  void diffWorksOnRendersReadBackFromTheirFiles() throws Exception {
    RenderedBundle before = render(git(0, "jcasc/a.yaml", BASE));
    RenderedBundle after = render(git(0, "jcasc/a.yaml", BASE.replace("hi", "hello")));
    RenderedBundle applied = RenderedBundle.read(before.jcascYaml(), before.pluginsTxt(), before.lockJson());

    assertThat(BundleDiff.between(applied, after)).isEqualTo(BundleDiff.between(before, after));
  }

  @Test
  void typeChangeOfAValueIsAChange() throws Exception {
    BundleDiff diff = BundleDiff.between(render(git(0, "jcasc/a.yaml", "a: 1\n")), render(git(0, "jcasc/a.yaml", "a: \"1\"\n")));

    assertThat(diff.jcasc()).containsExactly(new BundleDiff.JcascChange("a", BundleDiff.Kind.CHANGED, "1", "1"));
  }
}
