package dev.varroa.cli.bundle;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.render.RenderedBundle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** `varroactl bundle render`: what the operator would render, written to a folder. */
@Command(
    name = "render",
    mixinStandardHelpOptions = true,
    description = {
        "Renders a ComposedBundle exactly as the operator does and writes jcasc.yaml, plugins.txt and"
            + " bundle.lock.json.",
        "Exit codes: 0 rendered, 2 invalid input (unreadable source, bad YAML, missing reference),"
            + " 3 conflict (what the operator reports as ReconcileBlocked)."})
public final class BundleRenderCommand implements Callable<Integer> {
  /** Output formats of -o. */
  enum Format { text, json }

  @Mixin BundleFileOptions files;

  @Option(names = "--out", paramLabel = "DIR", description = "Folder for the three files; default: ${DEFAULT-VALUE}.")
  Path out = Path.of("rendered");

  @Option(names = "-o", paramLabel = "FORMAT", description = "text (a summary) or json (the lock on standard output).")
  Format format = Format.text;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    OfflineComposition composition = new OfflineComposition(files);
    RenderedBundle rendered;
    try {
      rendered = composition.render();
    } catch (BundleException e) {
      return BundleErrors.report(spec, e);
    }
    Files.createDirectories(out);
    for (Map.Entry<String, byte[]> file : rendered.files().entrySet()) {
      Files.write(out.resolve(file.getKey()), file.getValue());
    }
    if (format == Format.json) {
      spec.commandLine().getOut().print(rendered.lockText());
    } else {
      spec.commandLine().getOut().printf("rendered %s: %s, Jenkins %s, %d plugins, %d inputs, %d overrides -> %s%n",
          composition.bundle().getMetadata().getName(), rendered.digest(), rendered.lock().jenkinsVersion(),
          rendered.lock().plugins().size(), rendered.lock().inputs().size(), rendered.lock().overrides().size(), out);
    }
    spec.commandLine().getOut().flush();
    return 0;
  }
}
