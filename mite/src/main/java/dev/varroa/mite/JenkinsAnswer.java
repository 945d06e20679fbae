package dev.varroa.mite;

import java.util.Locale;
import java.util.Optional;

/** One HTTP answer from Jenkins: status, body text, and the X-Jenkins version header when sent. */
record JenkinsAnswer(int status, String contentType, String body, Optional<String> jenkinsVersion) {

  boolean ok() {
    return status >= 200 && status < 300;
  }

  boolean redirect() {
    return status >= 300 && status < 400;
  }

  boolean json() {
    return contentType.toLowerCase(Locale.ROOT).contains("json");
  }
}
