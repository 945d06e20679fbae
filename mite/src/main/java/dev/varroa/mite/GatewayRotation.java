package dev.varroa.mite;

import java.util.List;

/** Hands out the gateway endpoints in turn: every (re)connect and registration attempt takes the next one. */
final class GatewayRotation {

  private final List<GatewayEndpoint> endpoints;
  private int next;

  GatewayRotation(List<GatewayEndpoint> endpoints) {
    if (endpoints.isEmpty()) {
      throw new IllegalArgumentException("no gateway endpoint to rotate through");
    }
    this.endpoints = List.copyOf(endpoints);
  }

  synchronized GatewayEndpoint next() {
    GatewayEndpoint endpoint = endpoints.get(next);
    next = (next + 1) % endpoints.size();
    return endpoint;
  }
}
