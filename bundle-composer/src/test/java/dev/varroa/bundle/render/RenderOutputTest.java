package dev.varroa.bundle.render;

import static dev.varroa.bundle.render.TestBundles.git;
import static dev.varroa.bundle.render.TestBundles.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.VersionProfile;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** BUNDLES.md §5: the three files, byte for byte. */
class RenderOutputTest {

  @Test
  void goldenBundleRendersExactBytes() throws Exception {
    RenderedBundle bundle = render(GoldenBundle.request());

    assertThat(bundle.jcascText()).isEqualTo(new String(GoldenBundle.expected("jcasc.yaml"), StandardCharsets.UTF_8));
    assertThat(bundle.pluginsText()).isEqualTo(new String(GoldenBundle.expected("plugins.txt"), StandardCharsets.UTF_8));
    assertThat(bundle.lockText()).isEqualTo(new String(GoldenBundle.expected("bundle.lock.json"), StandardCharsets.UTF_8));
    assertThat(bundle.jcascYaml()).isEqualTo(GoldenBundle.expected("jcasc.yaml"));
    assertThat(bundle.pluginsTxt()).isEqualTo(GoldenBundle.expected("plugins.txt"));
    assertThat(bundle.lockJson()).isEqualTo(GoldenBundle.expected("bundle.lock.json"));
  }

  @Test
  void digestIsSha256OverJcascThenSeparatorThenPlugins() throws Exception {
    RenderedBundle bundle = render(GoldenBundle.request());

    ByteArrayOutputStream hashed = new ByteArrayOutputStream();
    hashed.write(bundle.jcascYaml());
    hashed.write(new byte[] {'\n', '-', '-', '-', '\n'});
    hashed.write(bundle.pluginsTxt());
    StringBuilder hex = new StringBuilder("sha256:");
    for (byte b : MessageDigest.getInstance("SHA-256").digest(hashed.toByteArray())) {
      hex.append(String.format("%02x", b));
    }
    assertThat(bundle.digest()).isEqualTo(hex.toString()).matches("sha256:[0-9a-f]{64}");
    assertThat(bundle.lock().digest()).isEqualTo(hex.toString());
    assertThat(bundle.lockText()).contains("\"digest\": \"" + hex + "\"");
  }

  @Test
  void renderingTwiceGivesTheSameBytes() throws Exception {
    RenderedBundle first = render(GoldenBundle.request());
    RenderedBundle second = new BundleRenderer().render(GoldenBundle.request());

    assertThat(second.jcascYaml()).isEqualTo(first.jcascYaml());
    assertThat(second.pluginsTxt()).isEqualTo(first.pluginsTxt());
    assertThat(second.lockJson()).isEqualTo(first.lockJson());
    assertThat(second).isEqualTo(first);
  }

  @Test
  void constructionOrderOfMapsAndSetsDoesNotChangeTheBytes() throws Exception {
    RenderedBundle reference = render(GoldenBundle.request());

    RenderRequest shuffled = new RenderRequest("team-a",
        List.of(reordered(GoldenBundle.base()), reordered(GoldenBundle.team())),
        new VersionProfile("lts", "2.504.1", "jenkins/jenkins:2.504.1-jdk17",
            reversed(GoldenBundle.profile().plugins()), GoldenBundle.profile().jcascOverlay()),
        new LinkedHashSet<>(List.of("GITHUB_OAUTH_SECRET")),
        reversedSet(JenkinsEnvironment.VARIABLES));

    RenderedBundle again = render(shuffled);
    assertThat(again.jcascYaml()).isEqualTo(reference.jcascYaml());
    assertThat(again.pluginsTxt()).isEqualTo(reference.pluginsTxt());
    assertThat(again.lockJson()).isEqualTo(reference.lockJson());
  }

  @Test
  void refKeysAndSecretsAreWrittenSortedWhateverTheirOrder() throws Exception {
    Map<String, String> ref = new LinkedHashMap<>();
    ref.put("tag", "1.4.0");
    ref.put("digest", "sha256:" + "c".repeat(64));
    ResolvedInput oci = new ResolvedInput(new InputRef(0, "oci", "oci://registry.example.com/ci/bundles", null, ref, ""),
        "1.4.0@sha256:" + "c".repeat(64), TestBundles.files("jcasc/a.yaml", "a: 1\n"));
    Set<String> secrets = new HashSet<>(List.of("ZED", "ALPHA", "MIKE"));
    RenderedBundle bundle = render(new RenderRequest("b", List.of(oci), TestBundles.profile(), secrets, Set.of()));

    assertThat(bundle.lockText()).contains("\"ref\": {\n        \"digest\": \"sha256:ccc");
    assertThat(bundle.lock().secrets()).containsExactly("ALPHA", "MIKE", "ZED");
  }

