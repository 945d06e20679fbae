package dev.varroa.bundle.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.InputRef;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TarGzBundleReaderTest {
  private static final Duration HANG_GUARD = Duration.ofSeconds(60);
  private static final String WHERE = "the test archive";
  private static final SourceLimits SMALL = new SourceLimits(1 << 20, 64 << 10, 5, 1 << 20, Duration.ofSeconds(5));

  private final TarGzBundleReader reader = new TarGzBundleReader(SourceLimits.DEFAULTS);

  @Test
  void readsTheFilesUnderPathRerootedThere() throws Exception {
    byte[] archive = TarGzArchive.create()
        .directory("teams/a")
        .file("teams/a/plugins.yaml", "plugins: []")
        .file("teams/a/jcasc/10-base.yaml", "jenkins: {}")
        .file("teams/b/plugins.yaml", "other")
        .file("README.md", "hi")
        .build();

    BundleFiles files = read(reader, archive, "teams/a");

    assertThat(files.files()).containsOnlyKeys("plugins.yaml", "jcasc/10-base.yaml");
    assertThat(new String(files.file("jcasc/10-base.yaml").orElseThrow(), StandardCharsets.UTF_8)).isEqualTo("jenkins: {}");
  }

  @Test
  void readsEveryFileForTheRootAndDropsDotSlashPrefixes() throws Exception {
    byte[] archive = TarGzArchive.create().directory("./").file("./plugins.yaml", "p").file("./jcasc/a.yaml", "a").build();

    assertThat(read(reader, archive, "").files()).containsOnlyKeys("plugins.yaml", "jcasc/a.yaml");
    assertThat(read(reader, archive, ".").files()).containsOnlyKeys("plugins.yaml", "jcasc/a.yaml");
  }

  @ParameterizedTest
  @ValueSource(strings = {"../evil.yaml", "teams/a/../../evil.yaml", "./../evil.yaml"})
  void refusesAnArchiveWithAnEntryThatLeavesItsFolder(String name) {
    byte[] archive = TarGzArchive.create().file("teams/a/ok.yaml", "ok").file(name, "boom").build();

    BundleException e = invalid(reader, archive, "teams/a");

    assertThat(e.getMessage()).contains(name).contains("'..'").contains("refused");
  }

  @Test
  void refusesAnArchiveWithAnAbsolutePath() {
    byte[] archive = TarGzArchive.create().file("/etc/cron.d/evil", "boom").build();

    BundleException e = invalid(reader, archive, "");

    assertThat(e.getMessage()).contains("/etc/cron.d/evil").contains("absolute path");
  }

  @Test
  void refusesASymbolicLinkInsideTheBundleFolder() {
    byte[] archive = TarGzArchive.create().file("shared/plugins.yaml", "p").symlink("teams/a/plugins.yaml",
        "../../shared/plugins.yaml").build();

    BundleException e = invalid(reader, archive, "teams/a");

    assertThat(e.problems().get(0).file()).isEqualTo("plugins.yaml");
    assertThat(e.getMessage()).contains("symbolic link").contains("replace the link with a copy");
  }

  @Test
  void refusesAHardLinkInsideTheBundleFolder() {
    byte[] archive = TarGzArchive.create().file("shared/x.yaml", "x").hardLink("teams/a/x.yaml", "shared/x.yaml").build();

    assertThat(invalid(reader, archive, "teams/a").getMessage()).contains("hard link");
  }

  @Test
  void ignoresLinksOutsideTheBundleFolder() throws Exception {
    byte[] archive = TarGzArchive.create().symlink("elsewhere/link", "/etc/passwd").file("teams/a/x.yaml", "x").build();

    assertThat(read(reader, archive, "teams/a").files()).containsOnlyKeys("x.yaml");
  }

  @Test
  void refusesAFileOverMaxFileBytesNamingTheLimit() {
    char[] big = new char[(64 << 10) + 1];
    Arrays.fill(big, 'x');
    byte[] archive = TarGzArchive.create().file("jcasc/huge.yaml", new String(big)).build();

    BundleException e = invalid(new TarGzBundleReader(SMALL), archive, "");

    assertThat(e.problems().get(0).file()).isEqualTo("jcasc/huge.yaml");
    assertThat(e.getMessage()).contains("maxFileBytes").contains("65536").contains("raise the source limit maxFileBytes");
  }

  @Test
  void refusesMoreFilesThanMaxFiles() {
    TarGzArchive archive = TarGzArchive.create();
    for (int i = 0; i < 6; i++) {
      archive.file("jcasc/" + i + ".yaml", "x: " + i);
    }

    assertThat(invalid(new TarGzBundleReader(SMALL), archive.build(), "").getMessage()).contains("maxFiles").contains("5 files");
  }

  @Test
  void countsSkippedEntriesAgainstMaxTotalBytes() {
    TarGzArchive archive = TarGzArchive.create().file("teams/a/x.yaml", "x");
    for (int i = 0; i < 3; i++) {
      archive.zeros("elsewhere/blob-" + i, 60 << 10);
    }
    SourceLimits tinyTotal = new SourceLimits(1 << 20, 64 << 10, 100, 150 << 10, Duration.ofSeconds(5));

    assertThat(invalid(new TarGzBundleReader(tinyTotal), archive.build(), "teams/a").getMessage())
        .contains("the uncompressed archive exceeds the maxTotalBytes limit");
  }

  @Test
  void refusesACompressedArchiveOverMaxArchiveBytes() {
    Random random = new Random(7);
    TarGzArchive archive = TarGzArchive.create();
    for (int i = 0; i < 10; i++) {
      byte[] noise = new byte[60 << 10];
      random.nextBytes(noise);
      archive.file("jcasc/noise-" + i + ".yaml", new String(noise, StandardCharsets.ISO_8859_1));
    }
    SourceLimits smallArchive = new SourceLimits(256 << 10, 1 << 20, 100, 100 << 20, Duration.ofSeconds(5));

    assertThat(invalid(new TarGzBundleReader(smallArchive), archive.build(), "").getMessage())
        .contains("the compressed archive exceeds the maxArchiveBytes limit of 262144 bytes");
  }

  @Test
  void stopsAGzipBombAtTheFileLimitWithDefaultLimits() {
    byte[] bomb = TarGzArchive.create().zeros("jcasc/bomb.yaml", 1L << 30).build();
    assertThat(bomb.length).isLessThan(4 << 20);

    BundleException e = assertTimeoutPreemptively(HANG_GUARD, () -> invalid(reader, bomb, ""));

    assertThat(e.getMessage()).contains("jcasc/bomb.yaml").contains("maxFileBytes");
  }

  @Test
  void stopsAGzipBombSpreadOverManyFilesAtTheTotalLimit() {
    TarGzArchive archive = TarGzArchive.create();
    for (int i = 0; i < 70; i++) {
      archive.zeros("elsewhere/part-" + i, SourceLimits.DEFAULT_MAX_FILE_BYTES);
    }
    byte[] bomb = archive.build();

    BundleException e = assertTimeoutPreemptively(HANG_GUARD, () -> invalid(reader, bomb, "teams/a"));

    assertThat(e.getMessage()).contains("maxTotalBytes");
  }

  @Test
  void refusesATruncatedArchive() {
    byte[] archive = TarGzArchive.create().zeros("jcasc/a.yaml", 10_000).file("jcasc/b.yaml", "b").build();
    byte[] truncated = Arrays.copyOf(archive, archive.length / 2);

    BundleException e = assertTimeoutPreemptively(HANG_GUARD, () -> invalid(reader, truncated, ""));

    assertThat(e.getMessage()).contains("is not a readable tar.gz archive");
  }

  @Test
  void refusesBytesThatAreNotGzip() {
    byte[] garbage = "this is not an archive at all".getBytes(StandardCharsets.UTF_8);

    assertThat(invalid(reader, garbage, "").getMessage()).contains("is not a readable tar.gz archive");
  }

  @Test
  void refusesRandomBytesWithoutHangingOrLeakingAnException() {
    Random random = new Random(42);
    for (int round = 0; round < 200; round++) {
      byte[] archive = TarGzArchive.create().file("a.yaml", "a: " + round).file("b/c.yaml", "c").build();
      byte[] mangled = archive.clone();
      for (int flips = 0; flips < 1 + random.nextInt(8); flips++) {
        mangled[random.nextInt(mangled.length)] ^= (byte) (1 + random.nextInt(255));
      }
      assertTimeoutPreemptively(HANG_GUARD, () -> {
        try {
          read(reader, mangled, "");
        } catch (BundleException expected) {
          assertThat(expected.kind()).isEqualTo(BundleProblem.Kind.INVALID);
        }
      });
    }
  }

  @Test
  void refusesMangledTarHeadersWithoutHangingOrLeakingAnException() throws Exception {
    byte[] tar;
    try (GZIPInputStream gunzip = new GZIPInputStream(new ByteArrayInputStream(
        TarGzArchive.create().file("jcasc/a.yaml", "a: 1").file("b/c.yaml", "c").symlink("d", "b/c.yaml").build()))) {
      tar = gunzip.readAllBytes();
    }
    Random random = new Random(1234);
    for (int round = 0; round < 500; round++) {
      byte[] mangled = tar.clone();
      for (int flips = 0; flips < 1 + random.nextInt(4); flips++) {
        // Headers live in the first 512 bytes of each entry; aim most flips there.
        int block = random.nextInt(mangled.length / 512) * 512;
        mangled[block + random.nextInt(512)] = (byte) random.nextInt(256);
      }
      byte[] archive = gzip(mangled);
      assertTimeoutPreemptively(HANG_GUARD, () -> {
        try {
          read(reader, archive, "");
        } catch (BundleException expected) {
          assertThat(expected.kind()).isEqualTo(BundleProblem.Kind.INVALID);
        }
      });
    }
  }

  @Test
  void refusesAnArchiveWithoutFilesUnderPathListingWhatIsThere() {
    byte[] archive = TarGzArchive.create().file("teams/a/x.yaml", "x").file("README.md", "r").build();

    BundleException e = invalid(reader, archive, "team/a");

    assertThat(e.getMessage()).contains("folder 'team/a' is missing or empty in the test archive")
        .contains("README.md, teams/").contains("set path to the folder");
  }

  @Test
  void refusesAnEmptyArchive() {
    assertThat(invalid(reader, TarGzArchive.create().build(), "").getMessage()).contains("it holds no files at all");
  }

  @Test
  void keepsTheLastOfTwoEntriesWithTheSamePathAsTarWould() throws Exception {
    byte[] archive = TarGzArchive.create().file("a.yaml", "first").file("a.yaml", "second").build();

    assertThat(read(reader, archive, "").file("a.yaml").map(String::new)).contains("second");
  }

  @Test
  void refusesAPathThatLeavesTheArchive() {
    byte[] archive = TarGzArchive.create().file("a.yaml", "a").build();

    assertThat(invalid(reader, archive, "../outside").getMessage()).contains("path '../outside'");
  }

  private static BundleFiles read(TarGzBundleReader reader, byte[] archive, String path) throws BundleException {
    try (InputStream in = new ByteArrayInputStream(archive)) {
      return reader.read(input(path), in, path, WHERE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static BundleException invalid(TarGzBundleReader reader, byte[] archive, String path) {
    BundleException e = catchThrowableOfType(BundleException.class, () -> read(reader, archive, path));
    assertThat(e).as("the archive should be refused").isNotNull();
    assertThat(e.kind()).isEqualTo(BundleProblem.Kind.INVALID);
    assertThat(e.problems().get(0).input()).isEqualTo(input(path).describe());
    return e;
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(bytes);
    }
    return out.toByteArray();
  }

  private static InputRef input(String path) {
    return Inputs.archive(path);
  }
}
