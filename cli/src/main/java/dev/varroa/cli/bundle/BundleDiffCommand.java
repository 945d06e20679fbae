package dev.varroa.cli.bundle;

import dev.varroa.api.v1alpha1.BundleInput;
import dev.varroa.api.v1alpha1.GitSource;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.render.BundleDiff;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.cli.input.InvalidInputException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** `varroactl bundle diff`: what changes between two renders, and whether Jenkins reloads or restarts. */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    description = {
        "Says what changes in JCasC and plugins between two renders, and whether the change is reloadable"
            + " (JCasC only) or restart-class (plugins, Jenkins version).",
        "REV-OR-DIR is a folder written by `bundle render`, or a Git revision every git input of the bundle is"
            + " rendered at: a 40-hex commit id, tag:NAME for a tag, otherwise a branch name.",
        "Exit codes: 0 compared, 2 invalid input, 3 conflict in one of the renders."})
public final class BundleDiffCommand implements Callable<Integer> {
  @Mixin BundleFileOptions files;

  @Option(names = "--from", required = true, paramLabel = "REV-OR-DIR", description = "The render before.")
  String from;

  @Option(names = "--to", required = true, paramLabel = "REV-OR-DIR", description = "The render after.")
  String to;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    BundleDiff diff;
    try {
      diff = BundleDiff.between(render(from), render(to));
    } catch (BundleException e) {
      return BundleErrors.report(spec, e);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println("JCasC:" + (diff.jcasc().isEmpty() ? " no change" : ""));
    for (BundleDiff.JcascChange change : diff.jcasc()) {
      switch (change.kind()) {
        case ADDED -> out.println("  + " + change.path() + ": " + change.to());
        case REMOVED -> out.println("  - " + change.path() + ": " + change.from());
        case CHANGED -> out.println("  ~ " + change.path() + ": " + change.from() + " -> " + change.to());
      }
    }
    out.println("Plugins:" + (diff.plugins().isEmpty() ? " no change" : ""));
    for (BundleDiff.PluginChange change : diff.plugins()) {
      switch (change.kind()) {
        case ADDED -> out.println("  + " + change.id() + ":" + change.toVersion());
        case REMOVED -> out.println("  - " + change.id() + ":" + change.fromVersion());
        case CHANGED -> out.println("  ~ " + change.id() + ": " + change.fromVersion() + " -> " + change.toVersion());
      }
    }
    if (!java.util.Objects.equals(diff.fromJenkinsVersion(), diff.toJenkinsVersion())) {
      out.println("Jenkins: " + diff.fromJenkinsVersion() + " -> " + diff.toJenkinsVersion());
    }
    out.println("Change: " + diff.classification().label());
    out.flush();
    return 0;
  }

  private RenderedBundle render(String revOrDir) throws BundleException, IOException {
    Path dir = Path.of(revOrDir);
    if (Files.isDirectory(dir)) {
      Path lock = dir.resolve("bundle.lock.json");
      if (!Files.isRegularFile(lock)) {
        throw new InvalidInputException(dir + " has no bundle.lock.json: give a folder written by `bundle render`");
      }
      return RenderedBundle.read(Files.readAllBytes(dir.resolve("jcasc.yaml")),
          Files.readAllBytes(dir.resolve("plugins.txt")), Files.readAllBytes(lock));
    }
    return new OfflineComposition(files).render(input -> atRevision(input, revOrDir));
  }

  private static BundleInput atRevision(BundleInput input, String rev) {
    if (input.git == null) {
      return input;
    }
    GitSource.GitRef ref = new GitSource.GitRef();
    if (rev.matches("[0-9a-f]{40}")) {
      ref.commit = rev;
    } else if (rev.startsWith("tag:")) {
      ref.tag = rev.substring("tag:".length());
    } else {
      ref.branch = rev;
    }
    GitSource git = new GitSource();
    git.url = input.git.url;
    git.path = input.git.path;
    git.secretRef = input.git.secretRef;
    git.ref = ref;
    BundleInput pinned = new BundleInput();
    pinned.git = git;
    return pinned;
  }
}
