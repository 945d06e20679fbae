package dev.varroa.benchmarks.channel;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import java.net.InetSocketAddress;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;

/**
 * Opens the channels thousands of played mites hold to one gateway, on one shared Netty event loop
 * group and one small callback pool: each mite still needs a channel of its own, since each presents
 * its own client certificate.
 */
public final class GatewayDialer implements AutoCloseable {

  private final InetSocketAddress gateway;
  private final X509Certificate trustedCa;
  private final EventLoopGroup eventLoops;
  private final ExecutorService callbacks;

  public GatewayDialer(InetSocketAddress gateway, X509Certificate trustedCa, int eventLoopThreads,
      int callbackThreads) {
    this.gateway = gateway;
    this.trustedCa = trustedCa;
    this.eventLoops = new NioEventLoopGroup(eventLoopThreads, daemon("mite-netty"));
    this.callbacks = Executors.newFixedThreadPool(callbackThreads, daemon("mite-callback"));
  }

  /** Server-authenticated TLS: what a mite has before it registers. */
  public ManagedChannel serverTls() {
    return open(GrpcSslContexts.forClient().trustManager(trustedCa));
  }

  /** Mutual TLS with the mite's issued chain and key. */
  public ManagedChannel mutualTls(PrivateKey key, X509Certificate[] chain) {
    return open(GrpcSslContexts.forClient().trustManager(trustedCa).keyManager(key, chain));
  }

  private ManagedChannel open(SslContextBuilder tls) {
    try {
      return NettyChannelBuilder.forAddress(gateway)
          .eventLoopGroup(eventLoops)
          .channelType(NioSocketChannel.class)
          .executor(callbacks)
          .sslContext(tls.build())
          .build();
    } catch (SSLException e) {
      throw new IllegalStateException("cannot build the client TLS context", e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    callbacks.shutdownNow();
    eventLoops.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
  }

  private static ThreadFactory daemon(String prefix) {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
