package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamRef;
import dev.varroa.api.v1alpha1.TeamSpec;
import dev.varroa.operator.render.CellLayer;
import dev.varroa.operator.render.TeamFoldersFragment;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The values of a cell's tenant credentials (docs/cells.md, "Tenant credentials"), read from each Team's Secrets at
 * push time as the secret files the generated layer names. Like MiteSecrets, they travel in the sealed part of the
 * desired state only; no ConfigMap, status or log holds them.
 */
final class TeamCredentials {
  private TeamCredentials() {}

  /**
   * The values, secret file name to bytes, or what keeps one from resolving, naming the Team, the field and the fix.
   *
   * @param read a Secret by (namespace, name)
   */
  static MiteSecrets.Resolution resolve(BiFunction<String, String, Optional<Secret>> read, CellLayer cell) {
    Map<String, byte[]> values = new LinkedHashMap<>();
    for (Team team : cell.teams()) {
      String name = team.getMetadata().getName();
      String namespace = team.getMetadata().getNamespace();
      List<TeamSpec.Credential> credentials = team.getSpec() == null || team.getSpec().credentials == null ? List.of()
          : team.getSpec().credentials;
      for (int i = 0; i < credentials.size(); i++) {
        TeamSpec.Credential credential = credentials.get(i);
        String field = "Team " + namespace + "/" + name + ": spec.credentials[" + i + "] (" + credential.id + ")";
        Secret secret = read.apply(namespace, credential.secretRef.name).orElse(null);
        if (secret == null) {
          return problem(field + " names Secret " + credential.secretRef.name + ", which does not exist in namespace "
              + namespace + "; fix: create it, or correct spec.credentials[" + i + "].secretRef.name");
        }
        byte[] value = MiteSecrets.value(secret, credential.secretRef.key);
        if (value == null) {
          return problem(missingKey(field, credential.secretRef.key, credential.secretRef.name, i, "key"));
        }
        values.put(TeamFoldersFragment.secretFile(TeamRef.folder(team), credential.id), value);
        String usernameKey = credential.secretRef.usernameKey;
        if (usernameKey != null && !"secretText".equals(credential.type)) {
          byte[] username = MiteSecrets.value(secret, usernameKey);
          if (username == null) {
            return problem(missingKey(field, usernameKey, credential.secretRef.name, i, "usernameKey"));
          }
          values.put(TeamFoldersFragment.usernameFile(TeamRef.folder(team), credential.id), username);
        }
      }
    }
    return new MiteSecrets.Resolution(values, Optional.empty());
  }

  private static String missingKey(String field, String key, String secretName, int index, String refField) {
    return field + " names key " + key + " of Secret " + secretName + ", which has no such key; fix: add it, or correct"
        + " spec.credentials[" + index + "].secretRef." + refField;
  }

  private static MiteSecrets.Resolution problem(String message) {
    return new MiteSecrets.Resolution(Map.of(), Optional.of(message));
  }
}
