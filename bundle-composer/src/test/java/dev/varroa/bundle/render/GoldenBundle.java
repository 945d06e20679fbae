package dev.varroa.bundle.render;

import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.VersionProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The small realistic bundle under src/test/resources/render/golden: a catalog baseline, a team's
 * Git folder and an LTS profile with an overlay.
 */
final class GoldenBundle {
  static final Path ROOT = resource("/render/golden");

  private GoldenBundle() {}

  static RenderRequest request() {
    return new RenderRequest("team-a", List.of(base(), team()), profile(), Set.of("GITHUB_OAUTH_SECRET"),
        JenkinsEnvironment.VARIABLES);
  }

  static ResolvedInput base() {
    return new ResolvedInput(new InputRef(0, "catalogItem", null, "base-security", Map.of(), ""),
        "main@sha1:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", directory("base"));
  }

  static ResolvedInput team() {
    return new ResolvedInput(new InputRef(1, "git", "https://git.example.com/ci/bundles.git", null,
        Map.of("branch", "main"), "teams/a"), "main@sha1:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", directory("team"));
  }

  static VersionProfile profile() {
    return new VersionProfile("lts", "2.504.1", "jenkins/jenkins:2.504.1-jdk17", List.of(
        new VersionProfile.PluginVersion("configuration-as-code", "1953.v148f87d74b_1e"),
        new VersionProfile.PluginVersion("kubernetes", "4353.vb_4c2a_2b_b_3f2b_"),
        new VersionProfile.PluginVersion("git", "5.7.0"),
        new VersionProfile.PluginVersion("credentials", "1415.v831096eb_5534")),
        text("profile-overlay.yaml"));
  }

  static byte[] expected(String file) {
    return bytes(ROOT.resolve("expected").resolve(file));
  }

  static BundleFiles directory(String name) {
    Path dir = ROOT.resolve(name);
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.filter(Files::isRegularFile)
          .forEach(file -> files.put(dir.relativize(file).toString().replace('\\', '/'), bytes(file)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return BundleFiles.of(files);
  }

  private static String text(String file) {
    return new String(bytes(ROOT.resolve(file)), java.nio.charset.StandardCharsets.UTF_8);
  }

  private static byte[] bytes(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path resource(String name) {
    try {
      return Path.of(GoldenBundle.class.getResource(name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("test resource " + name + " has no file path", e);
    }
  }
}
