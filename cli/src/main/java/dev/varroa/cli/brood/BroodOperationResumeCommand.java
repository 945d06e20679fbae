package dev.varroa.cli.brood;

import picocli.CommandLine.Command;

/** {@code varroactl broodop resume NAME}. */
@Command(name = "resume", mixinStandardHelpOptions = true,
    description = "Resume a paused BroodOperation (spec.suspend: false).")
public final class BroodOperationResumeCommand extends BroodOperationVerbCommand {

  @Override
  String verb() {
    return "broodop-resume";
  }
}
