package dev.varroa.api.argocd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.testfixtures.ProjectLayout;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.lib.jse.JsePlatform;

/**
 * Runs the Argo CD health checks of gitops-examples/argocd/health/ against their health_test.yaml
 * cases, the way Argo CD runs a script from argocd-cm: global {@code obj}, the chunk run, the
 * returned table read as {@code hs}, with only the libraries Argo CD opens for such scripts.
 */
@SuppressWarnings("unchecked")
class ArgoHealthChecksTest {
  private static final Path HEALTH = ProjectLayout.root().resolve("gitops-examples/argocd/health");
  private static final Path GROUP = HEALTH.resolve("varroa.dev");
  private static final Path CM_PATCH = HEALTH.resolve("argocd-cm-patch.yaml");
  private static final String CM_KEY_PREFIX = "resource.customizations.health.varroa.dev_";
  private static final Map<String, Integer> MINIMUM_CASES = Map.of("Controller", 12, "ComposedBundle", 6, "BroodOperation", 10,
      "BroodSchedule", 7, "CellPool", 6, "Team", 5);
  /** What Argo CD accepts in hs.status; anything else it turns into Unknown. */
  private static final Set<String> ARGO_STATUSES =
      Set.of("Healthy", "Progressing", "Degraded", "Suspended", "Missing", "Unknown");
  /** Argo CD opens base, package, table and a reduced os for argocd-cm scripts; nothing else. */
  private static final List<String> LIBRARIES_ARGO_LEAVES_CLOSED =
      List.of("string", "math", "io", "coroutine", "debug", "bit32", "luajava");
  private static final List<String> SAFE_OS_FUNCTIONS = List.of("time", "date", "clock", "difftime");

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  record HealthCase(String inputPath, String status, String message) {}

  @TestFactory
  Stream<DynamicContainer> everyCaseOfEveryKind() {
    return kinds().stream().map(kind -> {
      Path folder = GROUP.resolve(kind);
      String script = read(folder.resolve("health.lua"));
      return DynamicContainer.dynamicContainer(kind, folder.toUri(), cases(kind).stream().map(c ->
          DynamicTest.dynamicTest(kind + ": " + c.inputPath() + " -> " + c.status(), folder.resolve(c.inputPath()).toUri(),
              () -> {
                LuaTable hs = runHealthScript(script, yaml(folder.resolve(c.inputPath())));
                assertThat(hs.get("status").tojstring()).as("hs.status").isIn(ARGO_STATUSES).isEqualTo(c.status());
                assertThat(hs.get("message").isstring()).as("hs.message is a string").isTrue();
                assertThat(hs.get("message").tojstring()).as("hs.message").isEqualTo(c.message());
              })));
    });
  }

