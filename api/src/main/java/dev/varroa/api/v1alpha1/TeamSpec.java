package dev.varroa.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/** What a team runs, on which pool, for whom. Names and ids that repeat are refused in status (TeamSpecCheck). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TeamSpec {
  @Required
  @Pattern(Names.DNS1123_SUBDOMAIN)
  @JsonPropertyDescription("The CellPool whose cells may host this team.")
  public String pool;

  @Pattern(Names.DNS1123_LABEL)
  @JsonPropertyDescription("The CellPool's namespace; omitted: the Team's own. A pool in another namespace must list"
      + " the Team's namespace in its spec.tenantNamespaces.")
  public String poolNamespace;

  @Size(max = 200)
  @JsonPropertyDescription("The team's pipelines: one Pipeline job each in the team's folder.")
  public List<Pipeline> pipelines;

  @Size(max = 100)
  @JsonPropertyDescription("Who may see and run the team's jobs inside its cell (folder-scoped authorization). On a"
      + " member cluster the core does not read these: grant access there with a VarroaRoleBinding.")
  public List<Subject> subjects;

  @Size(max = 100)
  @JsonPropertyDescription("Other Teams that may call this team's pipelines: a name (a Team of this namespace) or"
      + " namespace/name.")
  public List<@Pattern("^([a-z0-9]([-a-z0-9]*[a-z0-9])?/)?[a-z0-9]([-a-z0-9.]*[a-z0-9])?$") String> callableBy;

  @Size(max = 100)
  @JsonPropertyDescription("Jenkins credentials of the team's folder, each from a Secret in the team's namespace;"
      + " delivered sealed in the desired-state command, never written to the cell's disk outside Jenkins' store.")
  public List<Credential> credentials;

  /** One Pipeline job from a repository. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Pipeline {
    @Required
    @Pattern("^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$")
    @JsonPropertyDescription("The job's name in the team's folder.")
    public String name;

    @Required
    @Size(min = 1, max = 2048)
    @JsonPropertyDescription("The Git repository URL.")
    public String repository;

    @Size(max = 255)
    @JsonPropertyDescription("The branch; omitted: main.")
    public String branch;

    @Size(max = 1024)
    @JsonPropertyDescription("The Pipeline script's path in the repository; omitted: Jenkinsfile.")
    public String scriptPath;

    @Size(max = 128)
    @JsonPropertyDescription("The id of one of spec.credentials that checks the repository out.")
    public String credentialsId;

    @JsonPropertyDescription("When the pipeline runs by itself.")
    public Triggers triggers;
  }

  /** Timer, polling and push triggers; a push arrives at the operator's webhook receiver, not at the cell. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Triggers {
    @Size(max = 256)
    @JsonPropertyDescription("A Jenkins cron spec (H allowed), e.g. \"H 2 * * *\".")
    public String cron;

    @Size(max = 256)
    @JsonPropertyDescription("A Jenkins cron spec for SCM polling, e.g. \"H/5 * * * *\".")
    public String pollScm;

    @JsonPropertyDescription("Run the pipeline when its branch is pushed: a push notification at the operator's"
        + " webhook receiver (POST /hooks/git) queues a build on the Team's cell, waking it if it is parked.")
    public Boolean push;
  }

  /** One folder-scoped Jenkins credential from a Secret. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @ValidationRule(value = "self.type != 'usernamePassword' || has(self.secretRef.usernameKey)",
      message = "a usernamePassword credential needs secretRef.usernameKey")
  public static class Credential {
    @Required
    @Pattern("^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
    @JsonPropertyDescription("The credential id pipelines use.")
    public String id;

    @Required
    @Pattern("^(secretText|usernamePassword|sshPrivateKey)$")
    @JsonPropertyDescription("secretText, usernamePassword or sshPrivateKey.")
    public String type;

    @Required
    @JsonPropertyDescription("The Secret in the team's namespace and the keys read from it.")
    public CredentialSecretRef secretRef;

    @Size(max = 256)
    public String description;
  }

  /** A Secret and its keys. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class CredentialSecretRef {
    @Required
    @Pattern(Names.DNS1123_SUBDOMAIN)
    public String name;

    @Required
    @Size(min = 1, max = 253)
    @JsonPropertyDescription("The key holding the secret text, password or private key.")
    public String key;

    @Size(max = 253)
    @JsonPropertyDescription("For usernamePassword and sshPrivateKey: the key holding the user name.")
    public String usernameKey;
  }
}
