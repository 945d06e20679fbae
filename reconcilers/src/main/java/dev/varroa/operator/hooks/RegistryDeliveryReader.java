package dev.varroa.operator.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.Headers;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a distribution registry's notification envelope sent to /hooks/registry. The registry proves
 * itself with the header its configuration adds: {@code Authorization: Bearer <secret>}.
 */
public final class RegistryDeliveryReader {
  private static final String BEARER = "Bearer ";
  private static final String PUSH = "push";

  private RegistryDeliveryReader() {}

  public static Verdict read(Headers headers, byte[] body, byte[] secret) {
    String authorization = headers.getFirst("Authorization");
    if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return new Verdict.Refused("registry notification without 'Authorization: Bearer <secret>'; fix: set"
          + " notifications.endpoints[].headers.Authorization to [Bearer <the shared secret>]");
    }
    if (!DeliveryAuthentication.tokenMatches(secret, authorization.substring(BEARER.length()).strip())) {
      return new Verdict.Refused("the bearer token does not match; fix: set the registry's Authorization header"
          + " to Bearer and the value of the shared Secret");
    }
    try {
      RegistryPush push = parse(PayloadJson.read(null, body));
      return push.tags().isEmpty() ? new Verdict.Ignored("no manifest pushed under a tag; nothing re-checked")
          : new Verdict.Accepted(push);
    } catch (MalformedPayloadException e) {
      return new Verdict.Malformed("registry notification: " + e.getMessage());
    }
  }

  /** Manifest pushes under a tag; blob pushes, pushes by digest, pulls and deletes say nothing a tag follows. */
  static RegistryPush parse(JsonNode root) throws MalformedPayloadException {
    JsonNode events = root.path("events");
    if (!events.isArray()) {
      throw new MalformedPayloadException("field 'events' is missing or not an array; expected the envelope"
          + " {\"events\":[...]} of application/vnd.docker.distribution.events.v1+json");
    }
    List<RegistryPush.PushedTag> tags = new ArrayList<>();
    int index = 0;
    for (JsonNode event : events) {
      Optional<String> tag = PayloadJson.text(event, "target.tag");
      if (PUSH.equals(event.path("action").asText()) && tag.isPresent()) {
        String field = "events[" + index + "]";
        String repository = PayloadJson.text(event, "target.repository").orElseThrow(() -> new MalformedPayloadException(
            field + ".target.repository is missing or not a string; expected the repository of the pushed tag"));
        String host = PayloadJson.text(event, "request.host").or(() -> hostOf(PayloadJson.text(event, "target.url")))
            .orElseThrow(() -> new MalformedPayloadException(field + " has neither 'request.host' nor 'target.url';"
                + " expected the registry host the tag was pushed to"));
        tags.add(new RegistryPush.PushedTag(host, repository, tag.get(), PayloadJson.text(event, "target.digest").orElse("")));
      }
      index++;
    }
    return new RegistryPush(tags);
  }

  /** The ids of the envelope's events, each unique to one event; none when the body is no envelope. */
  static List<String> eventIds(byte[] body) {
    List<String> ids = new ArrayList<>();
    try {
      for (JsonNode event : PayloadJson.read(null, body).path("events")) {
        PayloadJson.text(event, "id").ifPresent(ids::add);
      }
    } catch (MalformedPayloadException e) {
      // an accepted delivery was parsed already; a body that is no envelope has no ids to remember
    }
    return ids;
  }

  private static Optional<String> hostOf(Optional<String> url) {
    try {
      return url.map(URI::create).map(URI::getRawAuthority);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
