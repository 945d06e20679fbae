package dev.varroa.protocol.seal;

import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;

/**
 * A key pair a mite may open seals with: the one of the certificate its stream presents, and after a renewal also
 * the new one. The public half names the key (its RFC 7638 thumbprint), so a seal to another key is told apart
 * from a damaged one.
 */
public record OpeningKey(ECPublicKey publicKey, ECPrivateKey privateKey) {

  /** The pair of a certificate's public key and the private key the mite holds for it. */
  public static OpeningKey of(java.security.PublicKey publicKey, PrivateKey privateKey) {
    if (!(publicKey instanceof ECPublicKey ec) || !(privateKey instanceof ECPrivateKey ecPrivate)) {
      throw new IllegalArgumentException("a mite's key must be EC P-256, got " + publicKey.getAlgorithm()
          + "; fix: register the mite again so it makes a P-256 key");
    }
    return new OpeningKey(ec, ecPrivate);
  }

  public String keyId() {
    return SecretSeal.keyId(publicKey);
  }

  @Override
  public String toString() {
    // never print the private key
    return "OpeningKey[" + keyId() + "]";
  }
}
