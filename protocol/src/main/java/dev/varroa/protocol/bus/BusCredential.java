package dev.varroa.protocol.bus;

/** A NATS user and password; {@link #toString()} never shows the password. */
public record BusCredential(String user, String password) {

  @Override
  public String toString() {
    return "BusCredential[user=" + user + ", password=***]";
  }
}
