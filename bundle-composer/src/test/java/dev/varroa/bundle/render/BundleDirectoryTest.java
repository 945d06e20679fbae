package dev.varroa.bundle.render;

import static dev.varroa.bundle.render.TestBundles.failure;
import static dev.varroa.bundle.render.TestBundles.git;
import static dev.varroa.bundle.render.TestBundles.gitRef;
import static dev.varroa.bundle.render.TestBundles.jcasc;
import static dev.varroa.bundle.render.TestBundles.onlyProblem;
import static dev.varroa.bundle.render.TestBundles.profile;
import static dev.varroa.bundle.render.TestBundles.render;
import static dev.varroa.bundle.render.TestBundles.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.ResolvedInput;
import org.junit.jupiter.api.Test;

/** BUNDLES.md §2: what a bundle directory holds and how it is read. */
class BundleDirectoryTest {

  @Test
  void inputResolvingToAnEmptyDirectoryIsInvalid() {
    BundleException failure = failure(git(0, "jcasc/a.yaml", "a: 1\n"), git(1));
    BundleProblem problem = onlyProblem(failure);

    assertThat(failure.exitCode()).isEqualTo(2);
    assertThat(problem.input()).isEqualTo(gitRef(1).describe());
    assertThat(problem.message()).contains("empty directory");
    assertThat(problem.fix()).contains("path");
  }

