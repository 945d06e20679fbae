package dev.varroa.mite;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The mite's build version, reported in Register and Hello. */
final class MiteVersion {

  static final String CURRENT = read();

  private MiteVersion() {
  }

  private static String read() {
    try (InputStream in = MiteVersion.class.getResourceAsStream("mite-version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
