package dev.varroa.cli.render;

import picocli.CommandLine.Command;

/** `varroactl render`: what the operator would own in the cluster, rendered offline from YAML files. */
@Command(
    name = "render",
    mixinStandardHelpOptions = true,
    description = "Render the Kubernetes objects the operator would create, from YAML files, with no cluster.",
    subcommands = {RenderControllerCommand.class})
public final class RenderCommand {}
