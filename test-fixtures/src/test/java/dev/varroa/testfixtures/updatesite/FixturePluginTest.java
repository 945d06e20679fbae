package dev.varroa.testfixtures.updatesite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import org.junit.jupiter.api.Test;

class FixturePluginTest {
  @Test
  void aPluginBuiltTwiceHasTheSameBytesAndItsManifest() throws Exception {
    FixturePlugin plugin = FixturePlugin.of("git", "5.8.0", "credentials:1415.v1");

    assertThat(FixturePlugin.of("git", "5.8.0", "credentials:1415.v1").sha256Base64()).isEqualTo(plugin.sha256Base64());
    List<JarEntry> entries = new ArrayList<>();
    try (JarInputStream jar = new JarInputStream(new ByteArrayInputStream(plugin.bytes()))) {
      assertThat(jar.getManifest().getMainAttributes().getValue("Plugin-Dependencies")).isEqualTo("credentials:1415.v1");
      for (JarEntry entry = jar.getNextJarEntry(); entry != null; entry = jar.getNextJarEntry()) {
        entries.add(entry);
      }
    }
    assertThat(entries).extracting(JarEntry::getName).containsExactly("WEB-INF/lib/git.jar");
    assertThat(entries).allSatisfy(entry -> assertThat(entry.getTimeLocal()).isEqualTo(FixturePlugin.ENTRY_TIME));
  }
}
