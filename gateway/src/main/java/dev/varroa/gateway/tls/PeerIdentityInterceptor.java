package dev.varroa.gateway.tls;

import dev.varroa.protocol.ControllerIdentity;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.security.cert.Certificate;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admits a call only with a client certificate the TLS layer verified against the Varroa CA, whose
 * single URI SAN is a controller identity. The identity never comes from anything the mite sends.
 */
public final class PeerIdentityInterceptor implements ServerInterceptor {

  private static final Logger LOG = LoggerFactory.getLogger(PeerIdentityInterceptor.class);
  private static final int SAN_URI = 6;

  private final Clock clock;

  public PeerIdentityInterceptor(Clock clock) {
    this.clock = clock;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    PeerIdentity peer;
    try {
      peer = identify(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION));
    } catch (UnauthenticatedPeerException e) {
      LOG.warn("event=stream_refused reason=unauthenticated remote={} detail=\"{}\"",
          call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR), e.getMessage());
      call.close(Status.UNAUTHENTICATED.withDescription(e.getMessage()), new Metadata());
      return new ServerCall.Listener<>() {
      };
    }
    return Contexts.interceptCall(Context.current().withValue(PeerIdentity.CONTEXT_KEY, peer), call, headers, next);
  }

  private PeerIdentity identify(SSLSession session) throws UnauthenticatedPeerException {
    if (session == null) {
      throw new UnauthenticatedPeerException("the stream needs TLS with a client certificate: register first and "
          + "connect with the issued certificate");
    }
    Certificate[] chain;
    try {
      chain = session.getPeerCertificates();
    } catch (SSLPeerUnverifiedException e) {
      throw new UnauthenticatedPeerException("no client certificate was presented: register first and connect with "
          + "the issued certificate");
    }
    if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
      throw new UnauthenticatedPeerException("the client certificate is not an X.509 certificate");
    }
    Instant notAfter = leaf.getNotAfter().toInstant();
    if (!clock.instant().isBefore(notAfter)) {
      throw new UnauthenticatedPeerException("the client certificate expired at " + notAfter
          + ": register again with a new bootstrap token");
    }
    return new PeerIdentity(controllerOf(leaf), notAfter, pem(leaf));
  }

  private static String pem(X509Certificate leaf) throws UnauthenticatedPeerException {
    try {
      return "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'})
          .encodeToString(leaf.getEncoded()) + "\n-----END CERTIFICATE-----\n";
    } catch (CertificateEncodingException e) {
      throw new UnauthenticatedPeerException("the client certificate cannot be encoded: " + e.getMessage());
    }
  }

  private static ControllerIdentity controllerOf(X509Certificate leaf) throws UnauthenticatedPeerException {
    Collection<List<?>> names;
    try {
      names = leaf.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      throw new UnauthenticatedPeerException("the client certificate's subject alternative names are unreadable");
    }
    List<String> uris = new ArrayList<>();
    int others = 0;
    for (List<?> name : names == null ? List.<List<?>>of() : names) {
      if (name.get(0) instanceof Integer type && type == SAN_URI) {
        uris.add(String.valueOf(name.get(1)));
      } else {
        others++;
      }
    }
    if (uris.size() != 1 || others != 0) {
      throw new UnauthenticatedPeerException("the client certificate must carry exactly one subject alternative "
          + "name, the controller identity URI; it carries " + uris.size() + " URI and " + others + " other names");
    }
    try {
      return ControllerIdentity.parse(uris.get(0));
    } catch (IllegalArgumentException e) {
      throw new UnauthenticatedPeerException(e.getMessage());
    }
  }

  private static final class UnauthenticatedPeerException extends Exception {

    private static final long serialVersionUID = 1L;

    UnauthenticatedPeerException(String message) {
      super(message);
    }
  }
}
