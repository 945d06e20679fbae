package dev.varroa.plugin.auth;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import java.security.Key;
import java.util.List;

/**
 * Picks the ES256 keys a token may be checked with: the key its {@code kid} names, and only that
 * one; every key when the token names none or names one this Jenkins does not hold. The kid is a
 * hint and the signature is the proof, so a kid computed differently never locks the mite out.
 */
final class KidPreferringKeySelector extends JWSVerificationKeySelector<SecurityContext> {

  KidPreferringKeySelector(JWKSource<SecurityContext> keys) {
    super(JWSAlgorithm.ES256, keys);
  }

  @Override
  public List<Key> selectJWSKeys(JWSHeader header, SecurityContext context) throws KeySourceException {
    List<Key> named = super.selectJWSKeys(header, context);
    if (!named.isEmpty() || header.getKeyID() == null || !isAllowed(header.getAlgorithm())) {
      return named;
    }
    return super.selectJWSKeys(new JWSHeader.Builder(header).keyID(null).build(), context);
  }
}
