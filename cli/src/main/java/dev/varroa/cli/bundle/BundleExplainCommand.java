package dev.varroa.cli.bundle;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.render.Explanation;
import dev.varroa.bundle.render.RenderedBundle;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** `varroactl bundle explain`: which input set a value, and what it overrode. */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    description = {
        "Says which input set the value at a JCasC path and what it overrode.",
        "Paths are dotted; list elements are [identity] or [index], e.g. jenkins.clouds[kubernetes/k8s].namespace.",
        "Exit codes: 0 explained, 1 no such path in the render, 2 invalid input, 3 conflict."})
public final class BundleExplainCommand implements Callable<Integer> {
  /** Exit code when the render has no value at the path. */
  static final int EXIT_NO_SUCH_PATH = 1;

  @Mixin BundleFileOptions files;

  @Option(names = "--path", required = true, paramLabel = "PATH", description = "e.g. jenkins.systemMessage")
  String path;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    RenderedBundle rendered;
    try {
      rendered = new OfflineComposition(files).render();
    } catch (BundleException e) {
      return BundleErrors.report(spec, e);
    }
    Optional<Explanation> explanation = rendered.explain(path);
    if (explanation.isEmpty()) {
      spec.commandLine().getErr().println("varroactl: no value at " + path + " in the rendered JCasC");
      spec.commandLine().getErr().flush();
      return EXIT_NO_SUCH_PATH;
    }
    spec.commandLine().getOut().print(explanation.get().format());
    spec.commandLine().getOut().flush();
    return 0;
  }
}
