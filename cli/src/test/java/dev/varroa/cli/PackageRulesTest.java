package dev.varroa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The package rules of the operator and the CLI (docs/development.md): no cycle between the packages of
 * reconcilers/ or of cli/, and the CLI takes only render code from the operator. Read from the sources, so a
 * violation names the files that make it.
 */
class PackageRulesTest {
  // surefire runs in cli/; the reactor's root is its parent
  private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
  private static final String OPERATOR = "dev.varroa.operator";
  private static final String RENDER = OPERATOR + ".render";

  @Test
  void reconcilersHaveNoPackageCycle() {
    assertNoCycle(PackageGraph.read(sources("reconcilers"), OPERATOR), "reconcilers/");
  }

  @Test
  void cliHasNoPackageCycle() {
    assertNoCycle(PackageGraph.read(sources("cli"), "dev.varroa.cli"), "cli/");
  }

  @Test
  void cliTakesOnlyRenderCodeFromTheOperator() {
    PackageGraph cli = PackageGraph.read(sources("cli"), OPERATOR);

    Set<String> beyondRender = cli.arrows().stream()
        .filter(arrow -> {
          String to = arrow.substring(arrow.indexOf(" -> ") + 4);
          return !to.equals(RENDER) && !to.startsWith(RENDER + ".");
        })
        .map(arrow -> arrow + " (" + String.join(", ", cli.files(arrow.substring(0, arrow.indexOf(" -> ")),
            arrow.substring(arrow.indexOf(" -> ") + 4))) + ")")
        .collect(Collectors.toSet());
    assertThat(beyondRender)
        .as("the CLI uses operator packages other than %s; fix: move what it needs into %s (a pure function or a"
            + " constant), so varroactl renders offline with the operator's render code only", RENDER, RENDER)
        .isEmpty();
  }

  @Test
  void findsACycleThroughThreePackagesAndNoneInALayering() {
    assertThat(PackageGraph.of("a -> b", "b -> c", "c -> a", "c -> d").cycles()).containsExactly(Set.of("a", "b", "c"));
    assertThat(PackageGraph.of("a -> b", "b -> c", "a -> c").cycles()).isEmpty();
  }

  @Test
  void readsNamesFromCodeButNotFromCommentsOrStrings() {
    String code = PackageGraph.withoutCommentsAndStrings("""
        import dev.varroa.x.Kept; // dev.varroa.y.Comment
        /* dev.varroa.z.Block */ String s = "dev.varroa.w.String"; char c = '"';
        """);

    assertThat(code).contains("dev.varroa.x.Kept").doesNotContain("dev.varroa.y", "dev.varroa.z", "dev.varroa.w");
  }

  private static void assertNoCycle(PackageGraph graph, String module) {
    assertThat(graph.packages()).as("packages read from %s", module).hasSizeGreaterThan(3);
    List<Set<String>> cycles = graph.cycles();
    assertThat(cycles)
        .as("package cycle in %s:%s%nfix: move the type one side needs into a package both may use, or pass it in"
            + " as an interface the lower package owns", module,
            cycles.stream().map(graph::describe).collect(Collectors.joining("\n")))
        .isEmpty();
  }

  private static Path sources(String module) {
    Path root = REPOSITORY.resolve(module).resolve("src/main/java");
    assertThat(Files.isDirectory(root)).as("%s (run from the cli module)", root).isTrue();
    return root;
  }
}
