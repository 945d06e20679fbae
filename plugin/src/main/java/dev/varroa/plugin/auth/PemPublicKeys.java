package dev.varroa.plugin.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * Reads a file of one or more {@code -----BEGIN PUBLIC KEY-----} blocks into EC P-256 JWKs whose
 * key ID is the RFC 7638 thumbprint, the same value the operator puts in the token's {@code kid}.
 */
final class PemPublicKeys {

  private static final JcaPEMKeyConverter CONVERTER = new JcaPEMKeyConverter();

  private PemPublicKeys() {}

  static JWKSet read(Path file) throws KeySourceException {
    List<JWK> keys = new ArrayList<>();
    try (PEMParser parser = new PEMParser(Files.newBufferedReader(file, StandardCharsets.US_ASCII))) {
      Object block;
      while ((block = parser.readObject()) != null) {
        int number = keys.size() + 1;
        if (!(block instanceof SubjectPublicKeyInfo info)) {
          throw new KeySourceException("PEM block " + number + " of " + file + " is a "
              + block.getClass().getSimpleName() + "; the file must hold only -----BEGIN PUBLIC KEY----- blocks");
        }
        keys.add(toJwk(file, number, CONVERTER.getPublicKey(info)));
      }
    } catch (NoSuchFileException e) {
      throw new KeySourceException("public key file " + file + " does not exist; mount the operator's"
          + " public key there or point " + PublicKeyRing.KEY_FILE_VARIABLE + " at it", e);
    } catch (IOException e) {
      throw new KeySourceException("cannot read public key file " + file + ": " + e.getMessage(), e);
    }
    if (keys.isEmpty()) {
      throw new KeySourceException("public key file " + file + " holds no -----BEGIN PUBLIC KEY----- block");
    }
    return new JWKSet(keys);
  }

  private static ECKey toJwk(Path file, int number, PublicKey key) throws KeySourceException {
    if (!(key instanceof ECPublicKey ec) || !Curve.P_256.equals(Curve.forECParameterSpec(ec.getParams()))) {
      throw new KeySourceException("PEM block " + number + " of " + file + " is a " + key.getAlgorithm()
          + " key other than EC P-256; the operator signs Jenkins tokens with EC P-256 (ES256)");
    }
    try {
      return new ECKey.Builder(Curve.P_256, ec)
          .keyUse(KeyUse.SIGNATURE)
          .algorithm(JWSAlgorithm.ES256)
          .keyIDFromThumbprint()
          .build();
    } catch (JOSEException e) {
      throw new KeySourceException("cannot compute the thumbprint of PEM block " + number + " of " + file, e);
    }
  }
}
