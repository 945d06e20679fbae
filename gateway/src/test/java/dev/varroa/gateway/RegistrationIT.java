package dev.varroa.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.google.protobuf.ByteString;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.ProtocolVersion;
import dev.varroa.protocol.bus.v1.BootstrapTokenRecord;
import dev.varroa.protocol.mite.v1.ControllerRef;
import dev.varroa.protocol.mite.v1.RefusalReason;
import dev.varroa.protocol.mite.v1.RegisterRequest;
import dev.varroa.protocol.mite.v1.RegisterResponse;
import dev.varroa.protocol.mite.v1.RegistrationGrpc;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.nats.client.Connection;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class RegistrationIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @TempDir
  static Path directory;

  private static CertificateAuthority ca;
  private static Gateway gateway;
  private static Gateway secondGateway;
  private static Connection operator;
  private static TokenIssuer tokens;

  @BeforeAll
  static void startGateways() throws Exception {
    ca = CertificateAuthority.createFiles(directory.resolve("ca.pem"), directory.resolve("ca-key.pem"));
    gateway = Gateway.start(settings("gateway-a"));
    secondGateway = Gateway.start(settings("gateway-b"));
    operator = NATS.server().connect();
    tokens = new TokenIssuer(operator);
  }

  @AfterAll
  static void stopGateways() throws Exception {
    if (gateway != null) {
      gateway.close();
    }
    if (secondGateway != null) {
      secondGateway.close();
    }
    if (operator != null) {
      operator.close();
    }
  }

  static GatewaySettings settings(String id) {
    return GatewaySettings.of(id, NATS.server().url(), directory.resolve("ca.pem"), directory.resolve("ca-key.pem"))
        .withListen("127.0.0.1", 0)
        .withTlsNames(List.of("localhost"), List.of("127.0.0.1"));
  }

  @Test
  void issuesCertificateWithControllerIdentityAsOnlyUriSan() throws Exception {
    ControllerIdentity controller = newController();
    MiteKeys keys = MiteKeys.generate();
    String token = tokens.issue(controller);

    RegisterResponse response = register(gateway, request(token, controller.toRef(), keys.csrDer()));

    List<X509Certificate> chain = parseChain(response.getCertificateChainPem());
    X509Certificate leaf = chain.get(0);
    assertThat(leaf.getSubjectAlternativeNames()).containsExactly(List.of(6, controller.toString()));
    assertThat(leaf.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
    assertThat(leaf.getBasicConstraints()).isEqualTo(-1);
    assertThat(leaf.getSubjectX500Principal().getName()).isEqualTo("CN=" + controller.routeKey());
    assertThat(leaf.getPublicKey()).isEqualTo(keys.keys().getPublic());
    leaf.verify(ca.certificate().getPublicKey());
    assertThat(chain.get(1)).isEqualTo(ca.certificate());
    assertThat(leaf.getNotAfter().toInstant())
        .isCloseTo(Instant.now().plus(CertificateAuthority.CLIENT_CERTIFICATE_LIFETIME), within(1, ChronoUnit.MINUTES))
        .isEqualTo(Instant.ofEpochMilli(response.getNotAfterEpochMillis()).truncatedTo(ChronoUnit.SECONDS));
    BootstrapTokenRecord record = tokens.record(token);
    assertThat(record.getUsed()).isTrue();
    assertThat(record.getUsedByGateway()).isEqualTo("gateway-a");
  }

  @Test
  void refusesReusedToken() throws Exception {
    ControllerIdentity controller = newController();
    String token = tokens.issue(controller);
    register(gateway, request(token, controller.toRef(), MiteKeys.generate().csrDer()));

    assertRefused(() -> register(secondGateway, request(token, controller.toRef(), MiteKeys.generate().csrDer())),
        Status.Code.PERMISSION_DENIED, RefusalReason.TOKEN_ALREADY_USED, token);
  }

  @Test
  void exactlyOneOfTwoGatewaysRedeemsATokenUsedAtTheSameMoment() throws Exception {
    ExecutorService racers = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 10; round++) {
        ControllerIdentity controller = newController();
        String token = tokens.issue(controller);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<RegisterResponse>> attempts = new ArrayList<>();
        for (Gateway target : List.of(gateway, secondGateway)) {
          attempts.add(racers.submit(() -> {
            start.await();
            return register(target, request(token, controller.toRef(), MiteKeys.generate().csrDer()));
          }));
        }
        start.countDown();
        int issued = 0;
        List<Throwable> refusals = new ArrayList<>();
        for (Future<RegisterResponse> attempt : attempts) {
          try {
            attempt.get(20, TimeUnit.SECONDS);
            issued++;
          } catch (java.util.concurrent.ExecutionException e) {
            refusals.add(e.getCause());
          }
        }
        assertThat(issued).as("certificates issued in round %d", round).isEqualTo(1);
        assertThat(refusals).singleElement().satisfies(refusal -> assertRefusal(refusal,
            Status.Code.PERMISSION_DENIED, RefusalReason.TOKEN_ALREADY_USED, token));
      }
    } finally {
      racers.shutdownNow();
    }
  }

  @Test
  void refusesExpiredToken() throws Exception {
    ControllerIdentity controller = newController();
    String token = tokens.issue(controller.toRef(), Instant.now().minusSeconds(1));

    assertRefused(() -> register(gateway, request(token, controller.toRef(), MiteKeys.generate().csrDer())),
        Status.Code.PERMISSION_DENIED, RefusalReason.TOKEN_EXPIRED, token);
    assertThat(tokens.record(token).getUsed()).isFalse();
  }

  @Test
  void refusesTokenOfAnotherControllerAndKeepsItForTheRightOne() throws Exception {
    ControllerIdentity controller = newController();
    ControllerIdentity other = newController();
    ControllerRef sameNameOtherUid = controller.toRef().toBuilder().setUid(UUID.randomUUID().toString()).build();
    String token = tokens.issue(controller);

    assertRefused(() -> register(gateway, request(token, other.toRef(), MiteKeys.generate().csrDer())),
        Status.Code.PERMISSION_DENIED, RefusalReason.TOKEN_OTHER_CONTROLLER, token);
    assertRefused(() -> register(gateway, request(token, sameNameOtherUid, MiteKeys.generate().csrDer())),
        Status.Code.PERMISSION_DENIED, RefusalReason.TOKEN_OTHER_CONTROLLER, token);
    assertThat(tokens.record(token).getUsed()).isFalse();

    assertThat(register(gateway, request(token, controller.toRef(), MiteKeys.generate().csrDer()))
        .getCertificateChainPem()).isNotEmpty();
  }

  @Test
  void refusesUnknownToken() {
    ControllerIdentity controller = newController();
    String neverIssued = "never-issued-" + UUID.randomUUID();

    assertRefused(() -> register(gateway, request(neverIssued, controller.toRef(), MiteKeys.generate().csrDer())),
        Status.Code.PERMISSION_DENIED, RefusalReason.TOKEN_UNKNOWN, neverIssued);
  }

  @Test
  void refusesCsrThatDoesNotProvePossessionOfItsKeyAndKeepsTheToken() throws Exception {
    ControllerIdentity controller = newController();
    String token = tokens.issue(controller);
    byte[] forged = MiteKeys.generate().csrSignedBy(MiteKeys.generate());

    assertRefused(() -> register(gateway, request(token, controller.toRef(), forged)),
        Status.Code.INVALID_ARGUMENT, RefusalReason.CSR_INVALID, token);
    assertRefused(() -> register(gateway, request(token, controller.toRef(), new byte[] {1, 2, 3})),
        Status.Code.INVALID_ARGUMENT, RefusalReason.CSR_INVALID, token);
    assertThat(tokens.record(token).getUsed()).isFalse();
  }

  @Test
  void refusesMiteOlderThanTheOldestSupportedProtocol() throws Exception {
    ControllerIdentity controller = newController();
    String token = tokens.issue(controller);
    RegisterRequest tooOld = request(token, controller.toRef(), MiteKeys.generate().csrDer()).toBuilder()
        .setProtocolVersion(ProtocolVersion.OLDEST_SUPPORTED - 1)
        .build();

    assertRefused(() -> register(gateway, tooOld), Status.Code.FAILED_PRECONDITION, RefusalReason.PROTOCOL_TOO_OLD,
        token);
    assertThat(tokens.record(token).getUsed()).isFalse();
  }

  @Test
  void clientTrustingAnotherCaCannotRegisterAndTheTokenStaysUnused() throws Exception {
    ControllerIdentity controller = newController();
    String token = tokens.issue(controller);
    CertificateAuthority impostor = CertificateAuthority.generate("Not Varroa", Duration.ofDays(1));
    ManagedChannel channel = Channels.serverTls(gateway.port(), impostor.certificatePem());
    try {
      assertThatThrownBy(() -> RegistrationGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
          .register(request(token, controller.toRef(), MiteKeys.generate().csrDer())))
          .isInstanceOfSatisfying(StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    } finally {
      channel.shutdownNow();
    }
    assertThat(tokens.record(token).getUsed()).isFalse();
  }

  static ControllerIdentity newController() {
    return new ControllerIdentity("team-" + UUID.randomUUID().toString().substring(0, 8), "jenkins",
        UUID.randomUUID().toString());
  }

  static RegisterRequest request(String token, ControllerRef controller, byte[] csr) {
    return RegisterRequest.newBuilder()
        .setProtocolVersion(ProtocolVersion.CURRENT)
        .setBootstrapToken(token)
        .setController(controller)
        .setCsrDer(ByteString.copyFrom(csr))
        .setMiteVersion("test-mite")
        .build();
  }

  static RegisterResponse register(Gateway target, RegisterRequest request) {
    return register(target, ca, request);
  }

  static RegisterResponse register(Gateway target, CertificateAuthority trusted, RegisterRequest request) {
    ManagedChannel channel = Channels.serverTls(target.port(), trusted.certificatePem());
    try {
      return RegistrationGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS).register(request);
    } finally {
      channel.shutdownNow();
    }
  }

  /** A refusal issues nothing: the call fails with the reason first, and the token never shows in it. */
  static void assertRefused(Callable<RegisterResponse> attempt, Status.Code code, RefusalReason reason, String token) {
    assertThatThrownBy(attempt::call).satisfies(refusal -> assertRefusal(refusal, code, reason, token));
  }

  static void assertRefusal(Throwable refusal, Status.Code code, RefusalReason reason, String token) {
    assertThat(refusal).isInstanceOf(StatusRuntimeException.class);
    Status status = ((StatusRuntimeException) refusal).getStatus();
    assertThat(status.getCode()).isEqualTo(code);
    assertThat(status.getDescription()).startsWith(reason.name() + ": ").doesNotContain(token);
    assertThat(status.getDescription().length()).isGreaterThan(reason.name().length() + 20);
  }

  static List<X509Certificate> parseChain(String pem) throws Exception {
    Collection<? extends java.security.cert.Certificate> certificates = CertificateFactory.getInstance("X.509")
        .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    return certificates.stream().map(X509Certificate.class::cast).toList();
  }
}
