package dev.varroa.gateway.tls;

import dev.varroa.gateway.ca.CertificateAuthority;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLException;

/**
 * The TLS of the gateway's one port: its server certificate, and client certificates optional
 * (Register has none yet) but verified against the Varroa CA whenever presented.
 */
public final class ServerTls {

  private ServerTls() {
  }

  public static SslContext context(String certificateChainPem, String privateKeyPem, CertificateAuthority ca) {
    try (InputStream chain = stream(certificateChainPem);
        InputStream key = stream(privateKeyPem);
        InputStream trust = stream(ca.certificatePem())) {
      return GrpcSslContexts.forServer(chain, key)
          .trustManager(trust)
          .clientAuth(ClientAuth.OPTIONAL)
          .build();
    } catch (SSLException e) {
      // The key's content is never part of the message; the exception names only what failed.
      throw new IllegalArgumentException("cannot build the gateway's TLS context from its certificate and key: "
          + "check VARROA_TLS_CERT_FILE and VARROA_TLS_KEY_FILE (" + e.getClass().getSimpleName() + ")", e);
    } catch (IOException e) {
      throw new IllegalStateException("reading in-memory PEM failed", e);
    }
  }

  private static InputStream stream(String pem) {
    return new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII));
  }
}
