package dev.varroa.bundle.source;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;

/** Builds tar.gz archives in memory for tests, including hostile ones (escaping paths, links, bombs). */
final class TarGzArchive {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final TarArchiveOutputStream tar;

  private TarGzArchive() {
    try {
      tar = new TarArchiveOutputStream(new GzipCompressorOutputStream(bytes));
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static TarGzArchive create() {
    return new TarGzArchive();
  }

  TarGzArchive file(String name, String content) {
    byte[] data = content.getBytes(StandardCharsets.UTF_8);
    return entry(new TarArchiveEntry(name, true), data.length, out -> out.write(data));
  }

  TarGzArchive directory(String name) {
    return entry(new TarArchiveEntry(name.endsWith("/") ? name : name + "/", true), 0, out -> { });
  }

  TarGzArchive symlink(String name, String target) {
    TarArchiveEntry entry = new TarArchiveEntry(name, TarConstants.LF_SYMLINK, true);
    entry.setLinkName(target);
    return entry(entry, 0, out -> { });
  }

  TarGzArchive hardLink(String name, String target) {
    TarArchiveEntry entry = new TarArchiveEntry(name, TarConstants.LF_LINK, true);
    entry.setLinkName(target);
    return entry(entry, 0, out -> { });
  }

  /** A file of {@code size} zero bytes, streamed: a gzip bomb costs no memory to build. */
  TarGzArchive zeros(String name, long size) {
    return entry(new TarArchiveEntry(name, true), size, out -> {
      byte[] chunk = new byte[1 << 20];
      for (long left = size; left > 0; left -= chunk.length) {
        out.write(chunk, 0, (int) Math.min(chunk.length, left));
      }
    });
  }

  byte[] build() {
    try {
      tar.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  private TarGzArchive entry(TarArchiveEntry entry, long size, Content content) {
    try {
      entry.setSize(size);
      tar.putArchiveEntry(entry);
      content.writeTo(tar);
      tar.closeArchiveEntry();
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
