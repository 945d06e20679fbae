package dev.varroa.updatecenter.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.testfixtures.updatesite.FixturePlugin;
import dev.varroa.testfixtures.updatesite.UpdateSiteFixture;
import dev.varroa.updatecenter.PluginCoordinates;
import dev.varroa.updatecenter.PluginStore;
import dev.varroa.updatecenter.UpstreamSite;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Export from a real upstream on loopback, import into a storage folder; a damaged archive imports nothing. */
class PluginArchiveTest {
  private static final FixturePlugin GIT = FixturePlugin.of("git", "5.8.0");
  private static final FixturePlugin CREDENTIALS = FixturePlugin.of("credentials", "1415.v1");
  @TempDir Path work;
  private UpdateSiteFixture upstream;

  @BeforeEach
  void startUpstream() {
    upstream = UpdateSiteFixture.start(GIT, CREDENTIALS);
  }

  @AfterEach
  void stopUpstream() {
    upstream.close();
  }

  @Test
  void exportsTheWantedVersionsAndImportsThemIntoTheStorageLayout() throws Exception {
    Path archive = export("git:5.8.0", "credentials:1415.v1");

    assertThat(PluginArchive.manifest(archive)).extracting(e -> e.plugin().toString())
        .containsExactly("credentials:1415.v1", "git:5.8.0");
    PluginStore store = new PluginStore(work.resolve("storage"));
    try (InputStream in = Files.newInputStream(archive)) {
      PluginArchive.importInto(in, "plugins.tar", store);
    }
    assertThat(Files.readAllBytes(work.resolve("storage/plugins/git/5.8.0/git.hpi"))).isEqualTo(GIT.bytes());
    assertThat(store.scan().held()).containsOnlyKeys(new PluginCoordinates("git", "5.8.0"),
        new PluginCoordinates("credentials", "1415.v1"));
  }

  @Test
  void theChecksumsFileListsEveryPluginForSha256sum() throws Exception {
    Path archive = export("git:5.8.0");
    String listing;
    try (InputStream in = Files.newInputStream(archive);
        var tar = new org.apache.commons.compress.archivers.tar.TarArchiveInputStream(in)) {
      assertThat(tar.getNextEntry().getName()).isEqualTo(PluginArchive.MANIFEST);
      assertThat(tar.getNextEntry().getName()).isEqualTo(PluginArchive.CHECKSUMS);
      listing = new String(tar.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(listing).isEqualTo(PluginArchive.manifest(archive).get(0).sha256() + "  plugins/git/5.8.0/git.hpi\n");
  }

  @Test
  void refusesAnArchiveWithADamagedPluginNamingItAndImportsNothing() throws Exception {
    Path archive = export("credentials:1415.v1", "git:5.8.0");
    flipByteInside(archive, GIT.bytes());
    PluginStore store = new PluginStore(work.resolve("storage"));

    assertThatThrownBy(() -> {
      try (InputStream in = Files.newInputStream(archive)) {
        PluginArchive.importInto(in, "plugins.tar", store);
      }
    }).isInstanceOf(CorruptArchiveException.class)
        .hasMessageContaining("plugins.tar: plugin git 5.8.0")
        .hasMessageContaining("fix: copy the archive again")
        .hasMessageContaining("Nothing was imported");
    assertThat(store.scan().held()).isEmpty();
  }

  @Test
  void refusesATruncatedArchive() throws Exception {
    Path archive = export("credentials:1415.v1", "git:5.8.0");
    byte[] bytes = Files.readAllBytes(archive);
    Path cut = Files.write(work.resolve("cut.tar"), Arrays.copyOf(bytes, bytes.length / 2));

    assertThatThrownBy(() -> {
      try (InputStream in = Files.newInputStream(cut)) {
        PluginArchive.importInto(in, "cut.tar", new PluginStore(work.resolve("storage")));
      }
    }).isInstanceOf(CorruptArchiveException.class).hasMessageContaining("cut.tar").hasMessageContaining("fix:");
  }

  @Test
  void exportRefusesAVersionTheUpstreamDoesNotList() {
    assertThatThrownBy(() -> export("git:9.9.9"))
        .isInstanceOf(PluginExport.ExportException.class)
        .hasMessageContaining("does not list git 9.9.9")
        .hasMessageContaining("fix:");
    assertThat(work.resolve("plugins.tar")).doesNotExist();
  }

  @Test
  void exportRefusesADownloadWhoseSha256DiffersFromTheUpstreamsAndWritesNothing() {
    upstream.corrupt(GIT);

    assertThatThrownBy(() -> export("git:5.8.0"))
        .isInstanceOf(PluginExport.ExportException.class)
        .hasMessageContaining("git 5.8.0").hasMessageContaining("sha256");
    assertThat(work.resolve("plugins.tar")).doesNotExist();
  }

  private Path export(String... plugins) throws Exception {
    Path archive = work.resolve("plugins.tar");
    TreeSet<PluginCoordinates> wanted = new TreeSet<>();
    Arrays.stream(plugins).map(PluginCoordinates::parse).forEach(wanted::add);
    new PluginExport(new UpstreamSite(upstream.updateCenterUrl(), Optional.empty())).export(wanted, archive);
    return archive;
  }

  /** Damages one byte in the middle of a plugin's stored bytes, as a bad copy would. */
  private static void flipByteInside(Path archive, byte[] plugin) throws Exception {
    int at = indexOf(Files.readAllBytes(archive), plugin);
    assertThat(at).as("the plugin's bytes are stored in the archive").isNotNegative();
    try (RandomAccessFile file = new RandomAccessFile(archive.toFile(), "rw")) {
      file.seek(at + plugin.length / 2);
      int b = file.read();
      file.seek(at + plugin.length / 2);
      file.write(b ^ 0x01);
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

}
