package dev.varroa.cli.updatecenter;

import dev.varroa.cli.input.InvalidInputException;
import dev.varroa.updatecenter.HeldPlugin;
import dev.varroa.updatecenter.PluginStore;
import dev.varroa.updatecenter.archive.PluginArchive;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** `varroactl updatecenter import`: an exported archive, checked, into an update center's storage. */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description = {
        "Inside the air gap: checks every plugin of an archive against its manifest's SHA-256 and, only when all"
            + " match, stores them: into a storage folder (--into) or into a running update center (--server, with"
            + " the import token from its signing Secret). A damaged archive imports nothing.",
        "Exit codes: 0 imported, 2 invalid input (a damaged or truncated archive, a refused token, an"
            + " unreachable server)."})
public final class UpdateCenterImportCommand implements Callable<Integer> {
  /** The environment variable holding the import token when --token-file is not given. */
  public static final String ENV_IMPORT_TOKEN = "VARROA_UC_IMPORT_TOKEN";
  static final Duration UPLOAD_TIMEOUT = Duration.ofMinutes(30);

  @Parameters(index = "0", paramLabel = "ARCHIVE", description = "The file `varroactl updatecenter export` wrote.")
  Path archive;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  static final class Target {
    @Option(names = "--into", paramLabel = "DIR",
        description = "The update center's storage folder (its volume, mounted here): plugins/<id>/<version>/<id>.hpi.")
    Path into;

    @Option(names = "--server", paramLabel = "URL",
        description = "A running update center, e.g. http://localhost:8080 through `kubectl port-forward`.")
    URI server;
  }

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "File with the import token (the import-token key of the UpdateCenter's signing Secret); default: $"
          + ENV_IMPORT_TOKEN + ".")
  Path tokenFile;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (!Files.isRegularFile(archive)) {
      throw new InvalidInputException(archive + ": no such file; fix: give the archive `varroactl updatecenter export`"
          + " wrote");
    }
    List<String> imported = target.into != null ? intoFolder() : intoServer();
    var out = spec.commandLine().getOut();
    imported.forEach(p -> out.println("  " + p));
    out.printf("imported %d plugins from %s into %s%n", imported.size(), archive,
        target.into != null ? target.into : target.server);
    out.flush();
    return 0;
  }

  private List<String> intoFolder() {
    try (InputStream in = Files.newInputStream(archive)) {
      return PluginArchive.importInto(in, archive.toString(), new PluginStore(target.into)).stream()
          .map(HeldPlugin::coordinates).map(Object::toString).toList();
    } catch (IOException e) {
      throw new InvalidInputException(e.getMessage());
    }
  }

  private List<String> intoServer() {
    String token = token();
    URI endpoint = URI.create(target.server.toString().replaceAll("/+$", "") + "/import");
    HttpResponse<String> response;
    try {
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      response = http.send(HttpRequest.newBuilder(endpoint).timeout(UPLOAD_TIMEOUT)
          .header("Authorization", "Bearer " + token).header("Content-Type", "application/x-tar")
          .POST(HttpRequest.BodyPublishers.ofFile(archive)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new InvalidInputException("cannot reach the update center at " + endpoint + ": " + e
          + "; fix: check --server (e.g. after `kubectl port-forward -n <operator-namespace> svc/varroa-uc-<name>"
          + " 8080:80`, use http://localhost:8080)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InvalidInputException("interrupted while uploading " + archive);
    }
    String body = response.body().strip();
    switch (response.statusCode()) {
      case 200 -> {
        return java.util.stream.StreamSupport.stream(read(body).path("imported").spliterator(), false)
            .map(n -> n.asText()).toList();
      }
      case 401 -> throw new InvalidInputException("the update center at " + target.server + " refused the import token;"
          + " fix: use the import-token key of the UpdateCenter's signing Secret (--token-file or $" + ENV_IMPORT_TOKEN
          + ")");
      default -> throw new InvalidInputException("the update center at " + target.server + " refused the import (HTTP "
          + response.statusCode() + "): " + body);
    }
  }

  private String token() {
    try {
      if (tokenFile != null) {
        String token = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
        if (!token.isEmpty()) {
          return token;
        }
        throw new InvalidInputException("--token-file " + tokenFile + " is empty");
      }
    } catch (NoSuchFileException e) {
      throw new InvalidInputException("--token-file " + tokenFile + ": no such file");
    } catch (IOException e) {
      throw new InvalidInputException("--token-file " + tokenFile + ": " + e.getMessage());
    }
    String token = System.getenv(ENV_IMPORT_TOKEN);
    if (token == null || token.isBlank()) {
      throw new InvalidInputException("--server needs the import token: give --token-file FILE or set $"
          + ENV_IMPORT_TOKEN + " (kubectl get secret -n <operator-namespace> varroa-uc-<name>-signing"
          + " -o jsonpath='{.data.import-token}' | base64 -d)");
    }
    return token.strip();
  }

  private static com.fasterxml.jackson.databind.JsonNode read(String body) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(body);
    } catch (IOException e) {
      throw new InvalidInputException("the update center answered something that is not JSON: " + body);
    }
  }
}
