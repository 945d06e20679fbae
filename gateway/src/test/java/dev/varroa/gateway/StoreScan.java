package dev.varroa.gateway;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Looks for bytes in every file under a directory: the JetStream store, to prove what never reached it. */
public final class StoreScan {

  private StoreScan() {
  }

  public static boolean finds(Path directory, byte[] needle) {
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(Files::isRegularFile).anyMatch(file -> fileContains(file, needle));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean fileContains(Path file, byte[] needle) {
    byte[] content;
    try {
      content = Files.readAllBytes(file);
    } catch (IOException vanished) {
      // The server compacts and removes block files while we read.
      return false;
    }
    outer:
    for (int i = 0; i + needle.length <= content.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (content[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }
}
