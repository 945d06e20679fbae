package dev.varroa.bundle.render;

import static dev.varroa.bundle.render.TestBundles.failure;
import static dev.varroa.bundle.render.TestBundles.git;
import static dev.varroa.bundle.render.TestBundles.jcasc;
import static dev.varroa.bundle.render.TestBundles.onlyProblem;
import static dev.varroa.bundle.render.TestBundles.profile;
import static dev.varroa.bundle.render.TestBundles.render;
import static dev.varroa.bundle.render.TestBundles.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.bundle.BundleProblem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** BUNDLES.md §3: how JCasC fragments merge. */
class JcascMergeTest {

  @Test
  void mapsMergeKeyByKey() throws Exception {
    String yaml = jcasc(
        git(0, "jcasc/a.yaml", "jenkins:\n  systemMessage: hello\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  numExecutors: 0\nunclassified:\n  location:\n    url: https://ci\n"));

    assertThat(yaml).isEqualTo("""
        jenkins:
          systemMessage: hello
          numExecutors: 0
        unclassified:
          location:
            url: https://ci
        """);
  }

  @Test
  void laterInputWinsAndRecordsOverride() throws Exception {
    RenderedBundle bundle = render(
        git(0, "jcasc/a.yaml", "jenkins:\n  systemMessage: from base\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  systemMessage: from team\n"));

    assertThat(bundle.jcascText()).isEqualTo("jenkins:\n  systemMessage: from team\n");
    assertThat(bundle.lock().overrides())
        .containsExactly(new BundleLock.Override("jenkins.systemMessage", "1", "0"));
  }

  @Test
  void laterInputSettingTheSameValueIsNoOverride() throws Exception {
    RenderedBundle bundle = render(
        git(0, "jcasc/a.yaml", "jenkins:\n  numExecutors: 0\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  numExecutors: 0\n"));

    assertThat(bundle.lock().overrides()).isEmpty();
  }

