package dev.varroa.protocol.http;

import java.net.SocketTimeoutException;

/** A read from the client (a body, or the rest of one the server drains) outlived its deadline; the connection is closed. */
final class ClientTimeoutException extends SocketTimeoutException {
  ClientTimeoutException(String message) {
    super(message);
  }
}
