package dev.varroa.gateway.ca;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;

/** Certificates and keys to and from PEM; a key's content never appears in a message. */
final class PemFiles {

  private static final BouncyCastleProvider BC = new BouncyCastleProvider();

  private PemFiles() {
  }

  static X509Certificate readCertificate(Path certPem) throws IOException {
    try (Reader reader = Files.newBufferedReader(certPem, StandardCharsets.US_ASCII);
        PEMParser parser = new PEMParser(reader)) {
      Object first = parser.readObject();
      if (!(first instanceof X509CertificateHolder holder)) {
        throw new IllegalArgumentException(certPem + " holds no PEM certificate: point VARROA_CA_CERT_FILE at the "
            + "CA certificate (-----BEGIN CERTIFICATE-----)");
      }
      return new JcaX509CertificateConverter().setProvider(BC).getCertificate(holder);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(certPem + " holds an unreadable certificate", e);
    }
  }

  static PrivateKey readPrivateKey(Path keyPem) throws IOException {
    try (Reader reader = Files.newBufferedReader(keyPem, StandardCharsets.US_ASCII);
        PEMParser parser = new PEMParser(reader)) {
      Object object = parser.readObject();
      JcaPEMKeyConverter converter = new JcaPEMKeyConverter().setProvider(BC);
      if (object instanceof PEMKeyPair pair) {
        return converter.getKeyPair(pair).getPrivate();
      }
      if (object instanceof PrivateKeyInfo info) {
        return converter.getPrivateKey(info);
      }
      // The key file's content never goes into a message; its kind is enough to act on.
      throw new IllegalArgumentException(keyPem + " holds no unencrypted PEM private key (found "
          + (object == null ? "nothing" : object.getClass().getSimpleName()) + "): expected a PKCS#8 or SEC1 EC private key");
    }
  }

  static void writeOwnerOnly(Path file, String content) throws IOException {
    Files.deleteIfExists(file);
    try {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException notPosix) {
      Files.createFile(file);
    } catch (FileAlreadyExistsException raced) {
      throw new IOException("another process created " + file + " while a key was being written to it", raced);
    }
    Files.writeString(file, content, StandardCharsets.US_ASCII);
  }

  static String privateKeyPem(PrivateKey key) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(new JcaPKCS8Generator(key, null).generate());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode a private key as PKCS#8 PEM", e);
    }
    return out.toString();
  }

  static String pem(Object object) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write PEM", e);
    }
    return out.toString();
  }
}
