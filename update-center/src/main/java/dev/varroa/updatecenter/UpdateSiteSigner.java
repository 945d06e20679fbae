package dev.varroa.updatecenter;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Signs an update site document the way Jenkins' {@code JSONSignatureValidator} checks it: over the
 * canonical JSON of the document without its {@code signature} member, a {@code signature} block with
 * {@code certificates} (base64 DER, the signer first), {@code correct_digest} and
 * {@code correct_signature} (SHA-1, base64) and {@code correct_digest512} and
 * {@code correct_signature512} (SHA-512, hex). Jenkins checks the SHA-512 pair first and the SHA-1
 * pair after; both are written so older controllers verify too.
 */
public final class UpdateSiteSigner {
  public static final String SIGNATURE = "signature";

  private UpdateSiteSigner() {}

  /** Returns the document with a fresh signature block; any old one is replaced. */
  public static ObjectNode sign(ObjectNode document, SigningIdentity identity) {
    ObjectNode unsigned = document.deepCopy();
    unsigned.remove(SIGNATURE);
    byte[] canonical = CanonicalJson.write(unsigned).getBytes(StandardCharsets.UTF_8);
    try {
      ObjectNode block = unsigned.objectNode();
      ArrayNode certificates = block.putArray("certificates");
      for (X509Certificate certificate : identity.chain()) {
        certificates.add(Base64.getEncoder().encodeToString(certificate.getEncoded()));
      }
      block.put("correct_digest", Base64.getEncoder().encodeToString(FileDigests.digest("SHA-1").digest(canonical)));
      block.put("correct_signature", Base64.getEncoder().encodeToString(signature("SHA1withRSA", identity, canonical)));
      MessageDigest sha512 = FileDigests.digest("SHA-512");
      block.put("correct_digest512", HexFormat.of().formatHex(sha512.digest(canonical)));
      block.put("correct_signature512", HexFormat.of().formatHex(signature("SHA512withRSA", identity, canonical)));
      ObjectNode signed = unsigned.deepCopy();
      signed.set(SIGNATURE, block);
      return signed;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign the update site document: " + e.getMessage(), e);
    }
  }

  private static byte[] signature(String algorithm, SigningIdentity identity, byte[] canonical)
      throws GeneralSecurityException {
    Signature signature = Signature.getInstance(algorithm);
    signature.initSign(identity.key());
    signature.update(canonical);
    return signature.sign();
  }
}
