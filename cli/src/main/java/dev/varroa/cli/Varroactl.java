package dev.varroa.cli;

import dev.varroa.cli.actions.DrainCommand;
import dev.varroa.cli.brood.BroodOperationCommand;
import dev.varroa.cli.brood.BroodScheduleCommand;
import dev.varroa.cli.cell.ScaleCommand;
import dev.varroa.cli.pipeline.RunCommand;
import dev.varroa.cli.input.InvalidInputException;
import dev.varroa.cli.bff.BffFailure;
import dev.varroa.cli.bff.CommandEnvironment;
import dev.varroa.cli.bff.ConfigFolder;
import dev.varroa.cli.bff.GetCommand;
import dev.varroa.cli.bff.LoginCommand;
import dev.varroa.cli.bff.LogsCommand;
import dev.varroa.cli.bff.SearchCommand;
import dev.varroa.cli.bundle.BundleCommand;
import dev.varroa.cli.render.RenderCommand;
import dev.varroa.cli.updatecenter.UpdateCenterCommand;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** varroactl: the Varroa command line. Offline commands run the same code the operator runs. */
@Command(
    name = "varroactl",
    mixinStandardHelpOptions = true,
    versionProvider = Varroactl.Version.class,
    description = "Render, diff and explain Varroa bundles, and render controllers, offline, exactly as the operator does;"
        + " carry plugins into an air-gapped update center; log in and read clusters, controllers, activity, logs"
        + " and search through the Varroa BFF; drain a member cluster (docs/actions.md); list, create, pause, resume"
        + " and cancel brood operations and show brood schedules (docs/brood-operations.md); list and scale cell"
        + " pools (docs/cells.md); run a team's pipeline (docs/pipelines.md).",
    subcommands = {BundleCommand.class, RenderCommand.class, UpdateCenterCommand.class, LoginCommand.class,
        GetCommand.class, LogsCommand.class, SearchCommand.class, DrainCommand.class, BroodOperationCommand.class,
        BroodScheduleCommand.class, ScaleCommand.class, RunCommand.class, CommandLine.HelpCommand.class})
public final class Varroactl implements CommandEnvironment {
  /** Exit code for an error the server or the network gave (401, 403, 404, 5xx, unreachable), as kubectl's. */
  public static final int EXIT_ERROR = 1;
  /** Exit code for invalid input: unreadable source, bad YAML, missing reference. */
  public static final int EXIT_INVALID = InvalidInputException.EXIT_CODE;
  /** Exit code for a conflict, what the operator reports as ReconcileBlocked. */
  public static final int EXIT_CONFLICT = 3;

  private final Map<String, String> environment;
  private final Clock clock;

  private Varroactl(Map<String, String> environment, Clock clock) {
    this.environment = Map.copyOf(environment);
    this.clock = clock;
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line, shared by main and tests. */
  public static CommandLine commandLine() {
    return commandLine(System.getenv(), Clock.systemUTC());
  }

  /** The command line reading its config folder (XDG_CONFIG_HOME, HOME) from this environment: tests use a temp one. */
  public static CommandLine commandLine(Map<String, String> environment, Clock clock) {
    CommandLine cli = new CommandLine(new Varroactl(environment, clock));
    cli.setExecutionExceptionHandler((e, command, parsed) -> {
      if (e instanceof InvalidInputException) {
        command.getErr().println("varroactl: invalid input: " + e.getMessage());
        return EXIT_INVALID;
      }
      if (e instanceof BffFailure failure) {
        command.getErr().println(failure.text());
        command.getErr().flush();
        return EXIT_ERROR;
      }
      throw e;
    });
    return cli;
  }

  @Override
  public ConfigFolder configFolder() {
    return ConfigFolder.of(environment);
  }

  @Override
  public Clock clock() {
    return clock;
  }

  /** Reads the version the build stamped into version.properties. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties properties = new Properties();
      try (InputStream in = Varroactl.class.getResourceAsStream("version.properties")) {
        if (in != null) {
          properties.load(in);
        }
      }
      return new String[] {"varroactl " + properties.getProperty("version", "unknown")};
    }
  }
}
