package dev.varroa.cli.actions;

import picocli.CommandLine.Command;

/** {@code varroactl drain}: actions that empty a target (docs/actions.md). */
@Command(name = "drain", mixinStandardHelpOptions = true,
    description = "Drain a member cluster through the Varroa BFF: its Controllers and their resources are deleted one"
        + " by one. Exit codes: 0 done or under way, 1 the server or network gave an error (401, 403, 404, 5xx,"
        + " unreachable) or the drain was not confirmed, 2 invalid input, 3 conflict (the core cluster, nothing to"
        + " cancel).",
    subcommands = {DrainClusterCommand.class})
public final class DrainCommand {}