  @Test
  void conflictWhenSameInputSetsScalarTwice() {
    BundleProblem problem = onlyProblem(failure(
        git(0, "jcasc/a.yaml", "jenkins:\n  systemMessage: one\n", "jcasc/b.yaml", "jenkins:\n  systemMessage: two\n")));

    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.CONFLICT);
    assertThat(problem.input()).isEqualTo(TestBundles.gitRef(0).describe());
    assertThat(problem.file()).isEqualTo("jcasc/b.yaml");
    assertThat(problem.yamlPath()).isEqualTo("jenkins.systemMessage");
    assertThat(problem.message()).contains("'one'", "jcasc/a.yaml", "'two'", "jcasc/b.yaml");
    assertThat(problem.fix()).isNotBlank();
  }

  @Test
  void sameInputSettingTheSameValueTwiceIsFine() throws Exception {
    assertThat(jcasc(git(0, "jcasc/a.yaml", "jenkins:\n  numExecutors: 0\n", "jcasc/b.yaml", "jenkins:\n  numExecutors: 0\n")))
        .isEqualTo("jenkins:\n  numExecutors: 0\n");
  }

  @Test
  void sameValueWrittenDifferentlyIsTheSameValue() throws Exception {
    assertThat(jcasc(git(0, "jcasc/a.yaml", "a:\n  s: \"x\"\n  b: true\n  n: ~\n",
        "jcasc/b.yaml", "a:\n  s: x\n  b: True\n  n: null\n")))
        .isEqualTo("a:\n  s: x\n  b: true\n  n: ~\n");
  }

  @Test
  void stringAndNumberAreDifferentValues() {
    BundleProblem problem = onlyProblem(failure(
        git(0, "jcasc/a.yaml", "a:\n  port: 8080\n", "jcasc/b.yaml", "a:\n  port: \"8080\"\n")));

    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.CONFLICT);
  }

  @Test
  void elementsWithoutIdentityAreAppended() throws Exception {
    assertThat(jcasc(
        git(0, "jcasc/a.yaml", "jenkins:\n  labels: [a, b]\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  labels: [c]\n")))
        .isEqualTo("jenkins:\n  labels:\n    - a\n    - b\n    - c\n");
  }

  @Test
  void exactDuplicateElementIsDropped() throws Exception {
    assertThat(jcasc(
        git(0, "jcasc/a.yaml", "tool:\n  items:\n    - b\n    - {home: /opt, kind: jdk}\n"),
        git(1, "jcasc/a.yaml", "tool:\n  items:\n    - {kind: jdk, home: /opt}\n    - b\n    - c\n")))
        .isEqualTo("""
            tool:
              items:
                - b
                - home: /opt
                  kind: jdk
                - c
            """);
  }

  @Test
  void identityByIdMergesIntoEarlierElement() throws Exception {
    assertThat(jcasc(
        git(0, "jcasc/a.yaml", "credentials:\n  list:\n    - id: github\n      user: bot\n      scope: GLOBAL\n"),
        git(1, "jcasc/a.yaml", "credentials:\n  list:\n    - id: github\n      scope: SYSTEM\n")))
        .isEqualTo("credentials:\n  list:\n    - id: github\n      user: bot\n      scope: SYSTEM\n");
  }

  @Test
  void identityByNameMergesIntoEarlierElement() throws Exception {
    RenderedBundle bundle = render(
        git(0, "jcasc/a.yaml", "jenkins:\n  views:\n    - name: all\n      description: everything\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  views:\n    - name: all\n      description: all jobs\n"));

    assertThat(bundle.jcascText()).isEqualTo("jenkins:\n  views:\n    - name: all\n      description: all jobs\n");
    assertThat(bundle.lock().overrides())
        .containsExactly(new BundleLock.Override("jenkins.views[all].description", "1", "0"));
  }

  @Test
  void idOutranksNameAsIdentity() throws Exception {
    assertThat(jcasc(
        git(0, "jcasc/a.yaml", "l:\n  - {id: x, name: first}\n"),
        git(1, "jcasc/a.yaml", "l:\n  - {id: y, name: first}\n")))
        .isEqualTo("l:\n  - id: x\n    name: first\n  - id: y\n    name: first\n");
  }

  @Test
  void identityOfSingleKeyMapIsKeyAndInnerName() throws Exception {
    RenderedBundle bundle = render(
        git(0, "jcasc/a.yaml", "jenkins:\n  clouds:\n    - kubernetes:\n        name: k8s\n        namespace: agents\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  clouds:\n    - kubernetes:\n        name: k8s\n        namespace: team-a\n"));

    assertThat(bundle.jcascText()).isEqualTo(
        "jenkins:\n  clouds:\n    - kubernetes:\n        name: k8s\n        namespace: team-a\n");
    assertThat(bundle.lock().overrides())
        .containsExactly(new BundleLock.Override("jenkins.clouds[kubernetes/k8s].namespace", "1", "0"));
  }

  @Test
  void identityOfSingleKeyMapUsesInnerId() throws Exception {
    assertThat(jcasc(
        git(0, "jcasc/a.yaml", "c:\n  - usernamePassword: {id: gh, username: a}\n"),
        git(1, "jcasc/a.yaml", "c:\n  - usernamePassword: {id: gh, username: b}\n  - basicSSHUserPrivateKey: {id: gh}\n")))
        .isEqualTo("c:\n  - usernamePassword:\n      id: gh\n      username: b\n  - basicSSHUserPrivateKey:\n      id: gh\n");
  }

  @Test
  void identityElementKeepsItsEarlierPosition() throws Exception {
    assertThat(jcasc(
        git(0, "jcasc/a.yaml", "l:\n  - {name: a, v: 1}\n  - {name: b, v: 1}\n  - {name: c, v: 1}\n"),
        git(1, "jcasc/a.yaml", "l:\n  - {name: d, v: 2}\n  - {name: a, v: 2}\n")))
        .isEqualTo("""
            l:
              - name: a
                v: 2
              - name: b
                v: 1
              - name: c
                v: 1
              - name: d
                v: 2
            """);
  }

  @Test
  void mapWithSeveralKeysAndNoIdOrNameHasNoIdentity() throws Exception {
    assertThat(jcasc(
        git(0, "jcasc/a.yaml", "l:\n  - {k: {name: x}, other: 1}\n"),
        git(1, "jcasc/a.yaml", "l:\n  - {k: {name: x}, other: 2}\n")))
        .isEqualTo("l:\n  - k:\n      name: x\n    other: 1\n  - k:\n      name: x\n    other: 2\n");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "a:\\n  x: {k: v}\\n | a:\\n  x: [v]\\n  | mapping | list",
      "a:\\n  x: [v]\\n    | a:\\n  x: v\\n    | list    | scalar",
      "a:\\n  x: v\\n      | a:\\n  x: {k: v}\\n | scalar  | mapping"})
  void shapeMismatchIsConflict(String earlier, String later, String earlierShape, String laterShape) {
    BundleProblem problem = onlyProblem(failure(
        git(0, "jcasc/a.yaml", earlier.replace("\\n", "\n")),
        git(1, "jcasc/a.yaml", later.replace("\\n", "\n"))));

    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.CONFLICT);
    assertThat(problem.yamlPath()).isEqualTo("a.x");
    assertThat(problem.input()).isEqualTo(TestBundles.gitRef(1).describe());
    assertThat(problem.message()).contains(laterShape + " meets a " + earlierShape, TestBundles.gitRef(0).describe());
    assertThat(problem.fix()).contains("!replace");
  }

  @Test
  void replaceTagReplacesWithoutMerging() throws Exception {
    RenderedBundle bundle = render(
        git(0, "jcasc/a.yaml", "jenkins:\n  clouds:\n    - kubernetes: {name: k8s}\n    - docker: {name: d}\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  clouds: !replace\n    - kubernetes: {name: other}\n"));

    assertThat(bundle.jcascText()).isEqualTo("jenkins:\n  clouds:\n    - kubernetes:\n        name: other\n");
    assertThat(bundle.lock().overrides()).containsExactly(new BundleLock.Override("jenkins.clouds", "1", "0"));
  }

  @Test
  void replaceTagChangesShapeWithoutConflict() throws Exception {
    assertThat(jcasc(
        git(0, "jcasc/a.yaml", "jenkins:\n  authorizationStrategy:\n    loggedInUsersCanDoAnything: {}\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  authorizationStrategy: !replace legacy\n")))
        .isEqualTo("jenkins:\n  authorizationStrategy: legacy\n");
  }

  @Test
  void replaceTagOnMapDropsEarlierKeys() throws Exception {
    assertThat(jcasc(
        git(0, "jcasc/a.yaml", "jenkins:\n  securityRealm:\n    local: {allowsSignup: false}\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  securityRealm: !replace\n    ldap: {server: ldap.example.com}\n")))
        .isEqualTo("jenkins:\n  securityRealm:\n    ldap:\n      server: ldap.example.com\n");
  }

  @Test
  void replaceTagWithinOneInputIsNoConflict() throws Exception {
    assertThat(jcasc(git(0, "jcasc/a.yaml", "jenkins:\n  mode: NORMAL\n", "jcasc/b.yaml", "jenkins:\n  mode: !replace EXCLUSIVE\n")))
        .isEqualTo("jenkins:\n  mode: EXCLUSIVE\n");
  }

  @Test
  void replaceTagOnIdentityElementReplacesItInPlace() throws Exception {
    assertThat(jcasc(
        git(0, "jcasc/a.yaml", "l:\n  - {name: a, x: 1, y: 1}\n  - {name: b}\n"),
        git(1, "jcasc/a.yaml", "l:\n  - !replace {name: a, x: 2}\n")))
        .isEqualTo("l:\n  - name: a\n    x: 2\n  - name: b\n");
  }

  @Test
  void removeTagRemovesTheKey() throws Exception {
    RenderedBundle bundle = render(
        git(0, "jcasc/a.yaml", "jenkins:\n  systemMessage: hi\n  numExecutors: 2\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  systemMessage: !remove\n"));

    assertThat(bundle.jcascText()).isEqualTo("jenkins:\n  numExecutors: 2\n");
    assertThat(bundle.lock().overrides()).containsExactly(new BundleLock.Override("jenkins.systemMessage", "1", "0"));
  }

  @Test
  void removeTagRemovesAWholeSubtree() throws Exception {
    assertThat(jcasc(
        git(0, "jcasc/a.yaml", "jenkins:\n  clouds:\n    - kubernetes: {name: k8s}\n  mode: NORMAL\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  clouds: !remove\n")))
        .isEqualTo("jenkins:\n  mode: NORMAL\n");
  }

  @Test
  void removeTagOnAbsentKeyChangesNothing() throws Exception {
    RenderedBundle bundle = render(git(0, "jcasc/a.yaml", "jenkins:\n  mode: NORMAL\n  systemMessage: !remove\n"));

    assertThat(bundle.jcascText()).isEqualTo("jenkins:\n  mode: NORMAL\n");
    assertThat(bundle.lock().overrides()).isEmpty();
  }

  @Test
  void removeTagOnListElementRemovesTheElementOfThatIdentity() throws Exception {
    assertThat(jcasc(
        git(0, "jcasc/a.yaml", "jenkins:\n  clouds:\n    - kubernetes: {name: a}\n    - kubernetes: {name: b}\n  labels: [x, y]\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  clouds:\n    - !remove {kubernetes: {name: a}}\n  labels: [!remove x]\n")))
        .isEqualTo("jenkins:\n  clouds:\n    - kubernetes:\n        name: b\n  labels:\n    - y\n");
  }

  @Test
  void removedKeyCanBeSetAgainByALaterInput() throws Exception {
    assertThat(jcasc(
        git(0, "jcasc/a.yaml", "a:\n  b: 1\n  c: 1\n"),
        git(1, "jcasc/a.yaml", "a:\n  b: !remove\n"),
        git(2, "jcasc/a.yaml", "a:\n  b: 3\n")))
        .isEqualTo("a:\n  c: 1\n  b: 3\n");
  }

  @Test
  void outputNeverContainsTheMergeTags() throws Exception {
    String yaml = jcasc(
        git(0, "jcasc/a.yaml", "a:\n  b: !replace {c: 1}\n  d: !replace [1]\n  e: !replace x\n  f: !remove\n"),
        git(1, "jcasc/a.yaml", "a:\n  b: !replace {c: 2}\n  l: [!replace {name: n}]\n"));

    assertThat(yaml).doesNotContain("!replace", "!remove", "!");
    assertThat(yaml).isEqualTo("a:\n  b:\n    c: 2\n  d:\n    - 1\n  e: x\n  l:\n    - name: n\n");
  }

  @Test
  void keysKeepFirstSeenOrder() throws Exception {
    assertThat(jcasc(
        git(0, "jcasc/a.yaml", "z: 1\nm: 1\n"),
        git(1, "jcasc/a.yaml", "a: 2\nm: 2\nz: 2\n")))
        .isEqualTo("z: 2\nm: 2\na: 2\n");
  }

  @Test
  void filesOfOneInputMergeInLexicalOrderOfFileName() throws Exception {
    RenderedBundle bundle = render(git(0,
        "jcasc/20-b.yml", "order: [b]\n",
        "jcasc/10-a.yaml", "order: [a]\n",
        "jcasc/30-c.yaml", "order: [c]\n"));

    assertThat(bundle.jcascText()).isEqualTo("order:\n  - a\n  - b\n  - c\n");
  }

  @Test
  void profileOverlayMergesLastAndIsNamedProfile() throws Exception {
    RenderedBundle bundle = render(request(profile("jenkins:\n  numExecutors: 0\n"),
        git(0, "jcasc/a.yaml", "jenkins:\n  numExecutors: 4\n  mode: NORMAL\n")));

    assertThat(bundle.jcascText()).isEqualTo("jenkins:\n  numExecutors: 0\n  mode: NORMAL\n");
    assertThat(bundle.lock().overrides())
        .containsExactly(new BundleLock.Override("jenkins.numExecutors", "profile", "0"));
    assertThat(bundle.lockText()).contains("\"winner\": \"profile\",\n      \"overridden\": 0\n");
  }

  @Test
  void conflictInProfileOverlayNamesTheProfile() {
    BundleProblem problem = onlyProblem(failure(request(profile("jenkins:\n  clouds: none\n"),
        git(0, "jcasc/a.yaml", "jenkins:\n  clouds: [x]\n"))));

    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.CONFLICT);
    assertThat(problem.input()).isEqualTo("profile lts");
    assertThat(problem.file()).isEqualTo(BundleRenderer.OVERLAY_FILE);
  }

  @Test
  void emptyMergeRendersAnEmptyMapping() throws Exception {
    assertThat(jcasc(git(0, "plugins.yaml", "plugins: []\n"))).isEqualTo("{}\n");
    assertThat(jcasc(git(0, "jcasc/empty.yaml", "# nothing yet\n"))).isEqualTo("{}\n");
  }

  @Test
  void scalarsKeepTheirWrittenFormAndType() throws Exception {
    assertThat(jcasc(git(0, "jcasc/a.yaml", """
        a:
          version: 1.10
          quotedNumber: "10"
          quotedBool: 'yes'
          plainBool: yes
          quotedPlainText: "hello"
          url: "${JENKINS_URL}"
          empty: ""
          nothing:
          colon: "a: b"
          multi: |
            line one
            line two
        """))).isEqualTo("""
        a:
          version: 1.10
          quotedNumber: '10'
          quotedBool: 'yes'
          plainBool: yes
          quotedPlainText: hello
          url: ${JENKINS_URL}
          empty: ''
          nothing:
          colon: 'a: b'
          multi: |
            line one
            line two
        """);
  }

  @Test
  void anchorsAliasesAndMergeKeysAreExpanded() throws Exception {
    assertThat(jcasc(git(0, "jcasc/a.yaml", """
        defaults: &defaults
          retention: 5
          timeout: 10
        clouds:
          - kubernetes:
              <<: *defaults
              name: k8s
              timeout: 20
        """))).isEqualTo("""
        defaults:
          retention: 5
          timeout: 10
        clouds:
          - kubernetes:
              retention: 5
              name: k8s
              timeout: 20
        """);
  }

  @Test
  void nestedIdentityListsMergeAtEveryLevel() throws Exception {
    RenderedBundle bundle = render(
        git(0, "jcasc/a.yaml", "jenkins:\n  clouds:\n    - kubernetes:\n        name: k8s\n        templates:\n          - {name: maven, image: maven:3}\n"),
        git(1, "jcasc/a.yaml", "jenkins:\n  clouds:\n    - kubernetes:\n        name: k8s\n        templates:\n          - {name: maven, image: maven:4}\n          - {name: node}\n"));

    assertThat(bundle.jcascText()).contains("- name: maven\n            image: maven:4\n          - name: node\n");
    assertThat(bundle.lock().overrides()).containsExactly(new BundleLock.Override(
        "jenkins.clouds[kubernetes/k8s].templates[maven].image", "1", "0"));
  }

  @Test
  void topOfAJcascFileMustBeAMapping() {
    BundleProblem problem = onlyProblem(failure(git(0, "jcasc/a.yaml", "- jenkins\n")));

    assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.INVALID);
    assertThat(problem.file()).isEqualTo("jcasc/a.yaml");
    assertThat(problem.message()).contains("list");
  }
}
