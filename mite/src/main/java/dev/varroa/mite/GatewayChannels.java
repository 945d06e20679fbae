package dev.varroa.mite;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Builds gRPC channels to a gateway. Registration trusts only the Varroa CA file and has no client
 * certificate; the stream adds the mite's certificate (mutual TLS). One event-loop thread serves all
 * channels: the mite holds one stream at a time.
 */
final class GatewayChannels implements AutoCloseable {

  /** The mite sends small messages; anything bigger than this from a gateway is a bug, not a bundle. */
  static final int MAX_INBOUND_MESSAGE_BYTES = 16 * 1024 * 1024;
  /**
   * Finds a gateway that vanished without closing the connection. Five minutes is the least a gRPC
   * server permits by default (permitKeepAliveTime); pinging more often gets the stream closed.
   */
  static final Duration KEEPALIVE_TIME = Duration.ofMinutes(5);
  static final Duration KEEPALIVE_TIMEOUT = Duration.ofSeconds(20);

  private final Path caFile;
  private final EventLoopGroup eventLoop = new NioEventLoopGroup(1, daemonThreads("mite-grpc-io"));

  GatewayChannels(Path caFile) {
    this.caFile = caFile;
  }

  /** Server-authenticated TLS: the gateway must present a certificate the CA file vouches for. */
  ManagedChannel registration(GatewayEndpoint endpoint) throws IOException {
    return build(endpoint, GrpcSslContexts.forClient().trustManager(caFileAsFile()));
  }

  /** Mutual TLS with the mite's client certificate. */
  ManagedChannel stream(GatewayEndpoint endpoint, MiteIdentity identity) throws IOException {
    SslContextBuilder tls = GrpcSslContexts.forClient()
        .trustManager(caFileAsFile())
        .keyManager(identity.key(), identity.chain().toArray(new X509Certificate[0]));
    return build(endpoint, tls);
  }

  private ManagedChannel build(GatewayEndpoint endpoint, SslContextBuilder tls) throws IOException {
    SslContext context;
    try {
      context = tls.build();
    } catch (IllegalArgumentException | IOException e) {
      // the CA file is read here: name it, the content is a certificate and not a secret, but keep it out anyway
      throw new IOException("cannot use the CA file " + caFile + " for TLS: " + e.getClass().getSimpleName(), e);
    }
    return NettyChannelBuilder.forAddress(endpoint.host(), endpoint.port())
        .eventLoopGroup(eventLoop)
        .channelType(NioSocketChannel.class)
        .sslContext(context)
        .maxInboundMessageSize(MAX_INBOUND_MESSAGE_BYTES)
        .keepAliveTime(KEEPALIVE_TIME.toMillis(), TimeUnit.MILLISECONDS)
        .keepAliveTimeout(KEEPALIVE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
        .disableRetry()
        .build();
  }

  private File caFileAsFile() throws IOException {
    File file = caFile.toFile();
    if (!file.isFile() || !file.canRead()) {
      throw new IOException("the CA file " + caFile + " is missing or unreadable (VARROA_CA_FILE)");
    }
    return file;
  }

  @Override
  public void close() {
    eventLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  static ThreadFactory daemonThreads(String name) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
