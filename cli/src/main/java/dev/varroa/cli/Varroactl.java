package dev.varroa.cli;

import dev.varroa.cli.bundle.BundleCommand;
import dev.varroa.cli.render.RenderCommand;
import dev.varroa.cli.updatecenter.UpdateCenterCommand;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** varroactl: the Varroa command line. Offline commands run the same code the operator runs. */
@Command(
    name = "varroactl",
    mixinStandardHelpOptions = true,
    versionProvider = Varroactl.Version.class,
    description = "Render, diff and explain Varroa bundles, and render controllers, offline, exactly as the operator does;"
        + " carry plugins into an air-gapped update center.",
    subcommands = {BundleCommand.class, RenderCommand.class, UpdateCenterCommand.class, CommandLine.HelpCommand.class})
public final class Varroactl {
  /** Exit code for invalid input: unreadable source, bad YAML, missing reference. */
  public static final int EXIT_INVALID = 2;
  /** Exit code for a conflict, what the operator reports as ReconcileBlocked. */
  public static final int EXIT_CONFLICT = 3;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line, shared by main and tests. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new Varroactl());
    cli.setExecutionExceptionHandler((e, command, parsed) -> {
      if (e instanceof InvalidInputException) {
        command.getErr().println("varroactl: invalid input: " + e.getMessage());
        return EXIT_INVALID;
      }
      throw e;
    });
    return cli;
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
