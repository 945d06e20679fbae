package dev.varroa.benchmarks.latency;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A GitHub-style push delivery to the operator's receiver: {@code X-GitHub-Event: push}, the body signed
 * in {@code X-Hub-Signature-256} (HMAC-SHA256 of the exact body bytes with the shared secret, hex), and a
 * JSON body naming the branch ({@code ref}), the new commit ({@code after}) and the repository's
 * {@code clone_url}, which is how the receiver finds the bundles that follow it.
 */
public final class WebhookTrigger implements CommitTrigger {

  /** Where the operator's receiver takes Git push notifications. */
  public static final String PATH = "/hooks/git";
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
  private static final String HMAC = "HmacSHA256";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Optional<URI> receiver;
  private final String secret;
  private final String branch;
  private final String cloneUrl;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(REQUEST_TIMEOUT).build();
  private String before = "0".repeat(40);

  /**
   * @param receiver the receiver's URL, {@code http://host:port/hooks/git}; empty while the operator has none
   * @param cloneUrl exactly the URL the ComposedBundle's Git input names
   */
  public WebhookTrigger(Optional<URI> receiver, String secret, String branch, String cloneUrl) {
    this.receiver = receiver;
    this.secret = secret;
    this.branch = branch;
    this.cloneUrl = cloneUrl;
  }

  @Override
  public Optional<String> unavailable() {
    return receiver.isPresent() ? Optional.empty() : Optional.of("no webhook receiver to post to");
  }

  @Override
  public void fire(String commitId) throws IOException, InterruptedException {
    URI to = receiver.orElseThrow(() -> new IllegalStateException(unavailable().orElseThrow()));
    byte[] body = body(commitId);
    HttpRequest request = HttpRequest.newBuilder(to)
        .timeout(REQUEST_TIMEOUT)
        .header("Content-Type", "application/json")
        .header("X-GitHub-Event", "push")
        .header("X-GitHub-Delivery", UUID.randomUUID().toString())
        .header("X-Hub-Signature-256", signature(secret, body))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
        .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() / 100 != 2) {
      throw new IOException("the webhook receiver at " + to + " answered " + response.statusCode() + ": "
          + response.body().strip());
    }
    before = commitId;
  }

  /** The push event's body, the fields a receiver reads of GitHub's push payload. */
  byte[] body(String commitId) throws JsonProcessingException {
    Map<String, Object> repository = new LinkedHashMap<>();
    repository.put("clone_url", cloneUrl);
    Map<String, Object> push = new LinkedHashMap<>();
    push.put("ref", "refs/heads/" + branch);
    push.put("before", before);
    push.put("after", commitId);
    push.put("repository", repository);
    return JSON.writeValueAsBytes(push);
  }

  /** {@code sha256=} and the lowercase hex HMAC-SHA256 of {@code body} keyed with the UTF-8 bytes of {@code secret}. */
  static String signature(String secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), HMAC));
      return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("this JVM cannot compute " + HMAC, e);
    }
  }
}
