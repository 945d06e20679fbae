package dev.varroa.protocol.seal;

import com.nimbusds.jose.EncryptionMethod;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWEAlgorithm;
import com.nimbusds.jose.JWEHeader;
import com.nimbusds.jose.JWEObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDHDecrypter;
import com.nimbusds.jose.crypto.ECDHEncrypter;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import dev.varroa.protocol.mite.v1.Sealed;
import java.security.interfaces.ECPublicKey;
import java.text.ParseException;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Seals bytes to one mite's EC P-256 key and opens them with its private key: JWE compact serialization with
 * ECDH-ES key agreement and A256GCM content encryption (RFC 7516, RFC 7518), through nimbus-jose-jwt. The protected
 * header carries the recipient's key id and a purpose; both are covered by the GCM tag.
 */
public final class SecretSeal {

  /** Direct key agreement: the ephemeral-static ECDH output, through Concat KDF, is the content key. */
  public static final JWEAlgorithm ALGORITHM = JWEAlgorithm.ECDH_ES;
  public static final EncryptionMethod ENCRYPTION = EncryptionMethod.A256GCM;
  /** Protected header parameter naming where a seal belongs; the opener compares it with where it found it. */
  public static final String PURPOSE_HEADER = "varroa_purpose";
  /** Purpose of the JWT in a JenkinsToken. */
  public static final String JENKINS_TOKEN = "jenkins-token";

  private SecretSeal() {
  }

  /** Purpose of the secrets of the desired state in one command. */
  public static String desiredState(String commandId) {
    return "desired-state/" + commandId;
  }

  /** Purpose of a replayed webhook delivery in one command. */
  public static String replayDelivery(String commandId) {
    return "replay-delivery/" + commandId;
  }

  /** The RFC 7638 thumbprint (SHA-256, base64url) of a P-256 public key: the JWE "kid". */
  public static String keyId(ECPublicKey key) {
    try {
      return new ECKey.Builder(Curve.P_256, key).build().computeThumbprint().toString();
    } catch (JOSEException | IllegalArgumentException | IllegalStateException e) {
      throw new IllegalArgumentException("the key is not an EC P-256 public key: " + e.getMessage(), e);
    }
  }

  public static Sealed seal(byte[] plaintext, ECPublicKey recipient, String purpose) {
    Objects.requireNonNull(purpose, "purpose");
    JWEHeader header = new JWEHeader.Builder(ALGORITHM, ENCRYPTION).keyID(keyId(recipient))
        .customParam(PURPOSE_HEADER, purpose).build();
    JWEObject jwe = new JWEObject(header, new Payload(plaintext));
    try {
      jwe.encrypt(new ECDHEncrypter(recipient));
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot seal with ECDH-ES/A256GCM to key " + keyId(recipient) + ": "
          + e.getMessage(), e);
    }
    return Sealed.newBuilder().setJwe(jwe.serialize()).build();
  }

  /**
   * Opens a seal with whichever of {@code keys} it names.
   *
   * @param where what holds the seal, for the message (e.g. "command 42's desired state")
   */
  public static byte[] open(Sealed sealed, List<OpeningKey> keys, String purpose, String where)
      throws SealRefusedException {
    JWEObject jwe;
    try {
      jwe = JWEObject.parse(sealed.getJwe());
    } catch (ParseException e) {
      throw new SealRefusedException(SealRefusedException.Reason.DAMAGED, where + " is sealed, but the seal is not a "
          + "JWE in compact serialization (" + e.getMessage() + "); nothing was applied", e);
    }
    JWEHeader header = jwe.getHeader();
    if (!ALGORITHM.equals(header.getAlgorithm()) || !ENCRYPTION.equals(header.getEncryptionMethod())) {
      throw new SealRefusedException(SealRefusedException.Reason.DAMAGED, where + " is sealed with "
          + header.getAlgorithm() + "/" + header.getEncryptionMethod() + "; this mite opens only " + ALGORITHM + "/"
          + ENCRYPTION + "; nothing was applied");
    }
    String kid = header.getKeyID();
    OpeningKey key = keys.stream().filter(k -> k.keyId().equals(kid)).findFirst().orElseThrow(() ->
        new SealRefusedException(SealRefusedException.Reason.OTHER_KEY, where + " is sealed to key " + kid
            + ", which this mite does not hold (it holds " + keys.stream().map(OpeningKey::keyId)
            .collect(Collectors.joining(", ")) + "): the mite restarted or renewed its certificate after the sender "
            + "read its route; nothing was applied, the operator seals again to the key of the current route"));
    try {
      jwe.decrypt(new ECDHDecrypter(key.privateKey()));
    } catch (JOSEException e) {
      throw new SealRefusedException(SealRefusedException.Reason.DAMAGED, where + " is sealed to this mite's key "
          + kid + " but does not open (" + e.getMessage() + "): it was changed on the way; nothing was applied", e);
    }
    Object found = header.getCustomParam(PURPOSE_HEADER);
    if (!purpose.equals(found)) {
      throw new SealRefusedException(SealRefusedException.Reason.WRONG_PURPOSE, where + " holds a seal made for \""
          + found + "\", not for \"" + purpose + "\": a seal was moved between commands; nothing was applied");
    }
    return jwe.getPayload().toBytes();
  }
}
