package dev.varroa.gateway.stream;

import dev.varroa.gateway.builds.BuildEventPublisher;
import dev.varroa.gateway.builds.LedgerClaimRelay;
import dev.varroa.gateway.builds.PipelineCallRelay;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.gateway.tls.PeerIdentity;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.MiteChannelGrpc;
import dev.varroa.protocol.mite.v1.MiteMessage;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/** The mite's long-lived stream; must sit behind PeerIdentityInterceptor, which supplies who the peer is. */
public final class MiteChannelService extends MiteChannelGrpc.MiteChannelImplBase {

  private final StreamServices services;

  public MiteChannelService(String gatewayId, Duration heartbeatInterval, MiteSessions sessions, RouteTable routes,
      CertificateAuthority ca, BusConnection bus, ScheduledExecutorService timers,
      ExecutorService pool, Clock clock, Consumer<MiteSession> sessionStarted, BooleanSupplier routesRetained,
      String clusterName, BuildEventPublisher events, LedgerClaimRelay claims, LogAppendRelay logs,
      MiteActivity activity) {
    this.services = new StreamServices(gatewayId, heartbeatInterval, sessions, routes, ca,
        new JenkinsTokenRelay(bus, gatewayId, clusterName), new BuildDataRelay(gatewayId, clusterName, events, claims,
            new PipelineCallRelay(bus, gatewayId, clusterName, PipelineCallRelay.RECORDER_WAIT, pool), clock),
        logs,
        timers, pool, clock, sessionStarted, routesRetained, activity, new LiveControllerCheck(bus, clusterName));
  }

  @Override
  public StreamObserver<MiteMessage> connect(StreamObserver<GatewayMessage> responseObserver) {
    MiteStreamHandler handler = new MiteStreamHandler(PeerIdentity.current(),
        (ServerCallStreamObserver<GatewayMessage>) responseObserver, services);
    handler.start();
    return handler;
  }
}
