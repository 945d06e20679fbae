package dev.varroa.gateway.ca;

/** A CSR the CA will not sign: unreadable, a weak key, or a signature that does not prove possession of the key. */
public final class CertificateRequestRejectedException extends Exception {

  private static final long serialVersionUID = 1L;

  public CertificateRequestRejectedException(String message) {
    super(message);
  }

  public CertificateRequestRejectedException(String message, Throwable cause) {
    super(message, cause);
  }
}
