package dev.varroa.mite;

import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** One HTTP answer from Jenkins: status, body text, the X-Jenkins version header when sent, and every header. */
record JenkinsAnswer(int status, String contentType, String body, Optional<String> jenkinsVersion,
    HttpHeaders headers) {

  private static final HttpHeaders NONE = HttpHeaders.of(Map.of(), (name, value) -> true);

  JenkinsAnswer(int status, String contentType, String body, Optional<String> jenkinsVersion) {
    this(status, contentType, body, jenkinsVersion, NONE);
  }

  boolean ok() {
    return status >= 200 && status < 300;
  }

  boolean redirect() {
    return status >= 300 && status < 400;
  }

  boolean json() {
    return contentType.toLowerCase(Locale.ROOT).contains("json");
  }

  /** Jenkins.SESSION_HASH (X-Jenkins-Session, on API answers): new with every Jenkins start; empty when not sent. */
  String jenkinsSession() {
    return headers.firstValue("X-Jenkins-Session").orElse("");
  }

  /** The values of one header, in order (e.g. X-Required-Permission on a 403). */
  List<String> header(String name) {
    return headers.allValues(name);
  }
}
