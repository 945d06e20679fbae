import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TimeZone;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Run by bin/images/check.sh inside an unpacked image, as its user, with its runtime: checks what the
 * components rely on from the base and that {@code --version} does not exercise (TLS trust, EC crypto,
 * the user's home, a writable /tmp, UTC, UTF-8). Arguments: the number of CA certificates the base was made
 * with, and the home directory of the user the probe runs as.
 * Prints one line per problem and exits 1, or prints "runtime probe ok" and exits 0.
 */
public final class RuntimeProbe {

  private RuntimeProbe() {
  }

  public static void main(String[] args) throws Exception {
    int expectedCertificates = Integer.parseInt(args[0]);
    String expectedHome = args[1];
    List<String> problems = new ArrayList<>();

    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init((KeyStore) null);
    int trusted = Arrays.stream(trust.getTrustManagers()).filter(X509TrustManager.class::isInstance)
        .mapToInt(m -> ((X509TrustManager) m).getAcceptedIssuers().length).sum();
    if (trusted != expectedCertificates) {
      problems.add("the default trust store holds " + trusted + " CA certificates, the base was made with "
          + expectedCertificates + " (lib/security/cacerts -> /etc/ssl/certs/java/cacerts)");
    }

    SSLContext tls = SSLContext.getInstance("TLSv1.3");
    tls.init(null, null, null);
    List<String> suites = Arrays.asList(tls.createSSLEngine().getSupportedCipherSuites());
    if (!suites.contains("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256")) {
      problems.add("no ECDHE cipher suite: is jdk.crypto.ec in the runtime?");
    }
    KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
    ec.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair pair = ec.generateKeyPair();
    Signature signer = Signature.getInstance("SHA256withECDSA");
    signer.initSign(pair.getPrivate());
    signer.update(new byte[] {1, 2, 3});
    signer.sign();

    if (!expectedHome.equals(System.getProperty("user.home"))) {
      problems.add("user.home is " + System.getProperty("user.home") + ", expected " + expectedHome + " (/etc/passwd)");
    }
    try {
      Files.delete(Files.createTempFile(Path.of(System.getProperty("java.io.tmpdir")), "probe", ".tmp"));
    } catch (IOException e) {
      problems.add("cannot write in " + System.getProperty("java.io.tmpdir") + ": " + e);
    }
    if (TimeZone.getDefault().getRawOffset() != 0) {
      problems.add("the default time zone is " + TimeZone.getDefault().getID() + ", expected UTC (/etc/localtime)");
    }
    if (!"UTF-8".equals(System.getProperty("sun.jnu.encoding")) || !"UTF-8".equals(Charset.defaultCharset().name())) {
      problems.add("file names and text are not UTF-8 (sun.jnu.encoding=" + System.getProperty("sun.jnu.encoding")
          + ", default charset " + Charset.defaultCharset() + "): is LANG=C.UTF-8 in the image's environment?");
    }

    problems.forEach(p -> System.out.println("runtime probe: " + p));
    if (!problems.isEmpty()) {
      System.exit(1);
    }
    System.out.println("runtime probe ok: " + trusted + " trusted CAs, TLSv1.3 with ECDHE, user.home "
        + System.getProperty("user.home") + ", time zone " + TimeZone.getDefault().getID());
  }
}
