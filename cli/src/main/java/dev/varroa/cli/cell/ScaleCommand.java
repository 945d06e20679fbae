package dev.varroa.cli.cell;

import picocli.CommandLine.Command;

/** {@code varroactl scale}: what kubectl scale does, from the core, on any registered cluster, through the BFF. */
@Command(name = "scale", mixinStandardHelpOptions = true,
    description = "Scale a CellPool through the Varroa BFF, on whichever registered cluster holds it (docs/cells.md)."
        + " Exit codes: 0 done, 1 the server or network gave an error (401, 403, 404, 5xx, unreachable), 2 invalid"
        + " input.",
    subcommands = {ScaleCellPoolCommand.class})
public final class ScaleCommand {}
