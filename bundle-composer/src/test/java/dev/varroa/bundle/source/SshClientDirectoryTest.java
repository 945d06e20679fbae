package dev.varroa.bundle.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SshClientDirectoryTest {
  @TempDir
  Path scratch;

  @Test
  void keepsKeyMaterialPrivateWhileInUseAndDeletesItOnClose() throws Exception {
    GitCredentials.SshKey key = new GitCredentials.SshKey(
        GitSshServer.openSshPrivateKey(GitSshServer.newKeyPair(), null), null, "[127.0.0.1]:2222 ecdsa-sha2-nistp256 AAAA");

    Path directory;
    try (SshClientDirectory ssh = SshClientDirectory.create(scratch, key, 30)) {
      directory = onlyEntry(scratch);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory))).isEqualTo("rwx------");
      for (String file : List.of("identity", "known_hosts", "config")) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory.resolve(file))))
            .as(file).isEqualTo("rw-------");
      }
      assertThat(Files.readString(directory.resolve("config"))).contains("StrictHostKeyChecking yes")
          .contains("IdentityAgent none").contains("UserKnownHostsFile \"" + directory.resolve("known_hosts") + "\"");
      assertThat(ssh.sessionFactory()).isNotNull();
    }

    assertThat(directory).doesNotExist();
  }

  private static Path onlyEntry(Path folder) throws Exception {
    try (Stream<Path> entries = Files.list(folder)) {
      List<Path> all = entries.toList();
      assertThat(all).hasSize(1);
      return all.get(0);
    }
  }
}
