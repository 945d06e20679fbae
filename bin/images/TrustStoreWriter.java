import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Writes the Java trust store of Varroa's base image from Debian's CA certificates, one trusted entry per
 * {@code .crt} file named {@code debian:<file>.pem} as Debian's own cacerts names them. The store is PKCS#12
 * without a MAC and without certificate encryption: it then has no random salt, so the same certificates always
 * give the same bytes, and the JDK reads it without a password. Run as {@code java TrustStoreWriter.java DIR OUT}.
 */
public final class TrustStoreWriter {

  private TrustStoreWriter() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: java TrustStoreWriter.java CERTIFICATE_DIR OUTPUT_FILE");
      System.exit(2);
    }
    // read by the PKCS#12 keystore when it stores: NONE leaves out the salted MAC and the encryption
    System.setProperty("keystore.pkcs12.certProtectionAlgorithm", "NONE");
    System.setProperty("keystore.pkcs12.macAlgorithm", "NONE");
    Path directory = Path.of(args[0]);
    List<Path> files;
    try (Stream<Path> listing = Files.list(directory)) {
      files = listing.filter(f -> f.getFileName().toString().endsWith(".crt")).sorted().toList();
    }
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no .crt file in " + directory + ": is it Debian's ca-certificates tree?");
    }
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    CertificateFactory x509 = CertificateFactory.getInstance("X.509");
    for (Path file : files) {
      try (InputStream in = Files.newInputStream(file)) {
        String name = file.getFileName().toString().replaceFirst("\\.crt$", ".pem").toLowerCase(Locale.ROOT);
        store.setCertificateEntry("debian:" + name, x509.generateCertificate(in));
      }
    }
    Path output = Path.of(args[1]);
    try (OutputStream out = Files.newOutputStream(output)) {
      store.store(out, "changeit".toCharArray());
    }
    // read back the way the JDK's TLS reads its default trust store: no password given
    KeyStore reread = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(output)) {
      reread.load(in, null);
    }
    if (reread.size() != files.size()) {
      throw new IllegalStateException(output + " holds " + reread.size() + " certificates, expected " + files.size());
    }
    System.out.println(reread.size());
  }
}
