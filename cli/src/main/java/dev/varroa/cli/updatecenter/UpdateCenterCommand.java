package dev.varroa.cli.updatecenter;

import picocli.CommandLine.Command;

/** `varroactl updatecenter`: carry plugins into an air gap. */
@Command(
    name = "updatecenter",
    mixinStandardHelpOptions = true,
    description = "Carry locked plugins into an air-gapped update center: export on a connected machine, import inside.",
    subcommands = {UpdateCenterExportCommand.class, UpdateCenterImportCommand.class})
public final class UpdateCenterCommand {}
