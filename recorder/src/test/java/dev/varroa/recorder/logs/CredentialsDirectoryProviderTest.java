package dev.varroa.recorder.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

class CredentialsDirectoryProviderTest {

  @Test
  void readsTheSecretsFilesAndReadsThemAgainWhenKubernetesSwapsTheDirectory(@TempDir Path dir) throws Exception {
    // The layout the kubelet makes: the keys are links into ..data, itself a link to a timestamped directory.
    Path first = Files.createDirectory(dir.resolve("..2026_01_01"));
    Files.writeString(first.resolve("access-key-id"), "AKFIRST\n");
    Files.writeString(first.resolve("secret-access-key"), "first-secret\n");
    Files.createSymbolicLink(dir.resolve("..data"), first.getFileName());
    Files.createSymbolicLink(dir.resolve("access-key-id"), Path.of("..data/access-key-id"));
    Files.createSymbolicLink(dir.resolve("secret-access-key"), Path.of("..data/secret-access-key"));
    Files.createSymbolicLink(dir.resolve("session-token"), Path.of("..data/session-token"));
    CredentialsDirectoryProvider provider = new CredentialsDirectoryProvider(dir);

    assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("AKFIRST");
    assertThat(provider.resolveCredentials().secretAccessKey()).isEqualTo("first-secret");

    Path second = Files.createDirectory(dir.resolve("..2026_02_01"));
    Files.writeString(second.resolve("access-key-id"), "AKSECOND");
    Files.writeString(second.resolve("secret-access-key"), "second-secret");
    Files.writeString(second.resolve("session-token"), "token-2");
    Path swap = Files.createSymbolicLink(dir.resolve("..data_tmp"), second.getFileName());
    Files.move(swap, dir.resolve("..data"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);

    var rotated = provider.resolveCredentials();
    assertThat(rotated.accessKeyId()).isEqualTo("AKSECOND");
    assertThat(rotated).isInstanceOf(AwsSessionCredentials.class);
    assertThat(((AwsSessionCredentials) rotated).sessionToken()).isEqualTo("token-2");
  }

  @Test
  void namesTheMissingFileAndTheChartValue(@TempDir Path dir) {
    assertThatThrownBy(() -> new CredentialsDirectoryProvider(dir).resolveCredentials())
        .hasMessageContaining(dir.resolve("access-key-id").toString())
        .hasMessageContaining("recordStore.blobs.s3.existingSecret");
  }
}
