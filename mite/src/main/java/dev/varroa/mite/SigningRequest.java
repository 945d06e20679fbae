package dev.varroa.mite;

import java.io.ByteArrayOutputStream;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import javax.security.auth.x500.X500Principal;

/**
 * A fresh EC P-256 key and its PKCS#10 certificate signing request (RFC 2986, DER). Built with the
 * JDK alone: the few DER structures of a CSR do not justify loading BouncyCastle's signed jars,
 * which cost the sidecar some 20 MiB of resident memory. The gateway ignores the subject.
 */
record SigningRequest(KeyPair keyPair, byte[] csrDer) {

  static final String CURVE = "secp256r1";
  static final String SIGNATURE_ALGORITHM = "SHA256withECDSA";
  /** Informational only: the gateway sets the identity from the bootstrap token or the current certificate. */
  static final String SUBJECT = "CN=varroa-mite";

  // ecdsa-with-SHA256, 1.2.840.10045.4.3.2 (RFC 5758): an AlgorithmIdentifier without parameters
  private static final byte[] ECDSA_WITH_SHA256 = {0x06, 0x08, 0x2A, (byte) 0x86, 0x48, (byte) 0xCE, 0x3D, 0x04, 0x03,
      0x02};
  private static final int SEQUENCE = 0x30;
  private static final int INTEGER = 0x02;
  private static final int BIT_STRING = 0x03;
  // attributes [0] IMPLICIT SET OF Attribute: context-specific, constructed
  private static final int ATTRIBUTES = 0xA0;

  static SigningRequest generate() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec(CURVE));
      KeyPair keyPair = generator.generateKeyPair();
      byte[] info = tlv(SEQUENCE,
          tlv(INTEGER, new byte[] {0}),
          new X500Principal(SUBJECT).getEncoded(),
          keyPair.getPublic().getEncoded(),
          tlv(ATTRIBUTES));
      Signature signer = Signature.getInstance(SIGNATURE_ALGORITHM);
      signer.initSign(keyPair.getPrivate());
      signer.update(info);
      byte[] signature = signer.sign();
      byte[] bits = new byte[signature.length + 1];
      System.arraycopy(signature, 0, bits, 1, signature.length);
      byte[] csr = tlv(SEQUENCE, info, tlv(SEQUENCE, ECDSA_WITH_SHA256), tlv(BIT_STRING, bits));
      return new SigningRequest(keyPair, csr);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JRE cannot make an EC P-256 key and CSR: " + e.getMessage(), e);
    }
  }

  /** One DER tag-length-value whose value is the concatenation of {@code parts}. */
  static byte[] tlv(int tag, byte[]... parts) {
    ByteArrayOutputStream value = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      value.writeBytes(part);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int length = value.size();
    if (length < 0x80) {
      out.write(length);
    } else if (length <= 0xFF) {
      out.write(0x81);
      out.write(length);
    } else {
      out.write(0x82);
      out.write(length >> 8);
      out.write(length & 0xFF);
    }
    out.writeBytes(value.toByteArray());
    return out.toByteArray();
  }
}
