package dev.varroa.protocol.bus;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the NATS user and password live (a mounted Secret). They are read again for every connect
 * attempt, so a rotated password takes effect at the next reconnect without a restart.
 */
public record BusCredentialFiles(String user, Path userFile, Path passwordFile) implements BusCredentialSource {

  public BusCredentialFiles(Path userFile, Path passwordFile) {
    this(null, userFile, passwordFile);
  }

  private static final Logger LOG = LoggerFactory.getLogger(BusCredentialFiles.class);

  public static BusCredentialFiles none() {
    return new BusCredentialFiles(null, null, null);
  }

  public boolean configured() {
    return user != null || userFile != null || passwordFile != null;
  }

  /** The current credential; empty when none is configured or a file cannot be read (the attempt then fails auth). */
  @Override
  public Optional<BusCredential> read() {
    if (!configured()) {
      return Optional.empty();
    }
    try {
      String name = user != null ? user : userFile == null ? "" : firstLine(userFile);
      String password = passwordFile == null ? "" : firstLine(passwordFile);
      return Optional.of(new BusCredential(name, password));
    } catch (IOException e) {
      // The message of a file-system exception names the path, never the content.
      LOG.warn("event=nats_credential_unreadable userFile={} passwordFile={} error=\"{}\"", userFile, passwordFile, e);
      return Optional.empty();
    }
  }

  // Secret files often end with a newline that is not part of the value.
  private static String firstLine(Path file) throws IOException {
    String content = Files.readString(file, StandardCharsets.UTF_8);
    int end = content.length();
    while (end > 0 && (content.charAt(end - 1) == '\n' || content.charAt(end - 1) == '\r')) {
      end--;
    }
    return content.substring(0, end);
  }
}
