package dev.varroa.gateway;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;

/** A mite's key pair and the CSRs it sends, as the real mite makes them (EC P-256). */
record MiteKeys(KeyPair keys) {

  static MiteKeys generate() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return new MiteKeys(generator.generateKeyPair());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  byte[] csrDer() {
    return csrSignedBy(this);
  }

  /** A CSR naming this key but signed by another: it proves possession of nothing. */
  byte[] csrSignedBy(MiteKeys signer) {
    try {
      return new JcaPKCS10CertificationRequestBuilder(new X500Name("CN=ignored-by-the-gateway"), keys.getPublic())
          .build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.keys().getPrivate()))
          .getEncoded();
    } catch (OperatorCreationException | IOException e) {
      throw new IllegalStateException(e);
    }
  }

  String privateKeyPem() {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(new JcaPKCS8Generator(keys.getPrivate(), null).generate());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }
}