  @Test
  void lockHasExactlyTheContractFieldsInOrder() throws Exception {
    JsonNode lock = new ObjectMapper().readTree(render(GoldenBundle.request()).lockJson());

    assertThat(fieldNames(lock))
        .containsExactly("digest", "jenkinsVersion", "inputs", "plugins", "variables", "secrets", "overrides");
    assertThat(fieldNames(lock.get("inputs").get(0))).containsExactly("index", "kind", "name", "ref", "path", "revision");
    assertThat(fieldNames(lock.get("inputs").get(1))).containsExactly("index", "kind", "url", "ref", "path", "revision");
    assertThat(fieldNames(lock.get("plugins").get(0))).containsExactly("id", "version", "source");
    assertThat(fieldNames(lock.get("overrides").get(0))).containsExactly("path", "winner", "overridden");
    assertThat(lock.get("inputs").get(1).get("index").isInt()).isTrue();
    assertThat(lock.get("overrides").get(0).get("winner").isInt()).isTrue();
  }

  @Test
  void lockIsPrettyPrintedWithTwoSpacesAndEndsWithOneNewline() throws Exception {
    String lock = render(git(0, "jcasc/a.yaml", "a: 1\n")).lockText();

    assertThat(lock).startsWith("{\n  \"digest\": \"sha256:").endsWith("\n  \"overrides\": []\n}\n");
    assertThat(lock).contains("\n  \"variables\": [],\n  \"secrets\": [],\n");
  }

  @Test
  void jcascEndsWithExactlyOneNewline() throws Exception {
    assertThat(TestBundles.jcasc(git(0, "jcasc/a.yaml", "a:\n  b: c\n\n\n"))).isEqualTo("a:\n  b: c\n");
  }

  @Test
  void emptyPluginSetRendersAnEmptyPluginsTxt() throws Exception {
    assertThat(render(git(0, "jcasc/a.yaml", "a: 1\n")).pluginsTxt()).isEmpty();
  }

  @Test
  void renderReadBackFromItsFilesIsEqual() throws Exception {
    RenderedBundle bundle = render(GoldenBundle.request());

    RenderedBundle read = RenderedBundle.read(bundle.jcascYaml(), bundle.pluginsTxt(), bundle.lockJson());

    assertThat(read).isEqualTo(bundle);
    assertThat(read.lock()).isEqualTo(bundle.lock());
    assertThat(read.provenance().paths()).isEqualTo(bundle.provenance().paths());
  }

  @Test
  void filesWhoseDigestDoesNotMatchTheLockAreInvalid() throws Exception {
    RenderedBundle bundle = render(GoldenBundle.request());
    byte[] edited = (bundle.jcascText() + "extra: 1\n").getBytes(StandardCharsets.UTF_8);

    assertThatExceptionOfType(BundleException.class)
        .isThrownBy(() -> RenderedBundle.read(edited, bundle.pluginsTxt(), bundle.lockJson()))
        .satisfies(e -> {
          assertThat(e.kind()).isEqualTo(BundleProblem.Kind.INVALID);
          assertThat(e.problems().get(0).file()).isEqualTo(RenderedBundle.LOCK_FILE);
        });
  }

  @Test
  void filesAreNamedAsRenderWritesThem() throws Exception {
    assertThat(render(GoldenBundle.request()).files().keySet())
        .containsExactly("jcasc.yaml", "plugins.txt", "bundle.lock.json");
  }

  @Test
  void builtInStarterBundleRendersWithTheOperatorEnvironment() throws Exception {
    VersionProfile profile = TestBundles.profile("", "configuration-as-code:1953.v148f87d74b_1e",
        "kubernetes:4353.vb_4c2a_2b_b_3f2b_", "workflow-aggregator:608.v67378e9d3db_1", "git:5.7.0",
        "credentials:1415.v831096eb_5534");
    RenderedBundle bundle = render(new RenderRequest("starter", List.of(dev.varroa.bundle.StarterBundle.input()),
        profile, Set.of(), JenkinsEnvironment.VARIABLES));

    assertThat(bundle.jcascText()).contains("url: ${JENKINS_URL}", "numExecutors: 0").doesNotContain("clouds");
    assertThat(bundle.lock().plugins()).hasSize(5).allMatch(p -> p.source() == PluginSource.PROFILE);
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static ResolvedInput reordered(ResolvedInput input) {
    List<String> paths = new ArrayList<>(input.files().files().keySet());
    Collections.reverse(paths);
    Map<String, byte[]> files = new LinkedHashMap<>();
    paths.forEach(path -> files.put(path, input.files().files().get(path)));
    Map<String, byte[]> hashed = new HashMap<>(files);
    InputRef ref = input.ref();
    return new ResolvedInput(new InputRef(ref.index(), ref.kind(), ref.url(), ref.name(), new TreeMap<>(ref.ref()),
        ref.path()), input.revision(), BundleFiles.of(hashed));
  }

  private static <T> List<T> reversed(List<T> list) {
    List<T> copy = new ArrayList<>(list);
    Collections.reverse(copy);
    return copy;
  }

  private static Set<String> reversedSet(Set<String> set) {
    List<String> sorted = new ArrayList<>(set);
    sorted.sort(Collections.reverseOrder());
    return new LinkedHashSet<>(sorted);
  }
}
