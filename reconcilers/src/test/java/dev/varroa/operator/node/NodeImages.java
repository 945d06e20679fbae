package dev.varroa.operator.node;

import dev.varroa.testfixtures.ProjectLayout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The images the real node runs, as `make images` and the test image scripts pushed them to the loopback registry:
 * Varroa's ({@code <registry>/varroa/<name>:<tag>}) and the test images ({@code <registry>/varroa-test/<name>:<tag>},
 * tags from test-fixtures/images/test-images.tsv), never shipped, standing in for what this machine cannot pull.
 */
record NodeImages(String registry, String productTag, Map<String, String> testTags) {
  static final Path CACHE = Path.of(System.getenv().getOrDefault("VARROA_CACHE",
      Path.of(System.getProperty("user.home"), ".cache", "varroa").toString()));

  /** What the caches say was pushed; fails naming the command that pushes what is missing. */
  static NodeImages pushed() {
    Path images = CACHE.resolve("images");
    String registry = read(images.resolve("registry"), "make images");
    String operator = read(images.resolve("images/operator/pushed"), "make images");
    String productTag = operator.substring(operator.lastIndexOf(':') + 1);
    Map<String, String> testTags = new TreeMap<>();
    for (String[] row : table("test-fixtures/images/test-images.tsv")) {
      if (row.length >= 2) {
        testTags.put(row[0], row[1]);
      }
    }
    String standIn = read(images.resolve("images/jenkins-standin/pushed"), "test-fixtures/images/jenkins-standin.sh");
    testTags.put("jenkins", standIn.substring(standIn.lastIndexOf(':') + 1));
    return new NodeImages(registry, productTag, testTags);
  }

  /** Every image the install runs: Varroa's and the test images. */
  List<String> all() {
    List<String> all = new ArrayList<>();
    table("bin/images/images.tsv").forEach(row -> all.add(product(row[0])));
    testTags.keySet().forEach(name -> all.add(test(name)));
    return all;
  }

  /**
   * Pushes each of Varroa's images again under another tag (skopeo copy, registry to registry): a new image reference
   * for every component, as a release would bring, without building the images again. Returns the images under it.
   */
  NodeImages retagged(String tag) {
    for (String[] row : table("bin/images/images.tsv")) {
      String from = product(row[0]);
      String to = registry + "/varroa/" + row[0] + ":" + tag;
      Process copy;
      try {
        copy = new ProcessBuilder("skopeo", "copy", "--quiet", "--src-tls-verify=false", "--dest-tls-verify=false",
            "docker://" + from, "docker://" + to).redirectErrorStream(true).start();
        String output = new String(copy.getInputStream().readAllBytes());
        if (copy.waitFor() != 0) {
          throw new IllegalStateException("skopeo copy " + from + " " + to + " failed: " + output);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot run skopeo to copy " + from, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted copying " + from, e);
      }
    }
    return new NodeImages(registry, tag, testTags);
  }

  String product(String name) {
    return registry + "/varroa/" + name + ":" + productTag;
  }

  String testRepository(String name) {
    return registry + "/varroa-test/" + name;
  }

  String test(String name) {
    String tag = testTags.get(name);
    if (tag == null) {
      throw new IllegalStateException("no test image " + name + " in test-fixtures/images/test-images.tsv");
    }
    return testRepository(name) + ":" + tag;
  }

  /** The rows of one of the image tables (images.tsv, test-images.tsv): whitespace-separated, # comments. */
  private static List<String[]> table(String relativePath) {
    try {
      return Files.readAllLines(ProjectLayout.root().resolve(relativePath)).stream()
          .filter(line -> !line.isBlank() && !line.startsWith("#")).map(line -> line.trim().split("\\s+")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + relativePath, e);
    }
  }

  private static String read(Path file, String pushedBy) {
    try {
      return Files.readString(file).trim();
    } catch (IOException e) {
      throw new IllegalStateException("nothing pushed yet (" + file + " is missing): run `" + pushedBy + "` first", e);
    }
  }
}
