package dev.varroa.testfixtures.jenkins.standin;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The init container's command line, as PluginsInitContainer renders it, against the stand-in tool. */
class JenkinsPluginCliStandInTest {

    @TempDir
    Path home;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void emptiesTheDownloadDirectoryAndWritesAPlaceholderPerPluginWithoutAnUpdateCenter() throws IOException {
        Path plugins = Files.createDirectories(home.resolve("plugins"));
        Files.writeString(plugins.resolve("dropped-from-the-lock.jpi"), "old");
        Files.createDirectories(plugins.resolve("dropped-from-the-lock"));
        Path pluginFile = pluginFile("# the lock\nconfiguration-as-code:1810.v9b_c30a_249a_4c\n\nvarroa:0.1.0\n");

        int status = run(Map.of(), "--plugin-file", pluginFile.toString(), "--plugin-download-directory",
                plugins.toString(), "--latest", "false", "--clean-download-directory");

        assertThat(status).isZero();
        try (var listed = Files.list(plugins)) {
            assertThat(listed.map(path -> path.getFileName().toString()))
                    .containsExactlyInAnyOrder("configuration-as-code.jpi", "varroa.jpi");
        }
        assertThat(Files.readString(plugins.resolve("varroa.jpi"))).contains("Placeholder", "varroa:0.1.0");
        assertThat(out.toString()).contains("event=plugin_placeholder plugin=varroa", "no update center given");
    }

    @Test
    void downloadsFromTheUpdateCentersDownloadUrlAndFallsBackToAPlaceholder() throws IOException {
        HttpServer center = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        byte[] hpi = {'P', 'K', 3, 4, 42};
        center.createContext("/download/plugins/varroa/0.1.0/varroa.hpi", exchange -> {
            exchange.sendResponseHeaders(200, hpi.length);
            try (OutputStream body = exchange.getResponseBody()) {
                body.write(hpi);
            }
        });
        center.start();
        try {
            String base = "http://127.0.0.1:" + center.getAddress().getPort();
            Path plugins = home.resolve("plugins");
            int status = run(Map.of(JenkinsPluginCliStandIn.DOWNLOAD_URL_VARIABLE, base + "/download/plugins"),
                    "--plugin-file", pluginFile("varroa:0.1.0\ngit:5.7.0\n").toString(),
                    "--plugin-download-directory", plugins.toString(), "--latest", "false",
                    "--clean-download-directory", "--jenkins-update-center", base + "/update-center.json",
                    "--jenkins-plugin-info", base + "/plugin-versions.json");

            assertThat(status).isZero();
            assertThat(Files.readAllBytes(plugins.resolve("varroa.jpi"))).isEqualTo(hpi);
            assertThat(Files.readString(plugins.resolve("git.jpi"))).contains("Placeholder");
            assertThat(out.toString()).contains("event=plugin_downloaded plugin=varroa", "event=plugin_placeholder plugin=git",
                    "HTTP 404");
        } finally {
            center.stop(0);
        }
    }

    @Test
    void refusesAnOptionItDoesNotKnowNamingTheOnesItTakes() throws IOException {
        int status = run(Map.of(), "--plugin-file", pluginFile("git:5.7.0\n").toString(), "--plugin-download-directory",
                home.resolve("plugins").toString(), "--view-security-warnings");

        assertThat(status).isEqualTo(1);
        assertThat(err.toString()).contains("'--view-security-warnings'", "--plugin-file", "--jenkins-plugin-info");
    }

    private Path pluginFile(String text) throws IOException {
        Path file = home.resolve("plugins.txt");
        Files.writeString(file, text);
        return file;
    }

    private int run(Map<String, String> env, String... args) {
        return JenkinsPluginCliStandIn.run(args, env, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }
}
