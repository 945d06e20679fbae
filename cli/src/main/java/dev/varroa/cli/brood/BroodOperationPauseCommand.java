package dev.varroa.cli.brood;

import picocli.CommandLine.Command;

/** {@code varroactl broodop pause NAME}. */
@Command(name = "pause", mixinStandardHelpOptions = true,
    description = "Pause a BroodOperation (spec.suspend: true): steps under way finish, no step starts until"
        + " resume.")
public final class BroodOperationPauseCommand extends BroodOperationVerbCommand {

  @Override
  String verb() {
    return "broodop-pause";
  }
}
