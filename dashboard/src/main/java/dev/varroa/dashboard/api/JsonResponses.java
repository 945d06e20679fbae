package dev.varroa.dashboard.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.varroa.dashboard.reads.ReadRefused;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes the API's JSON bodies and error bodies; every response says it must not be cached by a proxy. */
public final class JsonResponses {

  /** Times as RFC 3339 text, the API's form everywhere. */
  public static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
      .registerModule(new com.fasterxml.jackson.datatype.jsr310.JavaTimeModule())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

  private JsonResponses() {}

  public static void write(HttpServletResponse response, int status, Object body) throws IOException {
    response.setStatus(status);
    response.setContentType("application/json");
    response.setCharacterEncoding("UTF-8");
    response.setHeader("Cache-Control", "no-store");
    JSON.writeValue(response.getOutputStream(), body);
  }

  public static void refused(HttpServletResponse response, ReadRefused refused) throws IOException {
    write(response, refused.status(), refused.body());
  }

  public static void error(HttpServletResponse response, int status, String error, String message)
      throws IOException {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", error);
    body.put("message", message);
    write(response, status, body);
  }

  /** 401 with the Bearer challenge: the caller sent no session or token, or one that is not valid. */
  public static void unauthenticated(HttpServletResponse response, String message) throws IOException {
    response.setHeader("WWW-Authenticate", "Bearer realm=\"varroa\"");
    error(response, 401, "unauthenticated", message);
  }
}
