package dev.varroa.cli.bundle;

import picocli.CommandLine.Command;

/** `varroactl bundle`: offline render, diff and explain of ComposedBundles. */
@Command(
    name = "bundle",
    mixinStandardHelpOptions = true,
    description = "Render, diff and explain ComposedBundles from YAML files, with no cluster.",
    subcommands = {BundleRenderCommand.class, BundleDiffCommand.class, BundleExplainCommand.class})
public final class BundleCommand {}
