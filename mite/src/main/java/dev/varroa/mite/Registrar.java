package dev.varroa.mite;

import com.google.protobuf.ByteString;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.ProtocolVersion;
import dev.varroa.protocol.mite.v1.RefusalReason;
import dev.varroa.protocol.mite.v1.RegisterRequest;
import dev.varroa.protocol.mite.v1.RegisterResponse;
import dev.varroa.protocol.mite.v1.RegistrationGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Obtains the mite's client certificate: reuses the stored one after a container restart, else
 * trades the bootstrap token and a fresh CSR for one. Fails closed: it returns only with a
 * certificate, retrying with backoff until then.
 */
final class Registrar {

  /** A stored certificate closer than this to expiry is not worth reusing: the stream would renew at once or fail. */
  static final Duration IDENTITY_REUSE_MARGIN = Duration.ofMinutes(10);
  /** One Register call; the gateway answers after a KV compare-and-set and a signature. */
  static final Duration REGISTER_TIMEOUT = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(Registrar.class);

  private final ControllerIdentity controller;
  private final Path tokenFile;
  private final IdentityStore store;
  private final GatewayChannels channels;
  private final GatewayRotation gateways;
  private final Backoff backoff;
  private final StopSignal stop;
  private final Clock clock;

  Registrar(ControllerIdentity controller, Path tokenFile, IdentityStore store, GatewayChannels channels,
      GatewayRotation gateways, Backoff backoff, StopSignal stop, Clock clock) {
    this.controller = controller;
    this.tokenFile = tokenFile;
    this.store = store;
    this.channels = channels;
    this.gateways = gateways;
    this.backoff = backoff;
    this.stop = stop;
    this.clock = clock;
  }

  /** The stored identity if it is still good for this controller. */
  Optional<MiteIdentity> stored() {
    return store.load().filter(this::reusable);
  }

  boolean reusable(MiteIdentity identity) {
    if (!identity.keyMatches()) {
      LOG.info("event=stored_identity_ignored reason=key_mismatch");
      return false;
    }
    if (!identity.controller().map(controller::equals).orElse(false)) {
      LOG.info("event=stored_identity_ignored reason=other_controller");
      return false;
    }
    if (!identity.validBeyond(clock.instant(), IDENTITY_REUSE_MARGIN)) {
      LOG.info("event=stored_identity_ignored reason=expiring not_after={}", identity.notAfter());
      return false;
    }
    return true;
  }

  /** Blocks until the mite holds a certificate; empty only when the mite stops first. */
  Optional<MiteIdentity> obtain() {
    Optional<MiteIdentity> stored = stored();
    if (stored.isPresent()) {
      LOG.info("event=identity_reused controller={} not_after={}", controller, stored.get().notAfter());
      return stored;
    }
    return registerFresh();
  }

  /** Registers with the bootstrap token whatever is stored (the gateway refused the stored certificate). */
  Optional<MiteIdentity> registerFresh() {
    backoff.reset();
    while (!stop.stopped()) {
      GatewayEndpoint endpoint = gateways.next();
      try {
        MiteIdentity identity = register(endpoint);
        store.save(identity);
        backoff.reset();
        LOG.info("event=registered controller={} gateway_endpoint={} not_after={}", controller, endpoint,
            identity.notAfter());
        return Optional.of(identity);
      } catch (RegistrationFailure failure) {
        LOG.warn("event=registration_failed controller={} gateway_endpoint={} {}", controller, endpoint,
            failure.getMessage());
      } catch (IOException e) {
        LOG.warn("event=registration_failed controller={} gateway_endpoint={} reason=local_error error=\"{}\"",
            controller, endpoint, e.getMessage());
      }
      Duration wait = backoff.next();
      LOG.info("event=registration_retry_scheduled in_ms={}", wait.toMillis());
      if (stop.await(wait)) {
        break;
      }
    }
    return Optional.empty();
  }

  private MiteIdentity register(GatewayEndpoint endpoint) throws IOException, RegistrationFailure {
    // read on every attempt: the operator replaces a used or expired token in place
    String token = readToken();
    SigningRequest csr = SigningRequest.generate();
    ManagedChannel channel = channels.registration(endpoint);
    try {
      RegisterResponse response = RegistrationGrpc.newBlockingStub(channel)
          .withDeadlineAfter(REGISTER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .register(RegisterRequest.newBuilder()
              .setProtocolVersion(ProtocolVersion.CURRENT)
              .setBootstrapToken(token)
              .setController(controller.toRef())
              .setCsrDer(ByteString.copyFrom(csr.csrDer()))
              .setMiteVersion(MiteVersion.CURRENT)
              .build());
      MiteIdentity identity = new MiteIdentity(csr.keyPair().getPrivate(),
          MiteIdentity.parseChain(response.getCertificateChainPem()));
      if (!identity.keyMatches()) {
        throw new RegistrationFailure("reason=bad_answer detail=\"the issued certificate is not for the key sent\"");
      }
      if (!identity.controller().map(controller::equals).orElse(false)) {
        throw new RegistrationFailure("reason=bad_answer detail=\"the issued certificate names another controller\"");
      }
      return identity;
    } catch (StatusRuntimeException e) {
      throw RegistrationFailure.of(e.getStatus(), token);
    } catch (CertificateException e) {
      throw new RegistrationFailure("reason=bad_answer detail=\"the certificate chain does not parse\"");
    } finally {
      channel.shutdownNow();
    }
  }

  private String readToken() throws IOException {
    try {
      String token = Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
      if (token.isEmpty()) {
        throw new IOException("the bootstrap token file " + tokenFile + " is empty (VARROA_BOOTSTRAP_TOKEN_FILE)");
      }
      return token;
    } catch (NoSuchFileException e) {
      throw new IOException("the bootstrap token file " + tokenFile + " does not exist (VARROA_BOOTSTRAP_TOKEN_FILE)");
    }
  }

  /** A refused or failed Register call; its message is key=value text, safe to log. */
  static final class RegistrationFailure extends Exception {
    RegistrationFailure(String message) {
      super(message, null, false, false);
    }

    static RegistrationFailure of(Status status, String token) {
      String description = status.getDescription() == null ? "" : status.getDescription();
      // a gateway should never echo the token; make sure we never log it if one does
      description = description.replace(token, "<token>").replaceAll("[\\r\\n\"]+", " ").strip();
      Optional<RefusalReason> reason = refusalReason(status, description);
      if (reason.isPresent()) {
        return new RegistrationFailure("reason=refused refusal=" + reason.get() + " code=" + status.getCode()
            + " detail=\"" + description + "\"");
      }
      String cause = status.getCause() == null ? "" : " cause=" + status.getCause().getClass().getSimpleName();
      return new RegistrationFailure("reason=unavailable code=" + status.getCode() + cause + " detail=\""
          + description + "\"");
    }

    /** The RefusalReason the gateway puts as the first word of the description, if any. */
    static Optional<RefusalReason> refusalReason(Status status, String description) {
      if (status.getCode() != Status.Code.PERMISSION_DENIED && status.getCode() != Status.Code.INVALID_ARGUMENT
          && status.getCode() != Status.Code.FAILED_PRECONDITION) {
        return Optional.empty();
      }
      String first = description.split("[\\s:]", 2)[0];
      for (RefusalReason r : RefusalReason.values()) {
        if (r != RefusalReason.UNRECOGNIZED && r.name().equals(first)) {
          return Optional.of(r);
        }
      }
      return Optional.of(RefusalReason.REFUSAL_REASON_UNSPECIFIED);
    }
  }
}
