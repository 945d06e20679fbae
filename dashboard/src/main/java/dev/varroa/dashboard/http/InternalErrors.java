package dev.varroa.dashboard.http;

import dev.varroa.dashboard.api.JsonResponses;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A failure the BFF did not expect: the client gets a generic 500 with a correlation id, the log gets the exception
 * under that id. Exception text can name hosts, SQL or internal state, so it never goes into an answer.
 */
public final class InternalErrors {

  private static final Logger LOG = LoggerFactory.getLogger(InternalErrors.class);
  public static final String CORRELATION_HEADER = "Varroa-Correlation-Id";

  private InternalErrors() {}

  /** Logs the failure with a new correlation id and, when the response is not committed yet, answers 500. */
  public static String answer(HttpServletRequest request, HttpServletResponse response, Throwable failure)
      throws IOException {
    String id = UUID.randomUUID().toString();
    LOG.error("event=request_failed correlation_id={} method={} path=\"{}\"", id, request.getMethod(),
        request.getRequestURI(), failure);
    if (!response.isCommitted()) {
      response.resetBuffer();
      response.setHeader(CORRELATION_HEADER, id);
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("error", "internal");
      body.put("message", "the BFF failed to answer; its log has the cause under correlation id " + id
          + " (give it to your Varroa operators)");
      body.put("correlationId", id);
      JsonResponses.write(response, 500, body);
    }
    return id;
  }
}
