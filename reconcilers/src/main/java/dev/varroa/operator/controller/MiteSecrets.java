package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.SecretVariable;
import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The secret values a Controller's JCasC reads, taken from its Secrets at push time. They travel to
 * the mite in desired state only; no ConfigMap, status or log holds them.
 */
final class MiteSecrets {
  private MiteSecrets() {}

  /** The values, variable name to bytes, or what keeps one from resolving, naming the field and the fix. */
  record Resolution(Map<String, byte[]> values, Optional<String> problem) {}

  /** Resolves every secret variable of the Controller; {@code read} gives a Secret by name in its namespace. */
  static Resolution resolve(Function<String, Optional<Secret>> read, ResolvedController controller) {
    Map<String, byte[]> values = new LinkedHashMap<>();
    List<SecretVariable> secrets = controller.secrets();
    for (int i = 0; i < secrets.size(); i++) {
      SecretVariable variable = secrets.get(i);
      Secret secret = read.apply(variable.secretKeyRef.name).orElse(null);
      String field = "spec.secrets[" + i + "] (" + variable.name + ")";
      if (secret == null) {
        return new Resolution(Map.of(), Optional.of(field + " names Secret " + variable.secretKeyRef.name
            + ", which does not exist in namespace " + controller.namespace() + "; fix: create it, or correct " + field
            + ".secretKeyRef.name"));
      }
      byte[] value = value(secret, variable.secretKeyRef.key);
      if (value == null) {
        return new Resolution(Map.of(), Optional.of(field + " names key " + variable.secretKeyRef.key + " of Secret "
            + variable.secretKeyRef.name + ", which has no such key; fix: add it, or correct " + field
            + ".secretKeyRef.key"));
      }
      values.put(variable.name, value);
    }
    return new Resolution(values, Optional.empty());
  }

  /** The key's value from data or stringData; null when the Secret has no such key. */
  static byte[] value(Secret secret, String key) {
    if (secret.getData() != null && secret.getData().containsKey(key)) {
      return Base64.getDecoder().decode(secret.getData().get(key));
    }
    if (secret.getStringData() != null && secret.getStringData().containsKey(key)) {
      return secret.getStringData().get(key).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
    return null;
  }
}