  @Test
  void directoryWithoutAnyBundleFileIsInvalid() {
    BundleProblem problem = onlyProblem(failure(git(0, "README.md", "# team a\n", "docs/x.yaml", "a: 1\n")));

    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.INVALID);
    assertThat(problem.message()).contains("no bundle files", "README.md");
  }

  @Test
  void everyFileIsOptional() throws Exception {
    assertThat(render(git(0, "variables.yaml", "variables: {ORG: acme}\n")).jcascText()).isEqualTo("{}\n");
    assertThat(render(git(0, "bundle.yaml", "description: nothing but a description\n")).jcascText()).isEqualTo("{}\n");
  }

  @Test
  void filesOutsideTheBundleLayoutAreIgnored() throws Exception {
    assertThat(jcasc(git(0, "README.md", "# hi\n", "jcasc/a.yaml", "a: 1\n", "jcasc/notes.txt", "not yaml"))).isEqualTo("a: 1\n");
  }

  @Test
  void bundleYamlListsJcascFilesInItsOwnOrder() throws Exception {
    assertThat(jcasc(git(0,
        "bundle.yaml", "description: ordered by hand\njcasc:\n  - config/z.yaml\n  - config/a.yaml\n",
        "config/a.yaml", "order: [a]\n",
        "config/z.yaml", "order: [z]\n",
        "jcasc/ignored.yaml", "order: [ignored]\n")))
        .isEqualTo("order:\n  - z\n  - a\n");
  }

  @Test
  void bundleYamlJcascEntryMayNameAFolder() throws Exception {
    assertThat(jcasc(git(0,
        "bundle.yaml", "jcasc: [base, extra.yaml]\n",
        "base/2.yaml", "order: [two]\n",
        "base/1.yml", "order: [one]\n",
        "extra.yaml", "order: [three]\n")))
        .isEqualTo("order:\n  - one\n  - two\n  - three\n");
  }

  @Test
  void bundleYamlNamesThePluginsAndVariablesFiles() throws Exception {
    RenderedBundle bundle = render(request(profile("", "git:5.7.0"), git(0,
        "bundle.yaml", "plugins: deps/plugins.yaml\nvariables: [vars/a.yaml, vars/b.yaml]\n",
        "deps/plugins.yaml", "plugins:\n  - id: git\n",
        "vars/a.yaml", "variables: {ORG: acme}\n",
        "vars/b.yaml", "variables: {ORG: globex, TEAM: a}\n")));

    assertThat(bundle.lock().plugins()).containsExactly(new PluginLock("git", "5.7.0", PluginSource.PROFILE));
    assertThat(bundle.variables()).containsEntry("ORG", "globex").containsEntry("TEAM", "a");
  }

  @Test
  void fileListedInBundleYamlThatDoesNotExistIsInvalid() {
    BundleProblem problem = onlyProblem(failure(git(0, "bundle.yaml", "jcasc: [jcasc/missing.yaml]\n")));

    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.INVALID);
    assertThat(problem.file()).isEqualTo("bundle.yaml");
    assertThat(problem.yamlPath()).isEqualTo("jcasc");
    assertThat(problem.message()).contains("jcasc/missing.yaml");
  }

  @Test
  void unknownKeyInBundleYamlIsInvalid() {
    BundleProblem problem = onlyProblem(failure(git(0, "bundle.yaml", "jcas: [a.yaml]\n", "a.yaml", "a: 1\n")));

    assertThat(problem.file()).isEqualTo("bundle.yaml");
    assertThat(problem.message()).contains("jcas");
  }

  @Test
  void pathEscapingTheBundleDirectoryIsInvalid() {
    BundleProblem problem = onlyProblem(failure(git(0, "bundle.yaml", "jcasc: [../other/a.yaml]\n")));

    assertThat(problem.message()).contains("../other/a.yaml");
  }

  @Test
  void ymlExtensionIsReadForEveryFile() throws Exception {
    RenderedBundle bundle = render(request(profile("", "git:5.7.0"), git(0,
        "bundle.yml", "description: short extension\n",
        "jcasc/a.yml", "a: ${ORG}\n",
        "plugins.yml", "plugins: [{id: git}]\n",
        "variables.yml", "variables: {ORG: acme}\n")));

    assertThat(bundle.jcascText()).isEqualTo("a: ${ORG}\n");
    assertThat(bundle.pluginsText()).isEqualTo("git:5.7.0\n");
  }

  @Test
  void bothYamlAndYmlOfOneFileIsInvalid() {
    BundleProblem problem = onlyProblem(failure(git(0,
        "plugins.yaml", "plugins: []\n", "plugins.yml", "plugins: []\n")));

    assertThat(problem.message()).contains("plugins.yaml", "plugins.yml");
  }

  @Test
  void jcascFileInASubfolderIsInvalidRatherThanIgnored() {
    BundleProblem problem = onlyProblem(failure(git(0, "jcasc/a.yaml", "a: 1\n", "jcasc/team/b.yaml", "b: 1\n")));

    assertThat(problem.file()).isEqualTo("jcasc/team/b.yaml");
    assertThat(problem.fix()).contains("bundle.yaml");
  }

  @Test
  void multiDocumentJcascFileIsInvalidWithTheFix() {
    BundleProblem problem = onlyProblem(failure(git(0, "jcasc/a.yaml", "a: 1\n---\nb: 2\n")));

    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.INVALID);
    assertThat(problem.file()).isEqualTo("jcasc/a.yaml");
    assertThat(problem.message()).contains("line 2", "more than one YAML document");
    assertThat(problem.fix()).contains("one document per file");
  }

  @Test
  void leadingDocumentMarkerIsOneDocument() throws Exception {
    assertThat(jcasc(git(0, "jcasc/a.yaml", "---\na: 1\n"))).isEqualTo("a: 1\n");
  }

  @Test
  void inputsKeepTheirSpecIndexInTheLock() throws Exception {
    ResolvedInput catalog = new ResolvedInput(
        new dev.varroa.bundle.InputRef(0, "catalogItem", null, "base-security", null, null),
        "main@sha1:1111111111111111111111111111111111111111", TestBundles.files("jcasc/a.yaml", "a: 1\n"));
    RenderedBundle bundle = render(catalog, git(1, "jcasc/a.yaml", "b: 1\n"));

    assertThat(bundle.lock().inputs()).extracting(BundleLock.Input::index).containsExactly(0, 1);
    assertThat(bundle.lockText()).contains("\"kind\": \"catalogItem\",\n      \"name\": \"base-security\",\n      \"ref\": {},\n      \"path\": \"\",");
  }
}
