package dev.varroa.recorder.bus;

import dev.varroa.protocol.bus.BusCredential;
import dev.varroa.protocol.bus.BusCredentialSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The NATS user (VARROA_NATS_USER) and its password file, read again before every connect attempt. */
record NatsPasswordFile(String user, Path passwordFile) implements BusCredentialSource {

  private static final Logger LOG = LoggerFactory.getLogger(NatsPasswordFile.class);

  @Override
  public Optional<BusCredential> read() {
    if (user == null && passwordFile == null) {
      return Optional.empty();
    }
    try {
      String password = passwordFile == null ? "" : Files.readString(passwordFile, StandardCharsets.UTF_8).stripTrailing();
      return Optional.of(new BusCredential(user == null ? "" : user, password));
    } catch (IOException e) {
      // The message names the path, never the content; the attempt then fails auth and is retried.
      LOG.warn("event=nats_credential_unreadable passwordFile={} error=\"{}\"", passwordFile, e.toString());
      return Optional.empty();
    }
  }
}
