package dev.varroa.gateway.bus;

/** NATS user and password as read from their files; {@link #toString()} never shows the password. */
record BusCredential(String user, String password) {

  @Override
  public String toString() {
    return "BusCredential[user=" + user + ", password=***]";
  }
}
