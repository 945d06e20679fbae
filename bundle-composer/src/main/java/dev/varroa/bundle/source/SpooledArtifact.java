package dev.varroa.bundle.source;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * A downloaded archive or blob in a temporary file, with the SHA-256 and size of the bytes actually
 * received. Spooling to disk keeps memory flat, and lets the digest be checked before anything is unpacked.
 * Closing deletes the file.
 */
final class SpooledArtifact implements AutoCloseable {
  private final Path file;
  private final String digest;
  private final long size;

  private SpooledArtifact(Path file, String digest, long size) {
    this.file = file;
    this.digest = digest;
    this.size = size;
  }

  /** Copies {@code in} to a temporary file; more than {@code maxBytes} is a {@link LimitExceededException}. */
  static SpooledArtifact spool(InputStream in, long maxBytes, String what) throws IOException {
    Spool spool = new Spool(maxBytes, what);
    try {
      byte[] buffer = new byte[64 * 1024];
      int n;
      while ((n = in.read(buffer)) >= 0) {
        spool.write(ByteBuffer.wrap(buffer, 0, n));
      }
      return spool.finish();
    } catch (IOException | RuntimeException e) {
      spool.discard();
      throw e;
    }
  }

  /** "sha256:<64 hex>" of the received bytes. */
  String digest() {
    return digest;
  }

  long size() {
    return size;
  }

  InputStream open() throws IOException {
    return Files.newInputStream(file);
  }

  @Override
  public void close() throws IOException {
    Files.deleteIfExists(file);
  }

  /** Writes bytes to a temporary file while hashing and counting them; thread-safe for the HTTP subscriber. */
  static final class Spool {
    private final long maxBytes;
    private final String what;
    private final Path file;
    private final OutputStream out;
    private final MessageDigest sha256;
    private long count;
    private boolean done;

    Spool(long maxBytes, String what) throws IOException {
      this.maxBytes = maxBytes;
      this.what = what;
      this.file = Files.createTempFile("varroa-artifact-", ".blob");
      this.out = Files.newOutputStream(file);
      this.sha256 = Sha256.newDigest();
    }

    synchronized void write(ByteBuffer bytes) throws IOException {
      if (done) {
        return;
      }
      int n = bytes.remaining();
      if (count + n > maxBytes) {
        throw new LimitExceededException(what, "maxArchiveBytes", maxBytes, null);
      }
      count += n;
      byte[] chunk = new byte[n];
      bytes.get(chunk);
      sha256.update(chunk);
      out.write(chunk);
    }

    synchronized SpooledArtifact finish() throws IOException {
      done = true;
      out.close();
      return new SpooledArtifact(file, "sha256:" + HexFormat.of().formatHex(sha256.digest()), count);
    }

    /** Gives up: closes and deletes the file; later writes are ignored. */
    synchronized void discard() {
      done = true;
      try {
        out.close();
        Files.deleteIfExists(file);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot delete the temporary download " + file, e);
      }
    }
  }
}
