package dev.varroa.cli.updatecenter;

import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.cli.input.InvalidInputException;
import dev.varroa.cli.input.ManifestSet;
import dev.varroa.updatecenter.FileDigests;
import dev.varroa.updatecenter.PluginCoordinates;
import dev.varroa.updatecenter.UpstreamSite;
import dev.varroa.updatecenter.WantedPlugins;
import dev.varroa.updatecenter.archive.ArchiveEntry;
import dev.varroa.updatecenter.archive.PluginExport;
import dev.varroa.bundle.render.RenderedBundle;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** `varroactl updatecenter export`: the locked plugin versions, downloaded and checked, in one archive. */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = {
        "On a connected machine: downloads exactly the plugin versions the JenkinsVersionProfiles (-f), bundle"
            + " locks (--lock) and --plugin entries name from an upstream update site, checks each against the"
            + " SHA-256 the site publishes, and writes one archive (tar: manifest.json, SHA256SUMS, the .hpi files).",
        "Exit codes: 0 written, 2 invalid input (unreadable file, unreachable upstream, a version it does not"
            + " list, a download that fails its checksum)."})
public final class UpdateCenterExportCommand implements Callable<Integer> {
  @Option(names = "-f", paramLabel = "PATH",
      description = "YAML file or folder of them; every JenkinsVersionProfile in them contributes its plugins. Repeatable.")
  List<Path> files = new ArrayList<>();

  @Option(names = "--lock", paramLabel = "FILE",
      description = "A bundle.lock.json (or the folder `varroactl bundle render` wrote it to). Repeatable.")
  List<Path> locks = new ArrayList<>();

  @Option(names = "--plugin", paramLabel = "ID:VERSION", description = "One more plugin version, e.g. git:5.8.0. Repeatable.")
  List<String> plugins = new ArrayList<>();

  @Option(names = "--upstream", paramLabel = "URL",
      description = "The update site's update-center.json; default: ${DEFAULT-VALUE}.")
  URI upstream = UpstreamSite.JENKINS_UPDATE_CENTER;

  @Option(names = "--plugin-versions", paramLabel = "URL",
      description = "Its plugin-versions.json, for versions that are not the newest; default: the file next to --upstream.")
  URI pluginVersions;

  @Option(names = {"-o", "--out"}, paramLabel = "FILE", description = "The archive to write; default: ${DEFAULT-VALUE}.")
  Path out = Path.of("varroa-plugins.tar");

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    SortedSet<PluginCoordinates> wanted = wanted();
    if (wanted.isEmpty()) {
      throw new InvalidInputException("nothing to export: give -f with a JenkinsVersionProfile, --lock with a"
          + " bundle.lock.json, or --plugin ID:VERSION");
    }
    List<ArchiveEntry> entries;
    try {
      entries = new PluginExport(new UpstreamSite(upstream, Optional.ofNullable(pluginVersions))).export(wanted, out);
    } catch (IOException e) {
      throw new InvalidInputException(e.getMessage());
    }
    String sha256;
    try {
      sha256 = FileDigests.of(out).sha256Hex();
    } catch (IOException e) {
      throw new InvalidInputException("cannot read back " + out + ": " + e.getMessage());
    }
    var stdout = spec.commandLine().getOut();
    entries.forEach(e -> stdout.printf("  %s %s  sha256:%s%n", e.plugin().id(), e.plugin().version(), e.sha256()));
    stdout.printf("exported %d plugins from %s to %s (archive sha256:%s)%n", entries.size(), upstream, out, sha256);
    stdout.flush();
    return 0;
  }

  private SortedSet<PluginCoordinates> wanted() {
    SortedSet<PluginCoordinates> wanted = new TreeSet<>();
    if (!files.isEmpty()) {
      List<JenkinsVersionProfile> profiles = ManifestSet.read(files).all(JenkinsVersionProfile.class);
      if (profiles.isEmpty()) {
        throw new InvalidInputException("-f " + files + ": no JenkinsVersionProfile in these files");
      }
      profiles.forEach(p -> wanted.addAll(WantedPlugins.of(p)));
    }
    for (Path lock : locks) {
      Path file = Files.isDirectory(lock) ? lock.resolve(RenderedBundle.LOCK_FILE) : lock;
      try {
        wanted.addAll(WantedPlugins.ofLock(Files.readAllBytes(file)));
      } catch (IOException e) {
        throw new InvalidInputException("--lock " + file + ": " + e.getMessage()
            + "; fix: give the bundle.lock.json `varroactl bundle render` wrote");
      }
    }
    for (String plugin : plugins) {
      try {
        wanted.add(PluginCoordinates.parse(plugin));
      } catch (IllegalArgumentException e) {
        throw new InvalidInputException("--plugin " + e.getMessage());
      }
    }
    return wanted;
  }
}
