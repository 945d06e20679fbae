package dev.varroa.cli.brood;

import picocli.CommandLine.Command;

/** {@code varroactl broodop cancel NAME}. */
@Command(name = "cancel", mixinStandardHelpOptions = true,
    description = "Cancel a BroodOperation (spec.cancel: true): no step starts again and targets not finished"
        + " become Cancelled; final.")
public final class BroodOperationCancelCommand extends BroodOperationVerbCommand {

  @Override
  String verb() {
    return "broodop-cancel";
  }
}
