package dev.varroa.gateway;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLException;

/** Client channels to a gateway on loopback, as a mite opens them. */
final class Channels {

  private Channels() {
  }

  /** Server-authenticated TLS only: what a mite has before it registers. */
  static ManagedChannel serverTls(int port, String trustedCaPem) {
    return open(port, trustedCaPem, null, null);
  }

  /** Mutual TLS with a client certificate chain and its key. */
  static ManagedChannel mutualTls(int port, String trustedCaPem, String chainPem, String keyPem) {
    return open(port, trustedCaPem, chainPem, keyPem);
  }

  private static ManagedChannel open(int port, String trustedCaPem, String chainPem, String keyPem) {
    try {
      SslContextBuilder tls = GrpcSslContexts.forClient().trustManager(stream(trustedCaPem));
      if (chainPem != null) {
        tls.keyManager(stream(chainPem), stream(keyPem));
      }
      return NettyChannelBuilder.forAddress("localhost", port).sslContext(tls.build()).build();
    } catch (SSLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static InputStream stream(String pem) {
    return new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII));
  }
}
