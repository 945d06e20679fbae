package dev.varroa.operator.render;

import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the Team CRD cannot check and a folder cannot hold: two pipelines of one name (one job would silently replace
 * the other), two credentials of one id (the folder store refuses the second), and a pipeline whose credentialsId is
 * none of the Team's credentials (the checkout would fail at its first run). Each problem names the Team, the field
 * and the fix.
 */
public final class TeamFolderCheck {
  private TeamFolderCheck() {}

  public static List<String> problems(Team team) {
    String named = "Team " + team.getMetadata().getNamespace() + "/" + team.getMetadata().getName();
    TeamSpec spec = team.getSpec();
    List<String> problems = new ArrayList<>();
    if (spec == null) {
      return problems;
    }
    List<TeamSpec.Pipeline> pipelines = spec.pipelines == null ? List.of() : spec.pipelines;
    List<TeamSpec.Credential> credentials = spec.credentials == null ? List.of() : spec.credentials;
    List<dev.varroa.api.v1alpha1.Subject> subjects = spec.subjects == null ? List.of() : spec.subjects;
    for (int i = 0; i < subjects.size(); i++) {
      if (subjects.get(i).kind == dev.varroa.api.v1alpha1.Subject.Kind.User
          && JenkinsAuthorizationRenderer.VARROA_USER.equals(subjects.get(i).name)) {
        problems.add(named + ": spec.subjects[" + i + "] is User " + JenkinsAuthorizationRenderer.VARROA_USER
            + ", the identity the mite's token runs as in Jenkins; fix: remove that subject");
      }
    }
    Map<String, Integer> pipelineAt = new HashMap<>();
    for (int i = 0; i < pipelines.size(); i++) {
      Integer first = pipelineAt.putIfAbsent(pipelines.get(i).name, i);
      if (first != null) {
        problems.add(named + ": spec.pipelines[" + i + "].name " + pipelines.get(i).name + " repeats spec.pipelines["
            + first + "].name, and a folder holds one job of a name; fix: rename one of them, or remove it");
      }
    }
    Map<String, Integer> credentialAt = new HashMap<>();
    for (int i = 0; i < credentials.size(); i++) {
      Integer first = credentialAt.putIfAbsent(credentials.get(i).id, i);
      if (first != null) {
        problems.add(named + ": spec.credentials[" + i + "].id " + credentials.get(i).id + " repeats spec.credentials["
            + first + "].id, and a folder holds one credential of an id; fix: give it another id, or remove it");
      }
    }
    Set<String> ids = credentialAt.keySet();
    for (int i = 0; i < pipelines.size(); i++) {
      String id = pipelines.get(i).credentialsId;
      if (id != null && !id.isBlank() && !ids.contains(id)) {
        String known = ids.isEmpty() ? "the Team has no spec.credentials"
            : "its credentials are " + ids.stream().sorted().collect(Collectors.joining(", "));
        problems.add(named + ": spec.pipelines[" + i + "].credentialsId " + id + " is not the id of one of its"
            + " spec.credentials (" + known + "); fix: add a credential with id " + id
            + " to spec.credentials, or correct spec.pipelines[" + i + "].credentialsId");
      }
    }
    return problems;
  }
}
