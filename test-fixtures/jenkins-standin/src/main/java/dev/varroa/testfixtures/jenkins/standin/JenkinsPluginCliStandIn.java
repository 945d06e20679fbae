package dev.varroa.testfixtures.jenkins.standin;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code jenkins-plugin-cli} in the Jenkins stand-in image, for the operator's {@code plugins} init container
 * (reconcilers' PluginsInitContainer): it takes the options that container passes, empties the download directory
 * ({@code --clean-download-directory}) and writes each plugin of the plugin file as {@code <name>.jpi}, as the real
 * tool names them. With an update center ({@code --jenkins-update-center}) it downloads
 * {@code <JENKINS_UC_DOWNLOAD_URL>/<name>/<version>/<name>.hpi} as the real tool does; when that fails, or without
 * an update center, it writes a placeholder and says so. The stand-in Jenkins loads no plugin, so a placeholder is
 * enough for the pod to start. Exits 0 when every plugin was written, 1 on a usage or file error.
 */
public final class JenkinsPluginCliStandIn {

    /** jenkins-plugin-cli's environment variable for the download base ({@code .../download/plugins}). */
    static final String DOWNLOAD_URL_VARIABLE = "JENKINS_UC_DOWNLOAD_URL";
    static final String PLACEHOLDER_TEXT = "Placeholder written by the Varroa jenkins-plugin-cli stand-in: not a plugin.\n";
    private static final Duration DOWNLOAD_TIMEOUT = Duration.ofSeconds(30);

    /** The options the operator's init container passes (the real tool's names). */
    record Options(Path pluginFile, Path downloadDirectory, boolean latest, boolean cleanDownloadDirectory,
                   Optional<URI> updateCenter, Optional<URI> pluginInfo) {
    }

    /** One line of the plugin file: {@code name[:version]}. */
    record PluginEntry(String name, String version) {
    }

    private JenkinsPluginCliStandIn() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        Options options;
        List<PluginEntry> plugins;
        try {
            options = parse(args);
            plugins = read(options.pluginFile());
        } catch (IllegalArgumentException e) {
            err.println("jenkins-plugin-cli (Varroa stand-in): " + e.getMessage());
            return 1;
        }
        out.println("event=plugin_cli_standin stand_in=true plugins=" + plugins.size() + " directory="
                + options.downloadDirectory() + " update_center=" + options.updateCenter().map(URI::toString).orElse("none")
                + " message=\"not Jenkins' jenkins-plugin-cli: the Varroa Jenkins stand-in image's\"");
        try {
            Files.createDirectories(options.downloadDirectory());
            if (options.cleanDownloadDirectory()) {
                clean(options.downloadDirectory());
            }
            Optional<String> downloadBase = options.updateCenter().map(center -> downloadBase(center, env));
            HttpClient http = HttpClient.newBuilder().connectTimeout(DOWNLOAD_TIMEOUT)
                    .followRedirects(HttpClient.Redirect.NORMAL).build();
            for (PluginEntry plugin : plugins) {
                Path target = options.downloadDirectory().resolve(plugin.name() + ".jpi");
                Optional<String> failure = downloadBase.isEmpty() ? Optional.of("no update center given")
                        : download(http, URI.create(downloadBase.get() + "/" + plugin.name() + "/" + plugin.version() + "/"
                                + plugin.name() + ".hpi"), target);
                if (failure.isEmpty()) {
                    out.println("event=plugin_downloaded plugin=" + plugin.name() + " version=" + plugin.version()
                            + " file=" + target + " bytes=" + Files.size(target));
                } else {
                    Files.writeString(target, PLACEHOLDER_TEXT + plugin.name() + ":" + plugin.version() + "\n",
                            StandardCharsets.UTF_8);
                    out.println("event=plugin_placeholder plugin=" + plugin.name() + " version=" + plugin.version()
                            + " file=" + target + " reason=\"" + failure.get() + "\"");
                }
            }
        } catch (IOException e) {
            err.println("jenkins-plugin-cli (Varroa stand-in): cannot write " + options.downloadDirectory() + ": " + e
                    + "; the plugins folder must be writable by the init container's user (fsGroup of the pod)");
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
        return 0;
    }

    static Options parse(String[] args) {
        Path pluginFile = null;
        Path directory = null;
        boolean latest = true;
        boolean clean = false;
        URI updateCenter = null;
        URI pluginInfo = null;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--plugin-file", "-f" -> pluginFile = Path.of(value(args, ++i, option));
                case "--plugin-download-directory", "-d" -> directory = Path.of(value(args, ++i, option));
                case "--latest" -> latest = bool(value(args, ++i, option), option);
                case "--clean-download-directory" -> clean = true;
                case "--jenkins-update-center" -> updateCenter = uri(value(args, ++i, option), option);
                case "--jenkins-plugin-info" -> pluginInfo = uri(value(args, ++i, option), option);
                default -> throw new IllegalArgumentException("option '" + option + "' is not one the stand-in knows;"
                        + " it takes --plugin-file, --plugin-download-directory, --latest, --clean-download-directory,"
                        + " --jenkins-update-center and --jenkins-plugin-info (what the operator's plugins init container passes)");
            }
        }
        if (pluginFile == null || directory == null) {
            throw new IllegalArgumentException("--plugin-file and --plugin-download-directory are both required");
        }
        return new Options(pluginFile, directory, latest, clean, Optional.ofNullable(updateCenter),
                Optional.ofNullable(pluginInfo));
    }

    /** The plugin file's lines: {@code name:version}, {@code #} comments and blank lines left out. */
    static List<PluginEntry> read(Path pluginFile) {
        List<String> lines;
        try {
            lines = Files.readAllLines(pluginFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the plugin file " + pluginFile + " (--plugin-file): " + e.getMessage());
        }
        List<PluginEntry> plugins = new ArrayList<>();
        for (String raw : lines) {
            String line = raw.contains("#") ? raw.substring(0, raw.indexOf('#')) : raw;
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split(":", 2);
            String name = parts[0].strip();
            if (name.isEmpty() || !name.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException(pluginFile + ": '" + raw + "' does not start with a plugin name");
            }
            plugins.add(new PluginEntry(name, parts.length == 2 && !parts[1].isBlank() ? parts[1].strip() : "latest"));
        }
        return plugins;
    }

    // The real tool's default download base is the Jenkins project's; beside a managed update center it is its own.
    private static String downloadBase(URI updateCenter, Map<String, String> env) {
        String configured = env.get(DOWNLOAD_URL_VARIABLE);
        if (configured != null && !configured.isBlank()) {
            return configured.strip().replaceAll("/+$", "");
        }
        String center = updateCenter.toString();
        return center.substring(0, center.lastIndexOf('/')) + "/download/plugins";
    }

    private static Optional<String> download(HttpClient http, URI from, Path target) throws IOException, InterruptedException {
        Path partial = target.resolveSibling(target.getFileName() + ".download");
        try {
            HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(from).timeout(DOWNLOAD_TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                if (response.statusCode() != 200) {
                    return Optional.of("HTTP " + response.statusCode() + " from " + from);
                }
                Files.copy(body, partial, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
            return Optional.empty();
        } catch (IOException e) {
            Files.deleteIfExists(partial);
            return Optional.of(from + " unreachable: " + e);
        }
    }

    private static void clean(Path directory) throws IOException {
        List<Path> inside;
        try (Stream<Path> walk = Files.walk(directory)) {
            inside = walk.filter(path -> !path.equals(directory)).sorted(Comparator.reverseOrder()).toList();
        }
        for (Path path : inside) {
            Files.delete(path);
        }
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    private static boolean bool(String value, String option) {
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException(option + " takes true or false, not '" + value + "'");
        }
        return value.equals("true");
    }

    private static URI uri(String value, String option) {
        try {
            URI uri = URI.create(value);
            if (uri.getScheme() == null || !uri.getScheme().startsWith("http")) {
                throw new IllegalArgumentException("not http(s)");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + " '" + value + "' is not an http(s) URL");
        }
    }
}
