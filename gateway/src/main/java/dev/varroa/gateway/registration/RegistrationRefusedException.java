package dev.varroa.gateway.registration;

import dev.varroa.protocol.mite.v1.RefusalReason;
import io.grpc.Status;

/** Why a registration (or a renewal) was refused, and how the mite learns it: a gRPC status "REASON: human text". */
public final class RegistrationRefusedException extends Exception {

  private static final long serialVersionUID = 1L;

  private final RefusalReason reason;

  public RegistrationRefusedException(RefusalReason reason, String explanation) {
    super(reason.name() + ": " + explanation);
    this.reason = reason;
  }

  public RefusalReason reason() {
    return reason;
  }

  public Status toStatus() {
    Status.Code code = switch (reason) {
      case CSR_INVALID -> Status.Code.INVALID_ARGUMENT;
      case PROTOCOL_TOO_OLD -> Status.Code.FAILED_PRECONDITION;
      case REGISTRY_UNAVAILABLE -> Status.Code.UNAVAILABLE;
      default -> Status.Code.PERMISSION_DENIED;
    };
    return Status.fromCode(code).withDescription(getMessage());
  }
}
