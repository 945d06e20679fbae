package dev.varroa.bundle.source;

import java.io.EOFException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import javax.net.ssl.SSLException;

/** Turns an exception chain into the one line a user can act on ("connection refused", "unknown host x"). */
final class FailureMessage {
  private FailureMessage() {}

  static String of(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      String specific = specific(t);
      if (specific != null) {
        return specific;
      }
    }
    Throwable deepest = failure;
    while (deepest.getCause() != null && deepest.getCause() != deepest) {
      deepest = deepest.getCause();
    }
    String message = failure.getMessage() != null ? failure.getMessage() : deepest.getMessage();
    return message != null ? message : failure.getClass().getSimpleName();
  }

  private static String specific(Throwable t) {
    if (t instanceof EOFException) {
      return "truncated: unexpected end of data" + detail(t);
    }
    if (t instanceof ConnectException) {
      return "connection refused" + detail(t);
    }
    if (t instanceof UnknownHostException) {
      return "unknown host" + detail(t);
    }
    if (t instanceof NoRouteToHostException) {
      return "no route to host" + detail(t);
    }
    if (t instanceof SocketTimeoutException || t instanceof HttpTimeoutException) {
      return "timed out" + detail(t);
    }
    if (t instanceof SSLException) {
      return "TLS failure" + detail(t);
    }
    return null;
  }

  private static String detail(Throwable t) {
    return t.getMessage() == null || t.getMessage().isBlank() ? "" : " (" + t.getMessage() + ")";
  }
}
