package dev.varroa.cli.pipeline;

import picocli.CommandLine.Command;

/** {@code varroactl run}: start something that then runs by itself, through the BFF. */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run a Team's pipeline on its cell through the Varroa BFF (docs/pipelines.md).",
    subcommands = {RunPipelineCommand.class})
public final class RunCommand {}
