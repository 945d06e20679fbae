package dev.varroa.cli.bff;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

/**
 * varroactl's config folder, {@code ${XDG_CONFIG_HOME:-~/.config}/varroa}, and its {@code config.json}. The file
 * holds a bearer token: the folder is 700 and the file 600, written whole through a temporary file.
 */
public record ConfigFolder(Path folder) {

  public static final String FILE = "config.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The folder the environment names: XDG_CONFIG_HOME when set (and absolute), else HOME/.config. */
  public static ConfigFolder of(Map<String, String> env) {
    String xdg = env.get("XDG_CONFIG_HOME");
    Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg)
        : Path.of(Optional.ofNullable(env.get("HOME")).filter(h -> !h.isBlank())
            .orElse(System.getProperty("user.home")), ".config");
    return new ConfigFolder(base.resolve("varroa"));
  }

  public Path file() {
    return folder.resolve(FILE);
  }

  public Optional<StoredLogin> read() {
    Path file = file();
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try {
      JsonNode node = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
      return Optional.of(new StoredLogin(URI.create(node.path("server").asText()), node.path("idToken").asText(),
          Instant.parse(node.path("expiry").asText()), node.path("issuer").asText()));
    } catch (IOException | IllegalArgumentException | DateTimeParseException e) {
      throw BffFailure.local(file + " cannot be read (" + e.getMessage() + "); fix: run varroactl login again");
    }
  }

  public void write(StoredLogin login) {
    ObjectNode node = JSON.createObjectNode();
    node.put("server", login.server().toString());
    node.put("idToken", login.idToken());
    node.put("expiry", login.expiry().toString());
    node.put("issuer", login.issuer());
    try {
      Files.createDirectories(folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
      Path temp = Files.createTempFile(folder, ".config", ".json",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(temp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node) + "\n",
          StandardCharsets.UTF_8);
      Files.move(temp, file(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw BffFailure.local("cannot write " + file() + ": " + e.getMessage());
    }
  }
}
