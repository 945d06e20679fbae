package dev.varroa.updatecenter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.varroa.testfixtures.updatesite.FixturePlugin;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The signed update-center.json passes the check a Jenkins controller makes, and only with the right root. */
class UpdateSiteSignatureTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path storage;

  @Test
  void aControllerTrustingTheCaAcceptsTheSignedUpdateCenter() throws Exception {
    Holdings holdings = holdings(FixturePlugin.of("git", "5.8.0", "credentials:1415.v1", "mailer:488;resolution:=optional"),
        FixturePlugin.of("credentials", "1415.v1"));
    String served = new String(holdings.updateCenterJsonp(), StandardCharsets.UTF_8);

    assertThat(served).startsWith("updateCenter.post(\n").endsWith("\n);");
    assertThatCode(() -> JenkinsSignatureCheck.verify(served, Set.of(TestIdentities.VARROA.ca())))
        .doesNotThrowAnyException();
    assertThatCode(() -> JenkinsSignatureCheck.verify(new String(holdings.updateCenterJson(), StandardCharsets.UTF_8),
        Set.of(TestIdentities.VARROA.ca()))).doesNotThrowAnyException();
  }

  @Test
  void titlesWithQuotesControlCharactersAndNonAsciiStillVerify() throws Exception {
    Holdings holdings = holdings(FixturePlugin.of("odd", "1.0", "Say \"hi\" \\ <b>bold</b>\u0007 — naïve ✓",
        "2.479.3", List.of()));

    assertThatCode(() -> JenkinsSignatureCheck.verify(new String(holdings.updateCenterJsonp(), StandardCharsets.UTF_8),
        Set.of(TestIdentities.VARROA.ca()))).doesNotThrowAnyException();
  }

  @Test
  void aChangedPluginEntryFailsTheDigest() throws Exception {
    Holdings holdings = holdings(FixturePlugin.of("git", "5.8.0"));
    ObjectNode document = (ObjectNode) JSON.readTree(holdings.updateCenterJson());
    ((ObjectNode) document.path("plugins").path("git")).put("url", "https://evil.example.com/git.hpi");

    assertThatThrownBy(() -> JenkinsSignatureCheck.verify(document.toString(), Set.of(TestIdentities.VARROA.ca())))
        .hasMessageContaining("digest mismatch");
  }

  @Test
  void aControllerTrustingAnotherCaRejectsTheCertificatePath() throws Exception {
    Holdings holdings = holdings(FixturePlugin.of("git", "5.8.0"));

    assertThatThrownBy(() -> JenkinsSignatureCheck.verify(new String(holdings.updateCenterJson(), StandardCharsets.UTF_8),
        Set.of(TestIdentities.OTHER.ca()))).hasMessageContaining("certificate path does not validate");
  }

  @Test
  void documentCarriesTheFieldsJenkinsReadsForEachHeldPlugin() throws Exception {
    Holdings holdings = holdings(FixturePlugin.of("git", "5.8.0", "credentials:1415.v1", "mailer:488;resolution:=optional"));
    var document = JSON.readTree(holdings.updateCenterJson());
    var git = document.path("plugins").path("git");

    assertThat(document.path("id").asText()).isEqualTo("default");
    assertThat(document.path("updateCenterVersion").asText()).isEqualTo("1");
    assertThat(document.path("connectionCheckUrl").asText()).isEqualTo("http://uc.test/");
    assertThat(git.path("url").asText()).isEqualTo("http://uc.test/download/plugins/git/5.8.0/git.hpi");
    assertThat(git.path("sha256").asText()).isEqualTo(FixturePlugin.of("git", "5.8.0", "credentials:1415.v1",
        "mailer:488;resolution:=optional").sha256Base64());
    assertThat(git.path("requiredCore").asText()).isEqualTo("2.479.3");
    assertThat(git.path("dependencies").toString())
        .isEqualTo("[{\"name\":\"credentials\",\"version\":\"1415.v1\",\"optional\":false},"
            + "{\"name\":\"mailer\",\"version\":\"488\",\"optional\":true}]");
    assertThat(document.path("signature").path("certificates")).hasSize(1);
  }

  @Test
  void listsTheNewestHeldVersionAndPluginVersionsListsEvery() throws Exception {
    Holdings holdings = holdings(FixturePlugin.of("git", "5.10.0"), FixturePlugin.of("git", "5.9.1"));

    assertThat(JSON.readTree(holdings.updateCenterJson()).path("plugins").path("git").path("version").asText())
        .isEqualTo("5.10.0");
    assertThat(JSON.readTree(holdings.pluginVersionsJson()).path("plugins").path("git").fieldNames())
        .toIterable().containsExactly("5.9.1", "5.10.0");
  }

  private Holdings holdings(FixturePlugin... plugins) throws IOException {
    PluginStore store = new PluginStore(storage);
    for (FixturePlugin plugin : plugins) {
      Path file = store.pathOf(new PluginCoordinates(plugin.id(), plugin.version()));
      Files.createDirectories(file.getParent());
      Files.write(file, plugin.bytes());
    }
    SortedMap<PluginCoordinates, HeldPlugin> held = store.scan().held();
    return Holdings.of(held, new TreeSet<>(held.keySet()), new TreeMap<>(), List.of(), "default", "http://uc.test",
        TestIdentities.VARROA);
  }
}
