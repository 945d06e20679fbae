package dev.varroa.updatecenter;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the update center a managed UpdateCenter deploys, with its settings from the environment
 * ({@link UpdateCenterSettings}). {@code --version} prints {@code varroa-update-center <version>}.
 */
public final class UpdateCenterMain {
  private static final Logger LOG = LoggerFactory.getLogger(UpdateCenterMain.class);

  private UpdateCenterMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && (args[0].equals("--version") || args[0].equals("-V"))) {
      System.out.println("varroa-update-center " + version());
      return;
    }
    if (args.length > 0) {
      System.err.println("varroa-update-center: unknown argument " + args[0]
          + "; it takes only --version, and reads its settings from VARROA_UC_* variables");
      System.exit(2);
    }
    UpdateCenterSettings settings;
    try {
      settings = UpdateCenterSettings.fromEnv(System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("varroa-update-center: " + e.getMessage());
      System.exit(2);
      return;
    }
    UpdateCenterServer server = new UpdateCenterServer(settings);
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "update-center-shutdown"));
    server.start();
    LOG.info("event=ready version={}", version());
  }

  /** The release the build stamped into version.properties, without -SNAPSHOT: the number its image is tagged with. */
  public static String version() {
    try (InputStream in = UpdateCenterMain.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown").replaceFirst("-SNAPSHOT$", "");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
