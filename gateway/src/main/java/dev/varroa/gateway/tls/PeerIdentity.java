package dev.varroa.gateway.tls;

import dev.varroa.protocol.ControllerIdentity;
import io.grpc.Context;
import java.time.Instant;

/**
 * Who is on the other end of a MiteChannel call, as its verified client certificate says.
 *
 * @param certificatePem that certificate (PEM, leaf only): the routes publish it so the operator can seal to its key
 */
public record PeerIdentity(ControllerIdentity controller, Instant certificateNotAfter, String certificatePem) {

  static final Context.Key<PeerIdentity> CONTEXT_KEY = Context.key("varroa-peer-identity");

  /** The peer of the current gRPC call; only set behind {@link PeerIdentityInterceptor}. */
  public static PeerIdentity current() {
    PeerIdentity peer = CONTEXT_KEY.get();
    if (peer == null) {
      throw new IllegalStateException("no peer identity in this call: the service must be wrapped by "
          + "PeerIdentityInterceptor");
    }
    return peer;
  }
}