  @Test
  void everyKindHasAHealthCheckWithEnoughCases() {
    assertThat(kinds()).containsExactlyInAnyOrderElementsOf(MINIMUM_CASES.keySet());
    MINIMUM_CASES.forEach((kind, minimum) ->
        assertThat(cases(kind)).as("%s cases", kind).hasSizeGreaterThanOrEqualTo(minimum));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void everyTestdataFileIsACaseAndEveryCaseHasItsFile(String kind) throws IOException {
    Path folder = GROUP.resolve(kind);
    Set<String> referenced = cases(kind).stream().map(HealthCase::inputPath)
        .collect(Collectors.toCollection(LinkedHashSet::new));
    assertThat(referenced).as("inputPath values are unique").hasSameSizeAs(cases(kind));
    try (Stream<Path> files = Files.list(folder.resolve("testdata"))) {
      Set<String> present = files.map(f -> "testdata/" + f.getFileName()).collect(Collectors.toCollection(TreeSet::new));
      assertThat(present).containsExactlyInAnyOrderElementsOf(referenced);
    }
  }

  @Test
  void controllerCasesCoverEveryPhaseOfTheModel() {
    Path folder = GROUP.resolve("Controller");
    Set<Object> phases = cases("Controller").stream()
        .map(c -> yaml(folder.resolve(c.inputPath())).get("status"))
        .filter(Map.class::isInstance)
        .map(status -> ((Map<?, ?>) status).get("phase"))
        .collect(Collectors.toSet());
    assertThat(phases).containsAll(Arrays.stream(ControllerStatus.Phase.values()).map(Enum::name).toList());
  }

  @Test
  void broodOperationCasesCoverEveryPhaseOfTheModel() {
    assertThat(phasesOfCases("BroodOperation"))
        .containsAll(Arrays.stream(BroodOperationStatus.Phase.values()).map(Enum::name).toList());
  }

  private static Set<Object> phasesOfCases(String kind) {
    Path folder = GROUP.resolve(kind);
    return cases(kind).stream()
        .map(c -> yaml(folder.resolve(c.inputPath())).get("status"))
        .filter(Map.class::isInstance)
        .map(status -> ((Map<?, ?>) status).get("phase"))
        .collect(Collectors.toSet());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kinds")
  void argocdCmPatchEmbedsTheScriptByteForByte(String kind) {
    Map<String, Object> configMap = yaml(CM_PATCH);
    assertThat(configMap).containsEntry("kind", "ConfigMap");
    assertThat((Map<String, Object>) configMap.get("metadata")).containsEntry("name", "argocd-cm");
    Map<String, Object> data = (Map<String, Object>) configMap.get("data");
    assertThat(data.keySet()).as("argocd-cm keys")
        .containsExactlyInAnyOrderElementsOf(kinds().stream().map(k -> CM_KEY_PREFIX + k).toList());
    String embedded = (String) data.get(CM_KEY_PREFIX + kind);
    byte[] file = readBytes(GROUP.resolve(kind).resolve("health.lua"));
    String drift = "%s in argocd-cm-patch.yaml differs from varroa.dev/%s/health.lua; re-embed the file";
    assertThat(embedded).as(drift, CM_KEY_PREFIX + kind, kind).isEqualTo(new String(file, StandardCharsets.UTF_8));
    assertThat(embedded.getBytes(StandardCharsets.UTF_8)).as(drift, CM_KEY_PREFIX + kind, kind).isEqualTo(file);
  }

  @Test
  void theSandboxRejectsWhatArgoCdRejects() {
    LuaTable hs = runHealthScript("""
        local hs = {}
        hs.status = "Healthy"
        hs.message = tostring(string) .. " " .. tostring(math) .. " " .. tostring(io) .. " " .. tostring(os.execute)
        return hs
        """, Map.of());
    assertThat(hs.get("message").tojstring()).isEqualTo("nil nil nil nil");
    assertThatThrownBy(() -> runHealthScript("return { status = (\"x\"):upper() }", Map.of()))
        .as("string methods need the string library, which Argo CD does not open")
        .isInstanceOf(LuaError.class);
    assertThat(LuaValue.valueOf("x").get("upper").isnil()).as("string metatable restored").isFalse();
  }

  /** Argo CD's resource_customizations layout: one folder per kind under the API group. */
  static List<String> kinds() {
    try (Stream<Path> folders = Files.list(GROUP)) {
      return folders.filter(f -> Files.isRegularFile(f.resolve("health.lua")))
          .map(f -> f.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<HealthCase> cases(String kind) {
    Map<String, Object> file = yaml(GROUP.resolve(kind).resolve("health_test.yaml"));
    List<Map<String, Object>> tests = (List<Map<String, Object>>) file.get("tests");
    return tests.stream().map(t -> {
      Map<String, Object> expected = (Map<String, Object>) t.get("healthStatus");
      return new HealthCase((String) t.get("inputPath"), (String) expected.get("status"), (String) expected.get("message"));
    }).toList();
  }

  /**
   * Argo CD's runLua: a fresh state with base, package, table and a reduced os, {@code obj} set
   * as a global, the script run as a chunk, and its return value taken as the health status.
   */
  static LuaTable runHealthScript(String script, Map<String, Object> object) {
    Globals globals = JsePlatform.standardGlobals();
    for (String library : LIBRARIES_ARGO_LEAVES_CLOSED) {
      globals.set(library, LuaValue.NIL);
    }
    LuaValue os = globals.get("os");
    LuaTable safeOs = new LuaTable();
    SAFE_OS_FUNCTIONS.forEach(name -> safeOs.set(name, os.get(name)));
    globals.set("os", safeOs);
    globals.set("obj", toLua(object));
    // standardGlobals() gives strings a metatable ("s:sub(1)") that Argo CD's state lacks; it is
    // JVM-wide in LuaJ, so it is taken away for this run only.
    LuaValue stringMethods = LuaString.s_metatable;
    LuaString.s_metatable = null;
    LuaValue returned;
    try {
      returned = globals.load(script, "health.lua").call();
    } finally {
      LuaString.s_metatable = stringMethods;
    }
    assertThat(returned.istable()).as("the script returns a table, not %s", returned.typename()).isTrue();
    return (LuaTable) returned;
  }

  /** JSON-shaped Java values to Lua as Argo CD decodes them: numbers as Lua numbers, null as nil. */
  static LuaValue toLua(Object value) {
    if (value == null) {
      return LuaValue.NIL;
    } else if (value instanceof Map<?, ?> map) {
      LuaTable table = new LuaTable();
      map.forEach((k, v) -> table.set(String.valueOf(k), toLua(v)));
      return table;
    } else if (value instanceof List<?> list) {
      LuaTable table = new LuaTable();
      for (int i = 0; i < list.size(); i++) {
        table.set(i + 1, toLua(list.get(i)));
      }
      return table;
    } else if (value instanceof String s) {
      return LuaValue.valueOf(s);
    } else if (value instanceof Boolean b) {
      return LuaValue.valueOf(b);
    } else if (value instanceof Number n) {
      return LuaValue.valueOf(n.doubleValue());
    }
    throw new IllegalArgumentException("no Lua form for " + value.getClass().getName());
  }

  private static Map<String, Object> yaml(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return SERIALIZATION.unmarshal(in, new TypeReference<Map<String, Object>>() {});
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    return new String(readBytes(file), StandardCharsets.UTF_8);
  }

  private static byte[] readBytes(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
