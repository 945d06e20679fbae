package dev.varroa.operator.hibernation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.protocol.mite.v1.Header;
import dev.varroa.protocol.mite.v1.ReplayDelivery;
import com.google.protobuf.ByteString;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A webhook delivery the waker received while its controller was parked, as it is kept in a Secret (the body may
 * carry a signature and the headers a token) until the mite replays it to Jenkins.
 *
 * @param method the HTTP method, e.g. POST
 * @param path the raw path and query on Jenkins, e.g. /github-webhook/
 * @param headers the sender's headers in arrival order, without those of the connection
 * @param body the body, byte for byte
 * @param receivedAt when the waker received it
 */
public record KeptDelivery(String method, String path, List<Header> headers, byte[] body, Instant receivedAt) {
  static final String METHOD_KEY = "method";
  static final String PATH_KEY = "path";
  static final String HEADERS_KEY = "headers";
  static final String BODY_KEY = "body";
  private static final ObjectMapper JSON = new ObjectMapper();

  public KeptDelivery {
    headers = List.copyOf(headers);
    Objects.requireNonNull(body, "body");
  }

  /** The Secret's data. */
  Map<String, String> data() {
    List<List<String>> pairs = headers.stream().map(h -> List.of(h.getName(), h.getValue())).toList();
    try {
      return Map.of(METHOD_KEY, base64(method.getBytes(StandardCharsets.UTF_8)),
          PATH_KEY, base64(path.getBytes(StandardCharsets.UTF_8)),
          HEADERS_KEY, base64(JSON.writeValueAsBytes(pairs)),
          BODY_KEY, base64(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a list of header pairs always writes as JSON", e);
    }
  }

  /** The delivery a Secret of the waker holds; throws naming the Secret and the key when it is not one. */
  static KeptDelivery of(Secret secret) {
    String name = secret.getMetadata().getNamespace() + "/" + secret.getMetadata().getName();
    Map<String, String> data = secret.getData() == null ? Map.of() : secret.getData();
    try {
      List<List<String>> pairs = JSON.readValue(decoded(data, HEADERS_KEY, name), new TypeReference<>() {});
      List<Header> headers = pairs.stream().map(p -> {
        if (p.size() != 2) {
          throw new IllegalArgumentException("Secret " + name + " key " + HEADERS_KEY + " holds a header that is not a"
              + " [name, value] pair");
        }
        return Header.newBuilder().setName(p.get(0)).setValue(p.get(1)).build();
      }).toList();
      return new KeptDelivery(new String(decoded(data, METHOD_KEY, name), StandardCharsets.UTF_8),
          new String(decoded(data, PATH_KEY, name), StandardCharsets.UTF_8), headers, decoded(data, BODY_KEY, name),
          WakeRequests.receivedAt(secret));
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("Secret " + name + " key " + HEADERS_KEY + " is not a JSON list of header"
          + " pairs: " + e.getMessage(), e);
    }
  }

  /** The path without its query. */
  String pathOnly() {
    int query = path.indexOf('?');
    return query < 0 ? path : path.substring(0, query);
  }

  /** A POST at a webhook route: the only kind the waker keeps, and the only kind replayed into Jenkins. */
  boolean replayable() {
    return "POST".equals(method) && ReplayableRoutes.replayable(pathOnly());
  }

  /** The command the mite sends to Jenkins over localhost. */
  ReplayDelivery replay() {
    return ReplayDelivery.newBuilder().setMethod(method).setPath(path).addAllHeaders(headers)
        .setBody(ByteString.copyFrom(body)).build();
  }

  private static byte[] decoded(Map<String, String> data, String key, String secret) {
    String value = data.get(key);
    if (value == null) {
      throw new IllegalArgumentException("Secret " + secret + " has no key " + key + "; it is not a delivery the"
          + " waker kept (delete it)");
    }
    return Base64.getDecoder().decode(value);
  }

  private static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }
}
