package dev.varroa.mite;

/** One gateway address from VARROA_GATEWAY_ENDPOINT. */
public record GatewayEndpoint(String host, int port) {

  public GatewayEndpoint {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("gateway endpoint needs a host");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("gateway endpoint port " + port + " is not in 1-65535");
    }
  }

  /** Parses {@code host:port} or {@code [ipv6]:port}. */
  public static GatewayEndpoint parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException("'" + text + "' is not host:port (e.g. varroa-gateway.varroa-system.svc:9090)");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    try {
      return new GatewayEndpoint(host, Integer.parseInt(text.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' has no numeric port (e.g. varroa-gateway.varroa-system.svc:9090)");
    }
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
