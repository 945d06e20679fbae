package dev.varroa.operator.render.resolve;

import dev.varroa.protocol.ReleaseVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Varroa Jenkins plugin, which every Controller's plugin lock gets: its security realm verifies the
 * mite's token and its strategy closes Jenkins to everyone else. Its version is the operator's release,
 * so a Jenkins always runs the plugin built with the protocol its mite speaks.
 */
public final class VarroaPlugin {
  /** The plugin's id (its .hpi is varroa.hpi). */
  public static final String ID = "varroa";
  /** The plugin's version: this operator's release. */
  public static final String VERSION = ReleaseVersion.CURRENT;

  private VarroaPlugin() {}

  /**
   * Its plugins.txt line: {@code varroa:<version>}, installed from the update center in force like every other
   * plugin, or {@code varroa:<version>:<url>} when the installation names where its .hpi is.
   */
  public static String line(InstallationDefaults installation) {
    return ID + ":" + VERSION + installation.varroaPluginUrl().map(url -> ":" + url).orElse("");
  }

  /** The bundle's plugins.txt with the plugin's line in its sorted place, replacing a line of the same id. */
  public static String pluginsText(String bundlePlugins, InstallationDefaults installation) {
    List<String> lines = new ArrayList<>(bundlePlugins.lines().filter(l -> !l.isBlank())
        .filter(l -> !idOf(l).equals(ID)).toList());
    int at = 0;
    while (at < lines.size() && idOf(lines.get(at)).compareTo(ID) < 0) {
      at++;
    }
    lines.add(at, line(installation));
    return String.join("\n", lines) + "\n";
  }

  /** The version a bundle's plugins.txt locks the plugin at, if it names it. */
  static Optional<String> lockedBy(String bundlePlugins) {
    return bundlePlugins.lines().filter(l -> idOf(l).equals(ID)).findFirst()
        .map(l -> l.substring(ID.length() + 1).split(":", 2)[0]);
  }

  private static String idOf(String line) {
    int colon = line.indexOf(':');
    return colon < 0 ? line.strip() : line.substring(0, colon);
  }
}
