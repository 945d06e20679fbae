package dev.varroa.cli.brood;

import picocli.CommandLine.Command;

/** {@code varroactl broodschedule}: BroodSchedules and the job schedules the plugin reports. */
@Command(name = "broodschedule", mixinStandardHelpOptions = true,
    description = "Show BroodSchedules and the job schedules the Varroa plugin reports, through the Varroa BFF. Exit"
        + " codes: 0 listed, 1 the server or network gave an error (401, 403, 404, 5xx, unreachable).",
    subcommands = {BroodScheduleGetCommand.class})
public final class BroodScheduleCommand {}
