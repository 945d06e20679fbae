package dev.varroa.testfixtures.oidc;

import dev.varroa.testfixtures.ClassScopedFixtureExtension;
import dev.varroa.testfixtures.process.LocalProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The OpenID provider's child process and its users file; closing stops one and deletes the other. */
public final class OidcProviderProcess implements ClassScopedFixtureExtension.Running<OidcProvider> {

  /** The version test-fixtures/oidc/install.sh builds. */
  public static final String VERSION = "3.52.0";
  private static final Duration READY_DEADLINE = Duration.ofSeconds(30);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  private final OidcProvider provider;
  private final LocalProcess process;
  private final ThrowawayDirectory directory;

  private OidcProviderProcess(OidcProvider provider, LocalProcess process, ThrowawayDirectory directory) {
    this.provider = provider;
    this.process = process;
    this.directory = directory;
  }

  /**
   * Starts the provider on a free port with these users, accepting these redirect URIs for its clients. The issuer
   * names localhost, as the example server builds it.
   */
  public static OidcProviderProcess start(List<OidcProvider.User> users, List<String> redirectUris)
      throws InterruptedException {
    Path binary = installDirectory().resolve("bin").resolve("server");
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException("the OpenID provider is not built: " + binary + " is missing; run "
          + "test-fixtures/oidc/install.sh (make deps)");
    }
    ThrowawayDirectory directory = ThrowawayDirectory.create("varroa-oidc-");
    int port = LoopbackPort.pickFree();
    Path usersFile = directory.resolve("users.json");
    try {
      Files.writeString(usersFile, usersJson(users));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + usersFile, e);
    }
    OidcProvider provider = new OidcProvider("http://localhost:" + port + "/", port, List.copyOf(users));
    List<String> command = new ArrayList<>(List.of("env", "PORT=" + port, "USERS_FILE=" + usersFile,
        "REDIRECT_URI=" + String.join(",", redirectUris), binary.toString()));
    LocalProcess process = LocalProcess.start("oidc-provider", command, directory.resolve("oidc-provider.log"),
        READY_DEADLINE, () -> discoveryAnswers(port));
    return new OidcProviderProcess(provider, process, directory);
  }

  // Ready once discovery answers on loopback; the issuer's host name is localhost.
  private static boolean discoveryAnswers(int port) throws IOException, InterruptedException {
    HttpResponse<Void> response = HTTP.send(HttpRequest.newBuilder(
            URI.create("http://" + LoopbackPort.HOST + ":" + port + "/.well-known/openid-configuration"))
        .timeout(Duration.ofSeconds(2)).build(),
        HttpResponse.BodyHandlers.discarding());
    return response.statusCode() == 200;
  }

  // The example server's users file: a JSON object of id -> user, field names as its Go struct spells them.
  static String usersJson(List<OidcProvider.User> users) {
    StringBuilder json = new StringBuilder("{");
    for (int i = 0; i < users.size(); i++) {
      OidcProvider.User user = users.get(i);
      json.append(i == 0 ? "" : ",").append(quote(user.id())).append(":{\"ID\":").append(quote(user.id()))
          .append(",\"Username\":").append(quote(user.username()))
          .append(",\"Password\":").append(quote(user.password()))
          .append(",\"FirstName\":").append(quote(user.username()))
          .append(",\"LastName\":\"\",\"Email\":").append(quote(user.email()))
          .append(",\"EmailVerified\":true,\"Phone\":\"\",\"PhoneVerified\":false,\"PreferredLanguage\":\"en\","
              + "\"IsAdmin\":false}");
    }
    return json.append("}").toString();
  }

  private static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /** Where install.sh puts the server: ${VARROA_CACHE:-~/.cache/varroa}/oidc/v&lt;version&gt;. */
  static Path installDirectory() {
    String cache = System.getenv("VARROA_CACHE");
    Path root = cache == null || cache.isBlank()
        ? Path.of(System.getProperty("user.home"), ".cache", "varroa") : Path.of(cache);
    return root.resolve("oidc").resolve("v" + VERSION);
  }

  @Override
  public OidcProvider value() {
    return provider;
  }

  @Override
  public void close() throws InterruptedException {
    process.close();
    directory.close();
  }

  @Override
  public String toString() {
    return provider.issuer() + " " + process;
  }
}
