package dev.varroa.benchmarks.channel;

import com.google.protobuf.ByteString;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.ProtocolVersion;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.Heartbeat;
import dev.varroa.protocol.builds.v1.LogChunkBatch;
import dev.varroa.protocol.builds.v1.LogChunkBatchAck;
import dev.varroa.protocol.mite.v1.Hello;
import dev.varroa.protocol.mite.v1.LogAppend;
import dev.varroa.protocol.mite.v1.MiteChannelGrpc;
import dev.varroa.protocol.mite.v1.MiteMessage;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.protocol.mite.v1.RegisterRequest;
import dev.varroa.protocol.mite.v1.RegisterResponse;
import dev.varroa.protocol.mite.v1.RegistrationGrpc;
import dev.varroa.protocol.mite.v1.Welcome;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;

/**
 * One mite played over the real protocol, and nothing more: a P-256 key and CSR, Register over TLS,
 * then one MiteChannel stream over mTLS with Hello and a heartbeat whenever {@link #heartbeat()} is
 * called. It never answers commands (the fleet benchmark sends none).
 */
public final class SimulatedMite {

  public static final String MITE_VERSION = "fleet-benchmark";
  private static final Duration CALL_DEADLINE = Duration.ofSeconds(60);

  private final ControllerIdentity identity;
  private final KeyPair keys;
  private final CompletableFuture<Welcome> welcome = new CompletableFuture<>();
  private final CompletableFuture<Status> closed = new CompletableFuture<>();
  private X509Certificate[] chain;
  private ManagedChannel channel;
  private StreamObserver<MiteMessage> outbound;
  private long sequence;
  private long appends;
  private final Map<String, CompletableFuture<LogChunkBatchAck>> pendingAppends = new ConcurrentHashMap<>();

  public SimulatedMite(ControllerIdentity identity) {
    this.identity = identity;
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      this.keys = generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no P-256", e);
    }
  }

  public ControllerIdentity identity() {
    return identity;
  }

  /** Trades the bootstrap token and a CSR for a client certificate, on a channel of its own, closed after. */
  public void register(GatewayDialer dialer, String bootstrapToken) {
    ManagedChannel registration = dialer.serverTls();
    try {
      RegisterResponse response = RegistrationGrpc.newBlockingStub(registration)
          .withDeadlineAfter(CALL_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
          .register(RegisterRequest.newBuilder()
              .setProtocolVersion(ProtocolVersion.CURRENT)
              .setBootstrapToken(bootstrapToken)
              .setController(identity.toRef())
              .setCsrDer(ByteString.copyFrom(csrDer()))
              .setMiteVersion(MITE_VERSION)
              .build());
      chain = parseChain(response.getCertificateChainPem());
    } finally {
      registration.shutdownNow();
    }
  }

  /**
   * Opens the stream with the issued certificate and sends Hello; returns once the Welcome arrived.
   * {@code onClose} runs once if the stream ends later, with how it ended.
   */
  public Welcome connect(GatewayDialer dialer, Consumer<Status> onClose)
      throws InterruptedException, TimeoutException {
    if (chain == null) {
      throw new IllegalStateException(identity.routeKey() + " is not registered");
    }
    channel = dialer.mutualTls(keys.getPrivate(), chain);
    closed.thenAccept(onClose);
    synchronized (this) {
      outbound = MiteChannelGrpc.newStub(channel).connect(new StreamObserver<>() {
        @Override
        public void onNext(GatewayMessage message) {
          if (message.hasWelcome()) {
            welcome.complete(message.getWelcome());
          } else if (message.hasLogAppendAnswer()) {
            CompletableFuture<LogChunkBatchAck> waiting =
                pendingAppends.remove(message.getLogAppendAnswer().getRequestId());
            if (waiting != null) {
              waiting.complete(message.getLogAppendAnswer().getAck());
            }
          }
        }

        @Override
        public void onError(Throwable error) {
          end(Status.fromThrowable(error));
        }

        @Override
        public void onCompleted() {
          end(Status.OK);
        }
      });
      outbound.onNext(MiteMessage.newBuilder().setHello(Hello.newBuilder()
          .setProtocolVersion(ProtocolVersion.CURRENT)
          .setMiteVersion(MITE_VERSION)
          .setPodName(identity.name() + "-0")
          .setObserved(ObservedState.newBuilder().setJenkinsReachable(true).setJenkinsVersion("2.555.2")))
          .build());
    }
    Welcome answer;
    try {
      answer = welcome.get(CALL_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException(identity.routeKey() + ": connect failed", e.getCause());
    }
    if (answer == null) {
      throw new IllegalStateException(identity.routeKey() + ": the gateway ended the stream before its Welcome: "
          + closed.getNow(null));
    }
    return answer;
  }

  /** Sends the next heartbeat; false once the stream is closed. */
  public synchronized boolean heartbeat() {
    if (closed.isDone() || outbound == null) {
      return false;
    }
    outbound.onNext(MiteMessage.newBuilder().setHeartbeat(Heartbeat.newBuilder()
        .setSequence(++sequence)
        .setSentAtEpochMillis(System.currentTimeMillis()))
        .build());
    return true;
  }

  /** Sends console log chunks as the mite forwards them; completes with the gateway's acks, or exceptionally when the stream ends. */
  public CompletableFuture<LogChunkBatchAck> appendLog(LogChunkBatch batch) {
    CompletableFuture<LogChunkBatchAck> answer = new CompletableFuture<>();
    synchronized (this) {
      if (closed.isDone() || outbound == null) {
        answer.completeExceptionally(new IllegalStateException(identity.routeKey() + ": the stream is closed"));
        return answer;
      }
      String requestId = Long.toString(++appends);
      pendingAppends.put(requestId, answer);
      outbound.onNext(MiteMessage.newBuilder().setLogAppend(LogAppend.newBuilder()
          .setRequestId(requestId).setBatch(batch)).build());
    }
    return answer;
  }

  public boolean isOpen() {
    return welcome.isDone() && welcome.getNow(null) != null && !closed.isDone();
  }

  /** Ends the stream from the mite's side and drops the channel. */
  public void close() {
    synchronized (this) {
      if (outbound != null && !closed.isDone()) {
        try {
          outbound.onCompleted();
        } catch (RuntimeException alreadyGone) {
          // The transport is gone; the channel is dropped below either way.
        }
      }
    }
    if (channel != null) {
      channel.shutdownNow();
    }
  }

  private void end(Status status) {
    welcome.complete(null);
    closed.complete(status);
    pendingAppends.values().forEach(waiting -> waiting.completeExceptionally(
        new IllegalStateException(identity.routeKey() + ": the stream ended: " + status)));
  }

  private byte[] csrDer() {
    try {
      return new JcaPKCS10CertificationRequestBuilder(new X500Name("CN=" + identity.name()), keys.getPublic())
          .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate()))
          .getEncoded();
    } catch (OperatorCreationException | IOException e) {
      throw new IllegalStateException("cannot build the CSR of " + identity.routeKey(), e);
    }
  }

  private X509Certificate[] parseChain(String pem) {
    try {
      return CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))
          .stream().map(X509Certificate.class::cast).toArray(X509Certificate[]::new);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the gateway answered " + identity.routeKey() + " with an unreadable chain", e);
    }
  }
}
