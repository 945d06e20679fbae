package dev.varroa.cli.bundle;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import picocli.CommandLine.Model.CommandSpec;

/** Prints every problem of a failed render, one a line, and gives the exit code of its class. */
final class BundleErrors {
  private BundleErrors() {}

  static int report(CommandSpec spec, BundleException e) {
    for (BundleProblem problem : e.problems()) {
      spec.commandLine().getErr().println("varroactl: " + problem.format());
    }
    spec.commandLine().getErr().flush();
    return e.exitCode();
  }
}
