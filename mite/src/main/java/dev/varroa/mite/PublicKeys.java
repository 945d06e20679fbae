package dev.varroa.mite;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;

/** Whether a certificate's public key belongs to a private key: sign a nonce and verify it. */
final class PublicKeys {

  private PublicKeys() {
  }

  static boolean match(PublicKey publicKey, PrivateKey privateKey) {
    try {
      byte[] nonce = new byte[32];
      new SecureRandom().nextBytes(nonce);
      Signature signer = Signature.getInstance("SHA256withECDSA");
      signer.initSign(privateKey);
      signer.update(nonce);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance("SHA256withECDSA");
      verifier.initVerify(publicKey);
      verifier.update(nonce);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}
