package dev.varroa.bundle.compose;

import dev.varroa.api.v1alpha1.ObjectRef;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.source.GitCredentials;
import dev.varroa.bundle.source.OciCredentials;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Reads an input's secretRef with Flux's Secret keys into the credentials a source takes. */
final class SourceCredentials {
  private final SourceObjects objects;

  SourceCredentials(SourceObjects objects) {
    this.objects = objects;
  }

  GitCredentials git(InputRef input, ObjectRef secretRef) throws BundleException {
    if (secretRef == null) {
      return GitCredentials.none();
    }
    Map<String, byte[]> data = secret(input, secretRef);
    if (data.containsKey("identity")) {
      if (!data.containsKey("known_hosts")) {
        throw missingKey(input, secretRef, "known_hosts", "ssh needs the server's host key to verify it");
      }
      return new GitCredentials.SshKey(text(data, "identity"), text(data, "password"), text(data, "known_hosts"));
    }
    if (data.containsKey("bearerToken")) {
      return new GitCredentials.Token(text(data, "username"), text(data, "bearerToken"));
    }
    if (data.containsKey("username") && data.containsKey("password")) {
      return new GitCredentials.Basic(text(data, "username"), text(data, "password"));
    }
    throw missingKey(input, secretRef, "username and password, bearerToken, or identity and known_hosts",
        "Git credentials use Flux's Secret keys");
  }

  OciCredentials oci(InputRef input, ObjectRef secretRef) throws BundleException {
    if (secretRef == null) {
      return OciCredentials.anonymous();
    }
    Map<String, byte[]> data = secret(input, secretRef);
    if (data.containsKey("bearerToken")) {
      return new OciCredentials.Token(text(data, "bearerToken"));
    }
    if (data.containsKey("username") && data.containsKey("password")) {
      return new OciCredentials.Basic(text(data, "username"), text(data, "password"));
    }
    throw missingKey(input, secretRef, "username and password, or bearerToken", "registry credentials use Flux's Secret keys");
  }

  private Map<String, byte[]> secret(InputRef input, ObjectRef secretRef) throws BundleException {
    return objects.secret(secretRef.name).orElseThrow(() -> new BundleException(new BundleProblem(
        BundleProblem.Kind.INVALID, input.describe(), null, "secretRef.name",
        "Secret " + secretRef.name + " does not exist in the bundle's namespace",
        "create the Secret or correct secretRef.name")));
  }

  private static BundleException missingKey(InputRef input, ObjectRef secretRef, String keys, String why) {
    return new BundleException(new BundleProblem(BundleProblem.Kind.INVALID, input.describe(), null, "secretRef",
        "Secret " + secretRef.name + " lacks " + keys + " (" + why + ")",
        "add the keys to Secret " + secretRef.name));
  }

  private static String text(Map<String, byte[]> data, String key) {
    byte[] value = data.get(key);
    return value == null ? null : new String(value, StandardCharsets.UTF_8);
  }
}
