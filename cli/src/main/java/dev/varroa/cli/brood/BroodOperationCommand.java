package dev.varroa.cli.brood;

import picocli.CommandLine.Command;

/** {@code varroactl broodop}: BroodOperations across clusters (docs/brood-operations.md). */
@Command(name = "broodop", mixinStandardHelpOptions = true,
    description = "List, show, create, pause, resume and cancel BroodOperations through the Varroa BFF, in every"
        + " registered cluster you may see. Exit codes: 0 done, 1 the server or network gave an error (401, 403, 404,"
        + " 5xx, unreachable) or a dry run did not finish in time, 2 invalid input, 3 conflict (the operation has"
        + " finished, is cancelled, or already exists).",
    subcommands = {BroodOperationListCommand.class, BroodOperationGetCommand.class,
        BroodOperationCreateCommand.class, BroodOperationPauseCommand.class, BroodOperationResumeCommand.class,
        BroodOperationCancelCommand.class})
public final class BroodOperationCommand {}
