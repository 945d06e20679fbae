package dev.varroa.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Properties;

/**
 * The Varroa release a build belongs to, as every component's {@code --version} prints it: the Maven project
 * version without {@code -SNAPSHOT}, the same number the images are tagged with (so {@code varroa/gateway:0.1.0}
 * answers {@code varroa-gateway 0.1.0}).
 */
public final class ReleaseVersion {

  /** The one argument that makes a main print {@link #line} and exit 0 before reading any setting. */
  public static final String FLAG = "--version";

  /** This build's release, e.g. {@code 0.1.0}. */
  public static final String CURRENT = read();

  private ReleaseVersion() {
  }

  /** True when the command line asks for the version. */
  public static boolean requested(String[] args) {
    return Arrays.asList(args).contains(FLAG);
  }

  /** The line {@code --version} prints for a component, e.g. {@code varroa-mite 0.1.0}. */
  public static String line(String component) {
    return "varroa-" + component + " " + CURRENT;
  }

  private static String read() {
    try (InputStream in = ReleaseVersion.class.getResourceAsStream("varroa-version.properties")) {
      if (in == null) {
        throw new IllegalStateException("varroa-version.properties is missing from varroa-protocol: rebuild it with Maven");
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version").replaceFirst("-SNAPSHOT$", "");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read varroa-version.properties from varroa-protocol", e);
    }
  }
}
