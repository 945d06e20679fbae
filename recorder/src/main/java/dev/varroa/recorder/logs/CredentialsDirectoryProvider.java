package dev.varroa.recorder.logs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * S3 credentials from a mounted Secret's files: {@code access-key-id}, {@code secret-access-key} and optionally
 * {@code session-token}. The files are looked at before every request and read again once one of them changed
 * (Kubernetes swaps the whole directory on an update), so a rotated Secret needs no restart.
 */
public final class CredentialsDirectoryProvider implements AwsCredentialsProvider {

  public static final String ACCESS_KEY_ID = "access-key-id";
  public static final String SECRET_ACCESS_KEY = "secret-access-key";
  public static final String SESSION_TOKEN = "session-token";

  private final Path directory;
  private List<String> seenVersion;
  private AwsCredentials current;

  public CredentialsDirectoryProvider(Path directory) {
    this.directory = directory;
  }

  @Override
  public synchronized AwsCredentials resolveCredentials() {
    List<String> version = version();
    if (!version.equals(seenVersion)) {
      current = read();
      seenVersion = version;
    }
    return current;
  }

  // Where each file really is, when it changed and how long it is: any difference means a new Secret.
  private List<String> version() {
    List<String> version = new ArrayList<>(3);
    for (String name : List.of(ACCESS_KEY_ID, SECRET_ACCESS_KEY, SESSION_TOKEN)) {
      Path file = directory.resolve(name);
      try {
        version.add(file.toRealPath() + "@" + Files.getLastModifiedTime(file).toMillis() + "/" + Files.size(file));
      } catch (NoSuchFileException e) {
        version.add("-");
      } catch (IOException e) {
        throw failure("cannot look at " + file + ": " + e, e);
      }
    }
    return version;
  }

  private AwsCredentials read() {
    String accessKeyId = required(ACCESS_KEY_ID);
    String secretAccessKey = required(SECRET_ACCESS_KEY);
    String sessionToken = optional(SESSION_TOKEN);
    return sessionToken == null ? AwsBasicCredentials.create(accessKeyId, secretAccessKey)
        : AwsSessionCredentials.create(accessKeyId, secretAccessKey, sessionToken);
  }

  private String required(String name) {
    String value = optional(name);
    if (value == null) {
      throw failure(directory.resolve(name) + " is missing or empty: mount the Secret of recordStore.blobs.s3.existingSecret "
          + "(keys " + ACCESS_KEY_ID + " and " + SECRET_ACCESS_KEY + ") at " + directory + " ("
          + BlobStoreSettings.S3_CREDENTIALS_DIR + ")", null);
    }
    return value;
  }

  private String optional(String name) {
    Path file = directory.resolve(name);
    try {
      String value = Files.readString(file, StandardCharsets.UTF_8).strip();
      return value.isEmpty() ? null : value;
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      // The message names the file, never its content.
      throw failure("cannot read " + file + ": " + e, e);
    }
  }

  private static SdkClientException failure(String message, Throwable cause) {
    return SdkClientException.builder().message(message).cause(cause).build();
  }

  @Override
  public String toString() {
    return "CredentialsDirectoryProvider[" + directory + "]";
  }
}
