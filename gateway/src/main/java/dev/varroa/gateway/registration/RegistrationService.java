package dev.varroa.gateway.registration;

import static dev.varroa.protocol.mite.v1.RefusalReason.CSR_INVALID;
import static dev.varroa.protocol.mite.v1.RefusalReason.PROTOCOL_TOO_OLD;

import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.gateway.ca.CertificateRequestRejectedException;
import dev.varroa.gateway.ca.ClientCertificate;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.ProtocolVersion;
import dev.varroa.protocol.mite.v1.ControllerRef;
import dev.varroa.protocol.mite.v1.RegisterRequest;
import dev.varroa.protocol.mite.v1.RegisterResponse;
import dev.varroa.protocol.mite.v1.RegistrationGrpc;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Clock;
import java.time.Instant;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trades a bootstrap token and a CSR for a client certificate. Order matters: everything that can be
 * checked without spending the token (version, CSR) is checked first; the certificate is signed only
 * after this gateway won the compare-and-set that marks the token used.
 */
public final class RegistrationService extends RegistrationGrpc.RegistrationImplBase {

  private static final Logger LOG = LoggerFactory.getLogger(RegistrationService.class);

  private final String gatewayId;
  private final CertificateAuthority ca;
  private final BootstrapTokenLedger ledger;
  private final Clock clock;

  public RegistrationService(String gatewayId, CertificateAuthority ca, BusConnection bus, Clock clock) {
    this.gatewayId = gatewayId;
    this.ca = ca;
    this.ledger = new BootstrapTokenLedger(bus, gatewayId);
    this.clock = clock;
  }

  @Override
  public void register(RegisterRequest request, StreamObserver<RegisterResponse> response) {
    String claimed = describe(request.getController());
    try {
      ClientCertificate certificate = issue(request);
      response.onNext(RegisterResponse.newBuilder()
          .setProtocolVersion(ProtocolVersion.negotiated(request.getProtocolVersion()))
          .setCertificateChainPem(certificate.certificateChainPem())
          .setNotAfterEpochMillis(certificate.notAfter().toEpochMilli())
          .build());
      response.onCompleted();
      LOG.info("event=registration_accepted gateway={} controller={} miteVersion={} notAfter={}", gatewayId, claimed,
          request.getMiteVersion(), certificate.notAfter());
    } catch (RegistrationRefusedException refused) {
      LOG.warn("event=registration_refused gateway={} controller={} reason={}", gatewayId, claimed, refused.reason());
      response.onError(refused.toStatus().asRuntimeException());
    } catch (RuntimeException unexpected) {
      LOG.error("event=registration_failed gateway={} controller={} error=\"{}\"", gatewayId, claimed,
          unexpected.toString());
      response.onError(Status.INTERNAL.withDescription("registration failed inside the gateway; nothing was issued: "
          + "see the gateway log").asRuntimeException());
    }
  }

  private ClientCertificate issue(RegisterRequest request) throws RegistrationRefusedException {
    if (!ProtocolVersion.supported(request.getProtocolVersion())) {
      throw new RegistrationRefusedException(PROTOCOL_TOO_OLD, "the mite speaks protocol "
          + request.getProtocolVersion() + " and this gateway serves " + ProtocolVersion.OLDEST_SUPPORTED + " to "
          + ProtocolVersion.CURRENT + ": upgrade the mite image");
    }
    PKCS10CertificationRequest csr;
    try {
      csr = CertificateAuthority.parseCertificationRequest(request.getCsrDer().toByteArray());
    } catch (CertificateRequestRejectedException e) {
      throw new RegistrationRefusedException(CSR_INVALID, e.getMessage());
    }
    Instant now = clock.instant();
    ControllerIdentity identity = ledger.redeem(request.getBootstrapToken(), request.getController(), now);
    try {
      return ca.signClientCertificate(csr, identity, now);
    } catch (CertificateRequestRejectedException e) {
      // Checked above already; reaching this means the CSR changed meaning between two reads.
      throw new RegistrationRefusedException(CSR_INVALID, e.getMessage());
    }
  }

  private static String describe(ControllerRef ref) {
    return ref.getNamespace() + "/" + ref.getName();
  }
}
