package dev.varroa.protocol.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nats.client.support.Encoding;
import io.nats.client.support.NatsUri;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialReadingServerPoolTest {

  @TempDir
  Path directory;

  @Test
  void readsTheCredentialFilesAgainForEveryConnectAttempt() throws Exception {
    Path user = Files.writeString(directory.resolve("user"), "varroa-gateway\n");
    Path password = Files.writeString(directory.resolve("password"), "first\n");
    CredentialReadingServerPool pool = new CredentialReadingServerPool(List.of("nats://nats.varroa:4222"),
        new BusCredentialFiles(user, password));

    assertThat(decodedUserInfo(pool.nextServer())).isEqualTo("varroa-gateway:first");
    Files.writeString(password, "second");
    assertThat(decodedUserInfo(pool.peekNextServer())).isEqualTo("varroa-gateway:second");
    assertThat(decodedUserInfo(pool.nextServer())).isEqualTo("varroa-gateway:second");
  }

  @Test
  void survivesPasswordsWithUriSyntaxInThem() throws Exception {
    String awkward = "p@ss:w/rd %+?#ä";
    Path user = Files.writeString(directory.resolve("user"), "gw");
    Path password = Files.writeString(directory.resolve("password"), awkward);
    CredentialReadingServerPool pool = new CredentialReadingServerPool(List.of("nats://127.0.0.1:4222"),
        new BusCredentialFiles(user, password));

    NatsUri server = pool.nextServer();

    String raw = server.getUri().getRawUserInfo();
    assertThat(Encoding.uriDecode(raw.substring(raw.indexOf(':') + 1))).isEqualTo(awkward);
    assertThat(server.getHost()).isEqualTo("127.0.0.1");
    assertThat(server.getPort()).isEqualTo(4222);
  }

  @Test
  void keepsCredentialsOutOfTheServerListJnatsPutsInMessages() throws Exception {
    Path user = Files.writeString(directory.resolve("user"), "gw");
    Path password = Files.writeString(directory.resolve("password"), "hunter2");
    CredentialReadingServerPool pool = new CredentialReadingServerPool(List.of("nats://a:4222", "nats://b:4222"),
        new BusCredentialFiles(user, password));

    assertThat(String.join(",", pool.getServerList())).doesNotContain("hunter2").contains("nats://a:4222");
  }

  @Test
  void connectsWithoutCredentialsWhenNoneAreConfigured() {
    CredentialReadingServerPool pool = new CredentialReadingServerPool(List.of("nats://127.0.0.1:4222"),
        BusCredentialFiles.none());

    assertThat(pool.nextServer().getUserInfo()).isNull();
  }

  @Test
  void refusesAUrlThatCarriesCredentials() {
    assertThatThrownBy(() -> new CredentialReadingServerPool(List.of("nats://gw:hunter2@127.0.0.1:4222"),
        BusCredentialFiles.none()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("VARROA_NATS_PASSWORD_FILE")
        .hasMessageNotContaining("hunter2");
  }

  @Test
  void redactsUserInfoFromTextBoundForLogs() {
    assertThat(Redaction.withoutUserInfo("Unable to connect to NATS servers: [nats://gw:hunter2@10.0.0.1:4222]"))
        .isEqualTo("Unable to connect to NATS servers: [nats://***@10.0.0.1:4222]");
  }

  private static String decodedUserInfo(NatsUri uri) {
    String raw = uri.getUri().getRawUserInfo();
    int colon = raw.indexOf(':');
    return Encoding.uriDecode(raw.substring(0, colon)) + ":" + Encoding.uriDecode(raw.substring(colon + 1));
  }
}
