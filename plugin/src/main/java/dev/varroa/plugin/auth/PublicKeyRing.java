package dev.varroa.plugin.auth;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The operator's public keys, read from the mounted PEM file and read again when the file changes,
 * so a rotation (old and new key side by side, then the old one dropped) needs no Jenkins restart.
 * A file that cannot be used refuses every token until it changes; the last good keys are not kept,
 * because a key the operator withdrew must stop working.
 */
public final class PublicKeyRing implements JWKSource<SecurityContext> {

  public static final String KEY_FILE_VARIABLE = "VARROA_JWT_PUBLIC_KEY_FILE";
  public static final Path DEFAULT_KEY_FILE = Path.of("/var/run/varroa-jwt/public.pem");
  /** The file's attributes are looked at no more often than this, whatever the request rate. */
  public static final Duration FILE_CHECK_INTERVAL = Duration.ofSeconds(1);

  private final Path file;
  private final Clock clock;

  // Guarded by this.
  private Instant lastCheck;
  private FileStamp loadedStamp;
  private Loaded loaded;

  public PublicKeyRing(Path file, Clock clock) {
    this.file = file;
    this.clock = clock;
  }

  public static PublicKeyRing fromEnvironment(Map<String, String> env, Clock clock) {
    String configured = env.get(KEY_FILE_VARIABLE);
    Path file = configured == null || configured.isBlank() ? DEFAULT_KEY_FILE : Path.of(configured.strip());
    return new PublicKeyRing(file, clock);
  }

  public Path file() {
    return file;
  }

  /** The current keys; throws with the file, the problem and the fix when the file cannot be used. */
  public synchronized JWKSet keys() throws KeySourceException {
    Instant now = clock.instant();
    if (lastCheck == null || now.isBefore(lastCheck) || !now.isBefore(lastCheck.plus(FILE_CHECK_INTERVAL))) {
      lastCheck = now;
      FileStamp stamp = FileStamp.of(file);
      if (loaded == null || !stamp.equals(loadedStamp)) {
        loadedStamp = stamp;
        loaded = Loaded.from(file);
      }
    }
    return loaded.keysOrThrow();
  }

  /** The RFC 7638 thumbprints of the current keys. */
  public Set<String> keyIds() throws KeySourceException {
    return keys().getKeys().stream().map(JWK::getKeyID).collect(Collectors.toUnmodifiableSet());
  }

  @Override
  public List<JWK> get(JWKSelector selector, SecurityContext context) throws KeySourceException {
    return selector.select(keys());
  }

  /** What identifies one version of the file; a Kubernetes volume update swaps in a new inode. */
  private record FileStamp(FileTime modified, long size, Object fileKey) {
    private static final FileStamp UNREADABLE = new FileStamp(null, -1, null);

    static FileStamp of(Path file) {
      try {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
        return new FileStamp(attributes.lastModifiedTime(), attributes.size(), attributes.fileKey());
      } catch (IOException e) {
        // Loading the file reports the real problem; here it only means "not the version we hold".
        return UNREADABLE;
      }
    }
  }

  /** The outcome of one read of the file: keys, or why there are none. */
  private record Loaded(JWKSet keys, KeySourceException failure) {
    static Loaded from(Path file) {
      try {
        return new Loaded(PemPublicKeys.read(file), null);
      } catch (KeySourceException e) {
        return new Loaded(null, e);
      }
    }

    JWKSet keysOrThrow() throws KeySourceException {
      if (failure != null) {
        throw new KeySourceException(failure.getMessage(), failure);
      }
      return keys;
    }
  }
}
