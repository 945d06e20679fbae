package dev.varroa.benchmarks.bundle;

import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jgit.api.Git;

/** Writes one input's repository: fragments with own keys, a shared key later inputs override, a cloud list. */
public final class BenchmarkRepository {
  private BenchmarkRepository() {}

  /** @return the bytes of JCasC YAML written */
  public static long create(Path dir, int input, int fragments) throws Exception {
    Files.createDirectories(dir.resolve("jcasc"));
    long bytes = 0;
    for (int f = 0; f < fragments; f++) {
      StringBuilder yaml = new StringBuilder("jenkins:\n  systemMessage: \"input ").append(input).append("\"\n");
      yaml.append("  clouds:\n    - kubernetes:\n        name: k8s-").append(input).append('\n')
          .append("        namespace: jobs-").append(input).append('\n');
      yaml.append("unclassified:\n  input").append(input).append(":\n    fragment").append(f).append(":\n");
      for (int k = 0; yaml.length() < 1000; k++) {
        yaml.append("      key").append(k).append(": \"value ").append(input).append('-').append(f).append('-')
            .append(k).append("\"\n");
      }
      bytes += yaml.length();
      Files.writeString(dir.resolve(String.format("jcasc/%02d-fragment.yaml", f)), yaml.toString());
    }
    try (Git git = Git.init().setDirectory(dir.toFile()).setInitialBranch("main").call()) {
      git.add().addFilepattern(".").call();
      git.commit().setMessage("fragments").setAuthor("bench", "bench@varroa.dev")
          .setCommitter("bench", "bench@varroa.dev").call();
    }
    return bytes;
  }
}
