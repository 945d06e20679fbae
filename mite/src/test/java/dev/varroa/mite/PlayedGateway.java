package dev.varroa.mite;

import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.gateway.ca.ClientCertificate;
import dev.varroa.gateway.ca.IssuedCertificate;
import dev.varroa.gateway.tls.ServerTls;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.ProtocolVersion;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.EventKey;
import dev.varroa.protocol.mite.v1.ClaimAnswer;
import dev.varroa.protocol.mite.v1.ClaimAsk;
import dev.varroa.protocol.mite.v1.EventsAcknowledged;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import dev.varroa.protocol.mite.v1.LogAppend;
import dev.varroa.protocol.mite.v1.LogAppendAnswer;
import dev.varroa.protocol.mite.v1.MiteChannelGrpc;
import dev.varroa.protocol.mite.v1.MiteMessage;
import dev.varroa.protocol.mite.v1.PipelineCallAsk;
import dev.varroa.protocol.mite.v1.PipelineCallReply;
import dev.varroa.protocol.mite.v1.Welcome;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A gRPC server in the test that plays the gateway's side of the mite stream over mutual TLS with a test CA:
 * it welcomes every Hello and acknowledges events, answers claims and answers log appends only as the test tells
 * it. The real gateway's event and claim handling lives on another branch, its log writer on a third (issue 12);
 * this one follows the mite.proto contract.
 */
final class PlayedGateway implements AutoCloseable {

  private final CertificateAuthority ca;
  private final Path caFile;
  private final Server server;
  private final List<MiteMessage> received = new CopyOnWriteArrayList<>();
  private final AtomicInteger welcomes = new AtomicInteger();
  private volatile StreamObserver<GatewayMessage> current;
  private volatile boolean autoAck;
  private volatile Function<ClaimAsk, Optional<ClaimAnswer>> claims = ask -> Optional.empty();
  private volatile Function<LogAppend, Optional<LogAppendAnswer>> logs = append -> Optional.empty();
  private volatile Function<PipelineCallAsk, Optional<PipelineCallReply>> pipelineCalls = ask -> Optional.empty();
  private volatile JenkinsToken jenkinsToken;

  PlayedGateway(Path dir) throws IOException {
    caFile = dir.resolve("played-ca.crt");
    ca = CertificateAuthority.createFiles(caFile, dir.resolve("played-ca.key"));
    IssuedCertificate tls = ca.issueServerCertificate(List.of("localhost"), List.of("127.0.0.1"), Duration.ofDays(1));
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .sslContext(ServerTls.context(tls.certificateChainPem(), tls.privateKeyPem(), ca))
        .addService(new Channel())
        .build()
        .start();
  }

  /** What a registered mite holds: a key and a client certificate for the controller, in the identity folder. */
  void storeIdentity(ControllerIdentity controller, Path identityDir) throws Exception {
    SigningRequest request = SigningRequest.generate();
    ClientCertificate certificate = ca.signClientCertificate(
        CertificateAuthority.parseCertificationRequest(request.csrDer()), controller, Instant.now());
    new IdentityStore(identityDir).save(new MiteIdentity(request.keyPair().getPrivate(),
        MiteIdentity.parseChain(certificate.certificateChainPem())));
  }

  Path caFile() {
    return caFile;
  }

  GatewayEndpoint endpoint() {
    return new GatewayEndpoint("127.0.0.1", server.getPort());
  }

  int welcomes() {
    return welcomes.get();
  }

  /** Acknowledge every batch as it arrives (true), or only through {@link #acknowledge(List)}. */
  void autoAck(boolean on) {
    autoAck = on;
  }

  void answerClaims(Function<ClaimAsk, Optional<ClaimAnswer>> answers) {
    claims = answers;
  }

  /** How log appends are answered (by default not at all). */
  void answerLogs(Function<LogAppend, Optional<LogAppendAnswer>> answers) {
    logs = answers;
  }

  /** How pipeline calls are answered (by default not at all). */
  void answerPipelineCalls(Function<PipelineCallAsk, Optional<PipelineCallReply>> answers) {
    pipelineCalls = answers;
  }

  /** Sent after every Welcome, as the operator's grant would reach the mite. */
  void jenkinsToken(JenkinsToken token) {
    jenkinsToken = token;
  }

  void acknowledge(List<EventKey> keys) {
    send(GatewayMessage.newBuilder().setEventsAck(EventsAcknowledged.newBuilder().addAllKeys(keys)).build());
  }

  void send(GatewayMessage message) {
    StreamObserver<GatewayMessage> stream = current;
    if (stream != null) {
      synchronized (stream) {
        stream.onNext(message);
      }
    }
  }

  /** Ends the current stream the way a failing gateway does; the mite reconnects after its backoff. */
  void breakStream() {
    StreamObserver<GatewayMessage> stream = current;
    current = null;
    if (stream != null) {
      synchronized (stream) {
        stream.onError(Status.UNAVAILABLE.withDescription("played gateway broke the stream").asRuntimeException());
      }
    }
  }

  List<MiteMessage> received() {
    return List.copyOf(received);
  }

  /** Every event the mite forwarded, in arrival order, replays included. */
  List<BuildEvent> events() {
    return received.stream().filter(MiteMessage::hasEvents).flatMap(m -> m.getEvents().getEventsList().stream())
        .toList();
  }

  List<MiteMessage> eventMessages() {
    return received.stream().filter(MiteMessage::hasEvents).toList();
  }

  void clearReceived() {
    received.clear();
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(5, TimeUnit.SECONDS);
  }

  private final class Channel extends MiteChannelGrpc.MiteChannelImplBase {
    @Override
    public StreamObserver<MiteMessage> connect(StreamObserver<GatewayMessage> outbound) {
      return new StreamObserver<>() {
        @Override
        public void onNext(MiteMessage message) {
          received.add(message);
          switch (message.getBodyCase()) {
            case HELLO -> {
              current = outbound;
              welcomes.incrementAndGet();
              synchronized (outbound) {
                outbound.onNext(GatewayMessage.newBuilder().setWelcome(Welcome.newBuilder()
                    .setProtocolVersion(ProtocolVersion.CURRENT).setGatewayId("played")
                    .setHeartbeatIntervalSeconds(15)).build());
                JenkinsToken token = jenkinsToken;
                if (token != null) {
                  outbound.onNext(GatewayMessage.newBuilder().setJenkinsToken(token).build());
                }
              }
            }
            case EVENTS -> {
              if (autoAck && outbound == current) {
                acknowledge(message.getEvents().getEventsList().stream().map(EventRetention::key).toList());
              }
            }
            case CLAIM -> claims.apply(message.getClaim()).ifPresent(answer -> {
              if (outbound == current) {
                send(GatewayMessage.newBuilder().setClaimAnswer(answer).build());
              }
            });
            case LOG_APPEND -> logs.apply(message.getLogAppend()).ifPresent(answer -> {
              if (outbound == current) {
                send(GatewayMessage.newBuilder().setLogAppendAnswer(answer).build());
              }
            });
            case PIPELINE_CALL -> pipelineCalls.apply(message.getPipelineCall()).ifPresent(answer -> {
              if (outbound == current) {
                send(GatewayMessage.newBuilder().setPipelineCallAnswer(answer).build());
              }
            });
            default -> {
            }
          }
        }

        @Override
        public void onError(Throwable t) {
          if (current == outbound) {
            current = null;
          }
        }

        @Override
        public void onCompleted() {
          if (current == outbound) {
            current = null;
          }
          try {
            outbound.onCompleted();
          } catch (RuntimeException alreadyClosed) {
            // the stream is gone already
          }
        }
      };
    }
  }
}
