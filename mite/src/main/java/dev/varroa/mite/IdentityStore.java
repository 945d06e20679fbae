package dev.varroa.mite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the client key and certificate chain in the identity folder (an in-memory volume only the
 * mite mounts), so a container restart reuses them instead of spending a new bootstrap token.
 */
final class IdentityStore {

  static final String KEY_FILE = "client.key";
  static final String CERTIFICATE_FILE = "client.crt";

  private static final Logger LOG = LoggerFactory.getLogger(IdentityStore.class);

  private final Path dir;

  IdentityStore(Path dir) {
    this.dir = dir;
  }

  Optional<MiteIdentity> load() {
    Path keyFile = dir.resolve(KEY_FILE);
    Path certFile = dir.resolve(CERTIFICATE_FILE);
    try {
      byte[] der = MiteIdentity.Pem.decode("PRIVATE KEY", Files.readString(keyFile, StandardCharsets.US_ASCII));
      PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
      var chain = MiteIdentity.parseChain(Files.readString(certFile, StandardCharsets.US_ASCII));
      return Optional.of(new MiteIdentity(key, chain));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
      LOG.warn("event=identity_unreadable dir={} error={}", dir, e.getClass().getSimpleName());
      return Optional.empty();
    }
  }

  void save(MiteIdentity identity) throws IOException {
    try {
      // key first: a certificate without its key would be unusable, a key without a certificate is ignored
      AtomicFiles.write(dir.resolve(KEY_FILE),
          MiteIdentity.Pem.encode("PRIVATE KEY", identity.key().getEncoded()).getBytes(StandardCharsets.US_ASCII),
          AtomicFiles.OWNER_READ_WRITE);
      AtomicFiles.write(dir.resolve(CERTIFICATE_FILE),
          MiteIdentity.chainPem(identity.chain()).getBytes(StandardCharsets.US_ASCII), AtomicFiles.OWNER_READ_WRITE);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot encode the certificate chain for " + dir, e);
    }
  }
}
