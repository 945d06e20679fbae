package dev.varroa.updatecenter;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Signature;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Checks an update site document the way a Jenkins controller does, written independently of
 * {@link UpdateSiteSigner} and {@link CanonicalJson} from the algorithm of Jenkins core's
 * {@code jenkins.util.JSONSignatureValidator} and json-lib's canonical writer: cut the JSON out of the
 * JSONP wrapper (first '{' to last '}'), take the {@code signature} block out, load its
 * {@code certificates} (base64 DER) and validate them as a PKIX path to the trusted roots (revocation
 * off), then re-serialise the rest canonically (sorted keys, no spaces, json-lib's escapes) and check
 * {@code correct_digest512}/{@code correct_signature512} (SHA512withRSA by the first certificate),
 * then {@code correct_digest}/{@code correct_signature} (SHA1withRSA); digests and signatures may
 * be hex or base64, as Jenkins accepts both.
 */
final class JenkinsSignatureCheck {
  private static final ObjectMapper JSON = new ObjectMapper();

  private JenkinsSignatureCheck() {}

  /** Why a controller would reject the document. */
  static final class Rejected extends Exception {
    Rejected(String message) {
      super(message);
    }
  }

  @SuppressWarnings("unchecked")
  static void verify(String served, Set<X509Certificate> roots) throws Rejected {
    String json = served.substring(served.indexOf('{'), served.lastIndexOf('}') + 1);
    Map<String, Object> document;
    try {
      document = JSON.readValue(json, LinkedHashMap.class);
    } catch (Exception e) {
      throw new Rejected("not JSON: " + e.getMessage());
    }
    Object block = document.remove("signature");
    if (!(block instanceof Map<?, ?>)) {
      throw new Rejected("No signature block found");
    }
    Map<String, Object> signature = (Map<String, Object>) block;
    List<X509Certificate> certificates = new ArrayList<>();
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X509");
      for (Object encoded : (List<Object>) signature.getOrDefault("certificates", List.of())) {
        certificates.add((X509Certificate) factory.generateCertificate(
            new ByteArrayInputStream(Base64.getDecoder().decode(encoded.toString()))));
      }
      if (certificates.isEmpty()) {
        throw new Rejected("No certificate found");
      }
      PKIXParameters parameters = new PKIXParameters(roots.stream().map(r -> new TrustAnchor(r, null))
          .collect(Collectors.toSet()));
      parameters.setRevocationEnabled(false);
      CertPathValidator.getInstance("PKIX").validate(factory.generateCertPath(certificates), parameters);
    } catch (GeneralSecurityException e) {
      throw new Rejected("certificate path does not validate: " + e.getMessage());
    }
    byte[] canonical = canonical(document).getBytes(StandardCharsets.UTF_8);
    boolean sha512 = check(signature, "correct_digest512", "correct_signature512", "SHA-512", "SHA512withRSA",
        certificates.get(0), canonical);
    boolean sha1 = check(signature, "correct_digest", "correct_signature", "SHA-1", "SHA1withRSA",
        certificates.get(0), canonical);
    if (!sha512 && !sha1) {
      throw new Rejected("No correct_signature or correct_signature512 entry found");
    }
  }

  private static boolean check(Map<String, Object> signature, String digestKey, String signatureKey, String digest,
      String algorithm, X509Certificate signer, byte[] canonical) throws Rejected {
    Object providedDigest = signature.get(digestKey);
    Object providedSignature = signature.get(signatureKey);
    if (providedDigest == null || providedSignature == null) {
      return false;
    }
    try {
      byte[] actual = MessageDigest.getInstance(digest).digest(canonical);
      String given = providedDigest.toString();
      if (!given.equalsIgnoreCase(HexFormat.of().formatHex(actual))
          && !given.equals(Base64.getEncoder().encodeToString(actual))) {
        throw new Rejected(digest + " digest mismatch");
      }
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(signer);
      verifier.update(canonical);
      if (!verifier.verify(decode(providedSignature.toString()))) {
        throw new Rejected(digest + " based signature does not match the certificate");
      }
      return true;
    } catch (GeneralSecurityException e) {
      throw new Rejected("signature check failed: " + e.getMessage());
    }
  }

  private static byte[] decode(String text) {
    if (text.matches("[0-9a-fA-F]+") && text.length() % 2 == 0) {
      return HexFormat.of().parseHex(text);
    }
    return Base64.getDecoder().decode(text);
  }

  /** json-lib's writeCanonical, restated: keys sorted, keys via JSONUtils.quote, values via quoteCanonical. */
  @SuppressWarnings("unchecked")
  static String canonical(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Map<?, ?> map) {
      return new TreeMap<>((Map<String, Object>) map).entrySet().stream()
          .map(e -> jsonLibQuote(e.getKey()) + ":" + canonical(e.getValue()))
          .collect(Collectors.joining(",", "{", "}"));
    }
    if (value instanceof List<?> list) {
      return list.stream().map(JenkinsSignatureCheck::canonical).collect(Collectors.joining(",", "[", "]"));
    }
    if (value instanceof String text) {
      return minimalQuote(text);
    }
    return value.toString().toLowerCase();
  }

  private static String jsonLibQuote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c == '/' && i > 0 && text.charAt(i - 1) == '<') {
        out.append("\\/");
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\t') {
        out.append("\\t");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c == '\b') {
        out.append("\\b");
      } else if (c == '\f') {
        out.append("\\f");
      } else if (c < 0x20) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  private static String minimalQuote(String text) {
    StringBuilder out = new StringBuilder("\"");
    text.chars().forEach(c -> {
      if (c == '"' || c == '\\') {
        out.append('\\').append((char) c);
      } else if (c < 0x20) {
        out.append(String.format("\\u%04x", c));
      } else {
        out.append((char) c);
      }
    });
    return out.append('"').toString();
  }
}
