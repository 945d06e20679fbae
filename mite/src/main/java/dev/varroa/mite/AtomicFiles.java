package dev.varroa.mite;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/** Writes a file so readers see the old content or the new one, never a half-written file. */
final class AtomicFiles {

  /** Temp files start with this; Jenkins' JCasC loader only reads *.yml and *.yaml, so it never sees them. */
  static final String TEMP_PREFIX = ".varroa-";
  static final Set<PosixFilePermission> OWNER_READ_WRITE = PosixFilePermissions.fromString("rw-------");
  static final Set<PosixFilePermission> OWNER_READ = PosixFilePermissions.fromString("r--------");
  static final Set<PosixFilePermission> WORLD_READABLE = PosixFilePermissions.fromString("rw-r--r--");

  private AtomicFiles() {
  }

  static void write(Path target, byte[] content, Set<PosixFilePermission> mode) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    // created owner-only, so no other user can open it between create and chmod
    Path temp = Files.createTempFile(dir, TEMP_PREFIX, ".tmp", PosixFilePermissions.asFileAttribute(OWNER_READ_WRITE));
    try {
      try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer buffer = ByteBuffer.wrap(content);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      Files.setPosixFilePermissions(temp, mode);
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }
}
