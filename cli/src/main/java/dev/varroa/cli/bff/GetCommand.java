package dev.varroa.cli.bff;

import picocli.CommandLine.Command;

/** {@code varroactl get}: lists read through the BFF. */
@Command(name = "get", mixinStandardHelpOptions = true,
    description = "List clusters, controllers, activity, cell pools or teams through the Varroa BFF (what your"
        + " VarroaRoleBindings let you see). Exit codes: 0 listed, 1 the server or network gave an error (401, 403,"
        + " 404, 5xx, unreachable), or no valid login.",
    subcommands = {GetClustersCommand.class, GetControllersCommand.class, GetActivityCommand.class,
        GetCellPoolsCommand.class, GetTeamsCommand.class, GetPipelinesCommand.class})
public final class GetCommand {}
