package dev.varroa.operator.home;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The POSIX sh script the copy and check Jobs run (home-copy.sh beside this class), and its subcommands. */
public final class HomeCopyScript {
  public static final String RESOURCE = "home-copy.sh";
  /** The old home, read only. */
  public static final String ENV_FROM = "VARROA_HOME_FROM";
  /** The new home. */
  public static final String ENV_TO = "VARROA_HOME_TO";
  /** Where the script writes its one-line report: the container's terminationMessagePath. */
  public static final String ENV_TERMINATION_LOG = "VARROA_TERMINATION_LOG";

  /** What a Job of the move runs. */
  public enum Command {
    /** rsync the old home onto the new one; reports "copied files=N bytes=M". */
    COPY("copy"),
    /** compare both homes; reports "verified files=N bytes=M trees=SHA" or fails naming what differs. */
    VERIFY("verify");

    private final String argument;

    Command(String argument) {
      this.argument = argument;
    }

    public String argument() {
      return argument;
    }
  }

  private static final String TEXT = load();

  private HomeCopyScript() {}

  public static String text() {
    return TEXT;
  }

  private static String load() {
    try (InputStream in = HomeCopyScript.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing beside " + HomeCopyScript.class.getName()
            + "; the reconcilers jar is incomplete");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }
}
